// SPDX-License-Identifier: GPL-3.0-or-later
// Runs f(thread) for thread = 0..n-1 at once, thread 0 on the caller. Each call starts fresh
// threads: a batch takes tens of milliseconds, a thread start some microseconds, and fresh
// threads keep the trainer free of shared pool state.
#pragma once

#include <thread>
#include <vector>

namespace axon::train {

template <typename F>
void parallelFor(int n, F&& f) {
    if (n <= 1) {
        f(0);
        return;
    }
    std::vector<std::thread> workers;
    workers.reserve(std::size_t(n - 1));
    for (int t = 1; t < n; ++t) workers.emplace_back([&f, t] { f(t); });
    f(0);
    for (auto& w : workers) w.join();
}

// [begin, end) of part `index` when `count` items are split into `parts` nearly equal parts.
inline std::size_t partBegin(std::size_t count, int parts, int index) {
    return count * std::size_t(index) / std::size_t(parts);
}

} // namespace axon::train

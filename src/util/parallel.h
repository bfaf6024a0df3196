// SPDX-License-Identifier: GPL-3.0-or-later
// The one way Axon fans work out to threads outside the search's own pool: parallelFor runs a
// task per thread index and waits (the trainer's batches, perft's root moves, the engine pool's
// workers, clearing a large block), WorkerThreads starts them and lets the caller watch them run
// (datagen's and the match runner's progress) before joining. Each call starts fresh threads: a
// start costs microseconds, the work milliseconds to hours, and no pool state outlives a call.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>
#ifndef AXON_NO_THREADS
#include <thread>
#endif

namespace axon::util {

// Runs task(i) for i = 0..n-1 at once, task(0) on the caller's thread, and returns when all
// have. Without threads (the single-threaded WebAssembly build) one after another.
template <typename F>
void parallelFor(int n, F&& task) {
#ifdef AXON_NO_THREADS
    for (int i = 0; i < n; ++i) task(i);
#else
    if (n <= 1) {
        if (n == 1) task(0);
        return;
    }
    std::vector<std::thread> workers;
    workers.reserve(std::size_t(n - 1));
    for (int i = 1; i < n; ++i) workers.emplace_back([&task, i] { task(i); });
    task(0);
    for (auto& w : workers) w.join();
#endif
}

#ifndef AXON_NO_THREADS
// task(i) for i = 0..n-1, each on a thread of its own, started by the constructor; join() (or
// the destructor) waits for them. The caller's thread stays free for progress and interrupts.
// Each thread holds its own copy of `task` (a lambda capturing by reference is cheap to copy),
// so a temporary task outlives the constructor.
class WorkerThreads {
  public:
    template <typename F>
    WorkerThreads(int n, const F& task) {
        m_threads.reserve(std::size_t(n > 0 ? n : 0));
        for (int i = 0; i < n; ++i) m_threads.emplace_back([task, i]() mutable { task(i); });
    }
    WorkerThreads(const WorkerThreads&) = delete;
    WorkerThreads& operator=(const WorkerThreads&) = delete;
    ~WorkerThreads() { join(); }

    void join() {
        for (auto& t : m_threads)
            if (t.joinable()) t.join();
    }

  private:
    std::vector<std::thread> m_threads;
};
#endif

// The first item of part `index` when `count` items are split into `parts` nearly equal parts
// ([partBegin(index), partBegin(index + 1)) is the part).
inline std::size_t partBegin(std::size_t count, int parts, int index) {
    return count * std::size_t(index) / std::size_t(parts);
}

} // namespace axon::util

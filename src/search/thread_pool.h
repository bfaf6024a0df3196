// SPDX-License-Identifier: GPL-3.0-or-later
// Long-lived threads that each run the jobs handed to them, one at a time, and sleep in between:
// a search wakes its threads instead of creating them for every `go`. Owns the OS threads only;
// what they run (search/searcher.cpp) is the caller's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace axon::search {

class ThreadPool {
  public:
    ThreadPool();
    // Lets every thread finish the jobs it was handed, then ends and joins it.
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // Starts or ends threads (the last ones) until there are `count`; those kept keep their OS
    // thread. Threads ended here finish their jobs first.
    void resize(std::size_t count);
    std::size_t size() const { return m_threads.size(); }
    // Hands thread `index` a job, which it runs once its previous job has finished.
    void run(std::size_t index, std::function<void()> job);
    // Blocks until every job handed to thread `index` so far has finished and been destroyed.
    // Any number of threads may wait at once.
    void wait(std::size_t index);
    // The OS threads this pool has started in its life: searches reuse them (tests check it).
    std::uint64_t threadsStarted() const { return m_threadsStarted; }

  private:
    class Thread;
    std::vector<std::unique_ptr<Thread>> m_threads;
    std::uint64_t m_threadsStarted = 0;
};

} // namespace axon::search

// SPDX-License-Identifier: GPL-3.0-or-later
// One OS thread per pool slot, asleep on a condition variable until it is handed a job.
#include "search/thread_pool.h"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

namespace axon::search {

class ThreadPool::Thread {
  public:
    // std::thread, as before the pool: the platform's default stack (8 MiB on Linux, from
    // RLIMIT_STACK; -sDEFAULT_PTHREAD_STACK_SIZE under emscripten), which the recursion needs.
    Thread() : m_thread([this] { loop(); }) {}

    ~Thread() {
        {
            std::lock_guard lock(m_mutex);
            m_exit = true;
        }
        m_wake.notify_one();
        m_thread.join();
    }

    void run(std::function<void()> job) {
        std::unique_lock lock(m_mutex);
        // One job slot: a job handed while another waits or runs follows it.
        m_idle.wait(lock, [this] { return m_finished == m_handed; });
        m_job = std::move(job);
        ++m_handed;
        m_wake.notify_one();
    }

    void wait() {
        std::unique_lock lock(m_mutex);
        // Counts, not a busy flag: a waiter woken late must not sleep on through a job handed
        // after the one it waited for.
        const std::uint64_t target = m_handed;
        m_idle.wait(lock, [this, target] { return m_finished >= target; });
    }

  private:
    void loop() {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_wake.wait(lock, [this] { return m_exit || m_finished != m_handed; });
            if (m_finished == m_handed) return; // asked to exit with nothing left to run
            std::function<void()> job = std::move(m_job);
            m_job = nullptr;
            lock.unlock();
            job();
            // Its captures (the search's callbacks, its network) go before wait() returns, as
            // they did when the thread that ran them ended.
            job = nullptr;
            lock.lock();
            ++m_finished;
            m_idle.notify_all();
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake; // a job was handed, or the thread must end
    std::condition_variable m_idle; // a job finished
    std::function<void()> m_job;
    std::uint64_t m_handed = 0;
    std::uint64_t m_finished = 0;
    bool m_exit = false;
    // Last: the thread starts once everything it uses exists.
    std::thread m_thread;
};

ThreadPool::ThreadPool() = default;

ThreadPool::~ThreadPool() { resize(0); }

void ThreadPool::resize(std::size_t count) {
    while (m_threads.size() > count) m_threads.pop_back();
    while (m_threads.size() < count) {
        m_threads.push_back(std::make_unique<Thread>());
        ++m_threadsStarted;
    }
}

void ThreadPool::run(std::size_t index, std::function<void()> job) {
    m_threads[index]->run(std::move(job));
}

void ThreadPool::wait(std::size_t index) { m_threads[index]->wait(); }

} // namespace axon::search

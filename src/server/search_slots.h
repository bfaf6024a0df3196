// SPDX-License-Identifier: GPL-3.0-or-later
// The server-wide cap on search threads: a session takes as many slots as its search has
// threads and gives them back when the search ends; when too few are free its request waits in
// a FIFO queue (bounded: a full queue refuses; first come, first served, so a waiter asking for
// many threads is not starved by later small ones). Queued searches are started by a dispatcher
// thread of its own, never by the search thread that gave a slot back: starting a search joins the
// session's previous search thread, and two finishing searches starting each other's sessions would
// deadlock.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace axon::server {

class SearchSlots {
  public:
    // Called (on the dispatcher thread) when a waiter gets its slot; returns false when it no
    // longer wants it (its session closed or stopped), and the slot passes on.
    using Start = std::function<bool()>;
    enum class Outcome { Started, Queued, Refused };

    SearchSlots(int slots, int maxQueued);
    ~SearchSlots();
    SearchSlots(const SearchSlots&) = delete;
    SearchSlots& operator=(const SearchSlots&) = delete;

    // Takes `count` free slots (Started: the caller starts its search itself and start is
    // dropped), or queues `start` under `ticket` (`queuePosition` is then its 1-based place), or
    // refuses when the queue is full. `count` is clamped to 1..capacity().
    Outcome acquire(std::uint64_t ticket, int count, Start start, int& queuePosition);
    // Gives `count` slots back (what acquire took).
    void release(int count);
    // Removes a waiter; false when it was not queued (never was, or is being started).
    bool cancel(std::uint64_t ticket);

    int freeSlots() const;
    int queued() const;
    int capacity() const { return m_capacity; }

  private:
    void dispatch();

    struct Waiter {
        std::uint64_t ticket = 0;
        int count = 1;
        Start start;
    };
    int clampCount(int count) const {
        return count < 1 ? 1 : count > m_capacity ? m_capacity : count;
    }
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    const int m_capacity;
    int m_free;
    int m_maxQueued;
    bool m_quit = false;
    std::deque<Waiter> m_queue;
    std::thread m_dispatcher;
};

} // namespace axon::server

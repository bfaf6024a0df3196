// SPDX-License-Identifier: GPL-3.0-or-later
// Search slots: a counting semaphore with a FIFO of waiting sessions and a dispatcher thread.
#include "server/search_slots.h"

#include <algorithm>

namespace axon::server {

SearchSlots::SearchSlots(int slots, int maxQueued)
    : m_capacity(std::max(1, slots)), m_free(m_capacity), m_maxQueued(std::max(0, maxQueued)),
      m_dispatcher([this] { dispatch(); }) {}

SearchSlots::~SearchSlots() {
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_wake.notify_all();
    m_dispatcher.join();
}

SearchSlots::Outcome SearchSlots::acquire(std::uint64_t ticket, int count, Start start,
                                          int& queuePosition) {
    count = clampCount(count);
    std::lock_guard lock(m_mutex);
    if (m_free >= count && m_queue.empty()) {
        m_free -= count;
        return Outcome::Started;
    }
    if (int(m_queue.size()) >= m_maxQueued) return Outcome::Refused;
    m_queue.push_back({ticket, count, std::move(start)});
    queuePosition = int(m_queue.size());
    return Outcome::Queued;
}

void SearchSlots::release(int count) {
    {
        std::lock_guard lock(m_mutex);
        m_free = std::min(m_capacity, m_free + clampCount(count));
    }
    m_wake.notify_all();
}

bool SearchSlots::cancel(std::uint64_t ticket) {
    std::lock_guard lock(m_mutex);
    auto it = std::find_if(m_queue.begin(), m_queue.end(),
                           [&](const Waiter& w) { return w.ticket == ticket; });
    if (it == m_queue.end()) return false;
    m_queue.erase(it);
    return true;
}

int SearchSlots::freeSlots() const {
    std::lock_guard lock(m_mutex);
    return m_free;
}

int SearchSlots::queued() const {
    std::lock_guard lock(m_mutex);
    return int(m_queue.size());
}

void SearchSlots::dispatch() {
    std::unique_lock lock(m_mutex);
    while (true) {
        m_wake.wait(lock, [this] {
            return m_quit || (!m_queue.empty() && m_free >= m_queue.front().count);
        });
        if (m_quit) return;
        Waiter next = std::move(m_queue.front());
        m_queue.pop_front();
        m_free -= next.count;
        lock.unlock();
        // The slot is the waiter's now; its start runs without our lock (it takes the
        // session's lock and joins that session's previous search thread).
        const bool started = next.start();
        lock.lock();
        if (!started) m_free += next.count;
    }
}

} // namespace axon::server

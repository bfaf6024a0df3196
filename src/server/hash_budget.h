// SPDX-License-Identifier: GPL-3.0-or-later
// The server-wide budget of hash memory beyond the sessions' defaults. Every session is
// guaranteed its --hash MiB (the server checks that --total-hash holds --max-sessions of them);
// a session that asks for more (setOption Hash, up to --max-hash) takes the difference from this
// pool and gives it back when it shrinks its table again or closes. Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>

namespace axon::server {

class HashBudget {
  public:
    explicit HashBudget(std::int64_t poolMb) : m_poolMb(poolMb < 0 ? 0 : poolMb) {}

    // Takes `mb` from the pool; false (nothing taken) when less is left.
    bool take(std::int64_t mb);
    // Gives `mb` back (what take took).
    void giveBack(std::int64_t mb);
    std::int64_t leftMb() const;
    std::int64_t poolMb() const { return m_poolMb; }

  private:
    const std::int64_t m_poolMb;
    mutable std::mutex m_mutex;
    std::int64_t m_usedMb = 0;
};

} // namespace axon::server

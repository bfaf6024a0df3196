// SPDX-License-Identifier: GPL-3.0-or-later
// Time management: a soft limit that iterative deepening respects between iterations (scaled by
// best-move stability and score trend) and a hard limit checked inside the search.
#pragma once

#include <chrono>
#include <cstdint>

#include "search/limits.h"

namespace axon::search {

class TimeManager {
  public:
    using Clock = std::chrono::steady_clock;

    void start(const SearchLimits& limits, chess::Color us, int moveOverheadMs, int gamePly);
    std::int64_t elapsedMs() const;
    bool hasLimit() const { return m_hardMs > 0; }
    bool hardExpired() const { return m_hardMs > 0 && elapsedMs() >= m_hardMs; }
    // Should iterative deepening stop before starting another iteration? `stability` counts
    // iterations with an unchanged best move; `scoreDrop` is how far the score fell (cp).
    bool softExpired(int stability, int scoreDrop) const;
    std::int64_t softMs() const { return m_softMs; }
    std::int64_t hardMs() const { return m_hardMs; }

  private:
    Clock::time_point m_start;
    std::int64_t m_softMs = 0;
    std::int64_t m_hardMs = 0;
};

} // namespace axon::search

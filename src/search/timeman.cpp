// SPDX-License-Identifier: GPL-3.0-or-later
// Time allocation from the clock.
#include "search/timeman.h"

#include <algorithm>

#include "search/params.h"

namespace axon::search {

void TimeManager::start(const SearchLimits& limits, chess::Color us, int moveOverheadMs,
                        int gamePly) {
    m_start = Clock::now();
    m_softMs = m_hardMs = 0;
    if (limits.infinite) return;
    if (limits.moveTimeMs > 0) {
        m_softMs = m_hardMs = std::max<std::int64_t>(1, limits.moveTimeMs - moveOverheadMs);
        return;
    }
    if (!limits.hasClock(us)) return;

    const std::int64_t time = limits.timeMs[us], inc = limits.incMs[us];
    const int movesLeft = limits.movesToGo > 0
                              ? std::min(limits.movesToGo, params::tmMovesHorizon)
                              : std::max(params::tmMinMovesLeft,
                                         params::tmMovesHorizon - gamePly / params::tmPliesPerMove);
    // Keep the overhead in reserve for a fixed horizon of moves, not just the moves expected:
    // on a fast increment the clock then settles near 50 overheads instead of 20, the cushion a
    // briefly descheduled process needs. With the shorter reserve Axon lost 19 of 200 games on
    // time at 1+0.01 on a loaded machine (load 7 on 2 cores), with this one 3 of 200; Stockfish,
    // which keeps a 50-move reserve too, lost 2 of 100 there. With movestogo the moves to the
    // next control are the horizon.
    const int reserveMoves = limits.movesToGo > 0 ? movesLeft + 1 : params::tmReserveHorizon + 2;
    const std::int64_t available =
        std::max<std::int64_t>(1, time + inc * (movesLeft - 1) - moveOverheadMs * reserveMoves);
    m_softMs = std::max<std::int64_t>(1, available / movesLeft);
    // Never plan to use more than a fraction of what is on the clock.
    const int sharePercent =
        limits.movesToGo == 1 ? params::tmLastMoveSharePercent : params::tmMaxSharePercent;
    const std::int64_t ceiling =
        std::max<std::int64_t>(1, time - moveOverheadMs) * sharePercent / 100;
    m_hardMs = std::min(ceiling, m_softMs * params::tmHardRatio);
    m_softMs = std::min(m_softMs, m_hardMs);
    m_hardMs = std::max<std::int64_t>(1, m_hardMs);
}

std::int64_t TimeManager::elapsedMs() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - m_start).count();
}

bool TimeManager::softExpired(int stability, int scoreDrop) const {
    if (m_softMs <= 0) return false;
    // A stable best move ends the search early; an unstable one or a falling score extends it.
    double scale = (params::tmSoftScalePercent -
                    params::tmStabilityStepPercent * std::min(stability, params::tmStabilityMax)) /
                   100.0;
    scale += double(std::clamp(scoreDrop, 0, params::tmScoreDropMax)) / params::tmScoreDropMax *
             params::tmScoreDropPercent / 100.0;
    return double(elapsedMs()) >= double(m_softMs) * scale;
}

} // namespace axon::search

// SPDX-License-Identifier: GPL-3.0-or-later
// Time controls ("40/60+0.6", "10+0.1", fixed nodes / depth / movetime) and the game clock.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "chess/types.h"
#include "util/result.h"

namespace axon::match {

struct TimeControl {
    enum class Kind { Clock, Nodes, Depth, MoveTime };
    Kind kind = Kind::Clock;
    int movesPerPeriod = 0; // 0: the base time is for the whole game
    std::int64_t baseMs = 0;
    std::int64_t incrementMs = 0;
    std::int64_t nodes = 0;
    int depth = 0;
    std::int64_t moveTimeMs = 0;

    // The PGN TimeControl tag: "40/60+0.6", "10+0.1"; "-" for limits that are not clocks.
    std::string pgnTag() const;
    // For people: "10+0.1", "nodes=5000", "depth=6", "movetime=100".
    std::string describe() const;
};

// Reads "[moves/]seconds[+increment]" (seconds may be fractional), "nodes=N", "depth=N" or
// "movetime=MS".
util::Result<TimeControl> parseTimeControl(std::string_view text);

// Both players' clocks under a clock time control. A move that takes longer than the time left
// plus the margin loses on time; the margin absorbs the runner's own pipe and scheduling delay,
// not the engine's lateness.
class GameClock {
  public:
    // Each side may have its own time control (handicap matches).
    GameClock(const TimeControl& white, const TimeControl& black, std::int64_t marginMs);

    std::int64_t remainingMs(chess::Color c) const { return m_remaining[c]; }
    std::int64_t incrementMs(chess::Color c) const { return m_tc[c].incrementMs; }
    // Moves until the next time control for `c`; 0 under sudden death.
    int movesToGo(chess::Color c) const { return m_tc[c].movesPerPeriod ? m_movesLeft[c] : 0; }
    // How long the runner waits for `c`'s move before calling it lost on time.
    std::int64_t deadlineMs(chess::Color c) const { return m_remaining[c] + m_marginMs; }
    // Charges a move; false when it flagged (the clock is left as it was then).
    bool consume(chess::Color c, std::int64_t elapsedMs);

  private:
    TimeControl m_tc[2];
    std::int64_t m_marginMs;
    std::int64_t m_remaining[2];
    int m_movesLeft[2];
};

} // namespace axon::match

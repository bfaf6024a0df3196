// SPDX-License-Identifier: GPL-3.0-or-later
// What a search is asked to do: depth, nodes, time, clock and move restrictions.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/types.h"

namespace axon::search {

struct SearchLimits {
    int depth = 0;           // 0: no limit
    std::uint64_t nodes = 0; // 0: no limit
    // Soft node limit (datagen): no new iteration starts once this many nodes are searched, so
    // every answer comes from a completed iteration; `nodes` stays the hard cap. 0: none.
    std::uint64_t softNodes = 0;
    std::int64_t moveTimeMs = 0;
    std::int64_t timeMs[2] = {0, 0}; // remaining clock per colour; 0: no clock
    std::int64_t incMs[2] = {0, 0};
    int movesToGo = 0;
    int mate = 0; // search for a mate in this many moves
    bool infinite = false;
    bool ponder = false;
    std::vector<chess::Move> searchMoves;

    bool hasClock(chess::Color c) const { return timeMs[c] > 0 || incMs[c] > 0; }
};

} // namespace axon::search

// SPDX-License-Identifier: GPL-3.0-or-later
// Perft: counting the leaf nodes of the legal move tree, the move generator's correctness test.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/position.h"

namespace axon::chess {

// Leaf count at `depth`, counting the last ply in bulk (no make/unmake at the leaves).
std::uint64_t perft(Position& pos, int depth);

struct PerftDivide {
    Move move;
    std::uint64_t nodes;
};
// Leaf counts per root move, in generation order.
std::vector<PerftDivide> perftDivide(Position& pos, int depth);

} // namespace axon::chess

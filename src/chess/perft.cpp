// SPDX-License-Identifier: GPL-3.0-or-later
// Perft with bulk counting at the last ply.
#include "chess/perft.h"

#include "chess/movegen.h"

namespace axon::chess {

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return std::uint64_t(countLegalMoves(pos));
    std::uint64_t nodes = 0;
    for (const Move m : MoveList(pos)) {
        pos.makeMove(m);
        nodes += perft(pos, depth - 1);
        pos.unmakeMove();
    }
    return nodes;
}

std::vector<PerftDivide> perftDivide(Position& pos, int depth) {
    std::vector<PerftDivide> result;
    for (const Move m : MoveList(pos)) {
        pos.makeMove(m);
        result.push_back({m, perft(pos, depth - 1)});
        pos.unmakeMove();
    }
    return result;
}

} // namespace axon::chess

// SPDX-License-Identifier: GPL-3.0-or-later
// The fixed tables of the Syzygy index scheme: how a position's pieces become a number. The two
// kings (or three unique pieces) are placed together in one of 462 (31,332) ways that leave out
// the board's symmetries; every further group of like pieces is a combination of the squares
// still free; a leading pawn group is encoded per file a-d with its own table.
#pragma once

#include <cstdint>

#include "chess/types.h"

namespace axon::tablebase {

// Up to 7 pieces, so a group holds at most 5 (two kings besides).
constexpr int kMaxTablePieces = 7;

struct EncodingTables {
    // Squares below the a1-h8 diagonal numbered 0..27.
    int mapB1H1H7[64];
    // The a1-d1-d4 triangle numbered 0..9, the diagonal squares last.
    int mapA1D1D4[64];
    // Two kings, the first in the triangle, in 462 legal and non-mirrored ways.
    int mapKK[10][64];
    // binomial[k][n]: ways to choose k of n squares.
    std::uint64_t binomial[kMaxTablePieces][64];
    // Pawn squares a2-h7 numbered 47..0, the edge files and low ranks highest: the pawn with the
    // highest number leads its group.
    int mapPawns[64];
    // Index of a leading pawn group by the count of pawns and the leader's square, and the size
    // of that index per count and file a-d.
    int leadPawnIdx[kMaxTablePieces][64];
    int leadPawnsSize[kMaxTablePieces][4];
};

const EncodingTables& encodingTables();

// Rank minus file: negative below the a1-h8 diagonal, zero on it.
constexpr int offDiagonal(chess::Square s) { return chess::rankOf(s) - chess::fileOf(s); }
// The mirror image of a square in the a1-h8 diagonal.
constexpr chess::Square transposed(chess::Square s) {
    return chess::Square(((s >> 3) | (s << 3)) & 63);
}

} // namespace axon::tablebase

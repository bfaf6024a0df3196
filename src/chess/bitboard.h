// SPDX-License-Identifier: GPL-3.0-or-later
// Bitboard primitives: bit scans, population count, shifts and file/rank masks.
#pragma once

#include <bit>
#include <string>

#include "chess/types.h"

namespace axon::chess {

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kFileH = kFileA << 7;
constexpr Bitboard kRank1 = 0xFFULL;
constexpr Bitboard kRank8 = kRank1 << 56;
constexpr Bitboard kAll = ~Bitboard(0);

constexpr Bitboard fileBB(int file) { return kFileA << file; }
constexpr Bitboard rankBB(int rank) { return kRank1 << (8 * rank); }
constexpr Bitboard squareBB(Square s) { return Bitboard(1) << s; }
constexpr Bitboard relativeRankBB(Color c, int rank) {
    return rankBB(c == White ? rank : 7 - rank);
}

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
inline Square msb(Bitboard b) { return Square(63 - std::countl_zero(b)); }
inline Square popLsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}
constexpr bool moreThanOne(Bitboard b) { return b & (b - 1); }

enum Direction : int {
    North = 8,
    South = -8,
    East = 1,
    West = -1,
    NorthEast = 9,
    NorthWest = 7,
    SouthEast = -7,
    SouthWest = -9
};

// Shift every bit one step in direction D, dropping bits that would wrap around a board edge.
template <Direction D>
constexpr Bitboard shift(Bitboard b) {
    if constexpr (D == North) return b << 8;
    if constexpr (D == South) return b >> 8;
    if constexpr (D == East) return (b & ~kFileH) << 1;
    if constexpr (D == West) return (b & ~kFileA) >> 1;
    if constexpr (D == NorthEast) return (b & ~kFileH) << 9;
    if constexpr (D == NorthWest) return (b & ~kFileA) << 7;
    if constexpr (D == SouthEast) return (b & ~kFileH) >> 7;
    if constexpr (D == SouthWest) return (b & ~kFileA) >> 9;
}

// A multi-line picture of the bitboard, rank 8 first, for debugging.
std::string toString(Bitboard b);

} // namespace axon::chess

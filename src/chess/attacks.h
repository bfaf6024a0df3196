// SPDX-License-Identifier: GPL-3.0-or-later
// Attack tables: leaper attacks, lines between squares, and sliding attacks by PEXT or magics.
#pragma once

#include "chess/bitboard.h"

#if defined(__BMI2__) && !defined(AXON_NO_PEXT)
#include <immintrin.h>
#define AXON_USE_PEXT 1
#else
#define AXON_USE_PEXT 0
#endif

namespace axon::chess {

namespace detail {
extern Bitboard pawnAttacks[kNumColors][kNumSquares];
extern Bitboard knightAttacks[kNumSquares];
extern Bitboard kingAttacks[kNumSquares];
extern Bitboard between[kNumSquares][kNumSquares];
extern Bitboard line[kNumSquares][kNumSquares];

// One sliding-piece lookup table per square: the relevant-occupancy mask, the magic multiplier
// and shift, and the offset of this square's block of attack sets.
struct SliderEntry {
    Bitboard mask;
    Bitboard magic;
    Bitboard* magicAttacks;
    Bitboard* pextAttacks;
    unsigned shift;
};
extern SliderEntry bishopEntries[kNumSquares];
extern SliderEntry rookEntries[kNumSquares];

inline Bitboard magicLookup(const SliderEntry& e, Bitboard occ) {
    return e.magicAttacks[((occ & e.mask) * e.magic) >> e.shift];
}
#if AXON_USE_PEXT
inline Bitboard pextLookup(const SliderEntry& e, Bitboard occ) {
    return e.pextAttacks[_pext_u64(occ, e.mask)];
}
#endif
} // namespace detail

inline Bitboard pawnAttacks(Color c, Square s) { return detail::pawnAttacks[c][s]; }
// Every square the pawns of `pawns` (of colour c) attack, all at once by two shifts.
inline Bitboard pawnAttacksOf(Color c, Bitboard pawns) {
    return c == White ? shift<NorthWest>(pawns) | shift<NorthEast>(pawns)
                      : shift<SouthWest>(pawns) | shift<SouthEast>(pawns);
}
inline Bitboard knightAttacks(Square s) { return detail::knightAttacks[s]; }
inline Bitboard kingAttacks(Square s) { return detail::kingAttacks[s]; }

inline Bitboard bishopAttacks(Square s, Bitboard occ) {
#if AXON_USE_PEXT
    return detail::pextLookup(detail::bishopEntries[s], occ);
#else
    return detail::magicLookup(detail::bishopEntries[s], occ);
#endif
}
inline Bitboard rookAttacks(Square s, Bitboard occ) {
#if AXON_USE_PEXT
    return detail::pextLookup(detail::rookEntries[s], occ);
#else
    return detail::magicLookup(detail::rookEntries[s], occ);
#endif
}
inline Bitboard queenAttacks(Square s, Bitboard occ) {
    return bishopAttacks(s, occ) | rookAttacks(s, occ);
}
// Attacks of a non-pawn piece type.
inline Bitboard attacks(PieceType pt, Square s, Bitboard occ) {
    switch (pt) {
    case Knight: return knightAttacks(s);
    case Bishop: return bishopAttacks(s, occ);
    case Rook: return rookAttacks(s, occ);
    case Queen: return queenAttacks(s, occ);
    case King: return kingAttacks(s);
    default: return 0;
    }
}

// Squares strictly between a and b if they share a line, else the empty set.
inline Bitboard between(Square a, Square b) { return detail::between[a][b]; }
// The whole board-edge-to-edge line through a and b, or the empty set.
inline Bitboard line(Square a, Square b) { return detail::line[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line(a, b) & squareBB(c); }

// Reference implementations by ray walking, and the magic path regardless of PEXT, for tests.
Bitboard slowBishopAttacks(Square s, Bitboard occ);
Bitboard slowRookAttacks(Square s, Bitboard occ);
inline Bitboard magicBishopAttacks(Square s, Bitboard occ) {
    return detail::magicLookup(detail::bishopEntries[s], occ);
}
inline Bitboard magicRookAttacks(Square s, Bitboard occ) {
    return detail::magicLookup(detail::rookEntries[s], occ);
}
constexpr bool kHasPext = AXON_USE_PEXT;

// Builds every table; called once by a static initialiser, safe to call again.
void initAttacks();

} // namespace axon::chess

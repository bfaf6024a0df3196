// SPDX-License-Identifier: GPL-3.0-or-later
// Sliding attacks: the magic tables, the PEXT tables (where compiled) and ray walking agree.
#include <gtest/gtest.h>

#include "chess/attacks.h"
#include "util/prng.h"

namespace axon::test {
namespace {

using namespace chess;

TEST(Attacks, MagicAndSelectedPathMatchRayWalking) {
    util::Prng prng(12345);
    for (Square s = A1; s < NoSquare; ++s) {
        for (int i = 0; i < 2000; ++i) {
            // Mix sparse and dense occupancies.
            const Bitboard occ = i % 2 ? prng.sparse() : prng.next() & prng.next();
            const Bitboard bishop = slowBishopAttacks(s, occ), rook = slowRookAttacks(s, occ);
            ASSERT_EQ(magicBishopAttacks(s, occ), bishop) << int(s);
            ASSERT_EQ(magicRookAttacks(s, occ), rook) << int(s);
            // bishopAttacks/rookAttacks use PEXT when the build has BMI2, magics otherwise.
            ASSERT_EQ(bishopAttacks(s, occ), bishop) << int(s);
            ASSERT_EQ(rookAttacks(s, occ), rook) << int(s);
        }
    }
}

TEST(Attacks, ReportsWhichSliderPathIsCompiled) {
#if defined(__BMI2__) && !defined(AXON_NO_PEXT)
    EXPECT_TRUE(kHasPext);
#else
    EXPECT_FALSE(kHasPext);
#endif
}

TEST(Attacks, LeapersAndLines) {
    EXPECT_EQ(popcount(knightAttacks(A1)), 2);
    EXPECT_EQ(popcount(knightAttacks(D4)), 8);
    EXPECT_EQ(popcount(kingAttacks(H8)), 3);
    EXPECT_EQ(pawnAttacks(White, E4), squareBB(D5) | squareBB(F5));
    EXPECT_EQ(pawnAttacks(Black, A5), squareBB(B4));
    EXPECT_EQ(between(A1, D4), squareBB(B2) | squareBB(C3));
    EXPECT_EQ(between(A1, B3), 0u);
    EXPECT_EQ(between(E1, E8), (fileBB(4) & ~rankBB(0) & ~rankBB(7)));
    EXPECT_EQ(line(B2, C3), squareBB(A1) | squareBB(B2) | squareBB(C3) | squareBB(D4) |
                                squareBB(E5) | squareBB(F6) | squareBB(G7) | squareBB(H8));
    EXPECT_TRUE(aligned(A1, H8, D4));
    EXPECT_FALSE(aligned(A1, H8, D5));
}

// The shifted set attack of many pawns at once equals the union of the per-square tables, with
// pawns on the a- and h-files (where a shift must not wrap) and on the first and last ranks.
TEST(Attacks, PawnSetAttacksAreTheUnionOfSquareAttacks) {
    util::Prng rng(20261128);
    for (int trial = 0; trial < 2000; ++trial) {
        const Bitboard pawns = rng.next() & rng.next();
        for (const Color c : {White, Black}) {
            Bitboard expected = 0;
            for (Bitboard b = pawns; b;) expected |= pawnAttacks(c, popLsb(b));
            ASSERT_EQ(pawnAttacksOf(c, pawns), expected) << pawns;
        }
    }
    EXPECT_EQ(pawnAttacksOf(White, squareBB(A2) | squareBB(H2)), squareBB(B3) | squareBB(G3));
    EXPECT_EQ(pawnAttacksOf(Black, squareBB(H7)), squareBB(G6));
}

} // namespace
} // namespace axon::test

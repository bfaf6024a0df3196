// SPDX-License-Identifier: GPL-3.0-or-later
// Static exchange evaluation on hand-checked exchanges.
#include "chess/see.h"
#include "chess/uci_move.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;

struct SeeCase {
    const char* fen;
    const char* move;
    int value; // exact exchange result in SEE units
};

class SeeExact : public ::testing::TestWithParam<SeeCase> {};

// seeGe(m, t) must hold exactly for t <= value: checking value and value + 1 pins it down.
TEST_P(SeeExact, ThresholdBoundary) {
    const SeeCase& c = GetParam();
    const Position pos = fen(c.fen);
    auto move = parseUciMove(pos, c.move);
    ASSERT_TRUE(move.ok()) << move.error();
    EXPECT_TRUE(pos.seeGe(*move, c.value)) << c.fen << " " << c.move;
    EXPECT_FALSE(pos.seeGe(*move, c.value + 1)) << c.fen << " " << c.move;
}

constexpr int P = 100, N = 300, B = 300, R = 500, Q = 900;

INSTANTIATE_TEST_SUITE_P(
    See, SeeExact,
    ::testing::Values(
        // Undefended pawn.
        SeeCase{"1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", P},
        // Pawn defended by a pawn, taken by a rook: rook lost for pawn.
        SeeCase{"1k6/8/3p4/4p3/8/8/8/1K2R3 w - - 0 1", "e1e5", P - R},
        // Knight takes a defended pawn, defended by a pawn.
        SeeCase{"1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", P - N},
        // Quiet move to an attacked square loses the piece.
        SeeCase{"4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1", "b1c3", 0},
        SeeCase{"4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3b5", 0},
        SeeCase{"4k3/8/2p5/8/8/2N5/8/4K3 w - - 0 1", "c3b5", -N},
        // X-ray: rooks doubled behind each other win the defended pawn exchange.
        SeeCase{"4k3/4r3/8/4p3/8/8/4R3/4RK2 w - - 0 1", "e2e5", P},
        // Queen takes a defended knight.
        SeeCase{"4k3/8/3p4/4n3/8/8/8/4QK2 w - - 0 1", "e1e5", N - Q},
        // Bishop takes rook, recaptured by a pawn.
        SeeCase{"4k3/8/5p2/4r3/8/8/1B6/4K3 w - - 0 1", "b2e5", R - B},
        // En passant capture of an undefended pawn.
        SeeCase{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", P},
        // The king takes an undefended queen.
        SeeCase{"4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", "e1d2", Q}));

TEST(See, KingCannotRecaptureDefendedPiece) {
    // Black queen takes the defended pawn next to the white king: the king recaptures, and
    // with a black rook behind the queen the king may not.
    const Position guarded = fen("3rk3/8/8/8/8/8/3P4/4K3 b - - 0 1");
    ASSERT_TRUE(guarded.inCheck() == false);
    const Position pos = fen("3rk3/8/8/8/8/3q4/3P4/4K3 b - - 0 1");
    auto m = parseUciMove(pos, "d3d2");
    ASSERT_TRUE(m.ok());
    EXPECT_TRUE(pos.seeGe(*m, P)); // wins the pawn: the king cannot take back
}

} // namespace
} // namespace axon::test

// SPDX-License-Identifier: GPL-3.0-or-later
// Game-ending rules: mate, stalemate, fifty moves, repetitions (game and search) and material.
#include "chess/movegen.h"
#include "chess/rules.h"
#include "chess/uci_move.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;

void play(Position& pos, std::initializer_list<const char*> moves) {
    for (const char* text : moves) {
        auto m = parseUciMove(pos, text);
        ASSERT_TRUE(m.ok()) << m.error();
        pos.makeMove(*m);
    }
}

TEST(Rules, CheckmateAndStalemate) {
    Position pos = startPosition();
    play(pos, {"f2f3", "e7e5", "g2g4", "d8h4"});
    EXPECT_EQ(gameStatus(pos), GameStatus::Checkmate);
    EXPECT_EQ(gameStatus(fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")), GameStatus::Stalemate);
    EXPECT_EQ(gameStatus(startPosition()), GameStatus::Ongoing);
}

TEST(Rules, FiftyMoveRuleCornerCases) {
    // The clock reaching 100 half-moves draws...
    Position pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    EXPECT_EQ(gameStatus(pos), GameStatus::Ongoing);
    play(pos, {"a1a2"});
    EXPECT_EQ(pos.halfmoveClock(), 100);
    EXPECT_EQ(gameStatus(pos), GameStatus::FiftyMoveRule);
    // ...but a mate delivered on the hundredth half-move is a mate.
    Position mate = fen("4k3/R7/4K3/8/8/8/8/8 w - - 99 80");
    play(mate, {"a7a8"});
    EXPECT_EQ(gameStatus(mate), GameStatus::Checkmate);
    // A capture or pawn move resets the clock.
    Position reset = fen("4k3/8/8/8/8/8/4P3/R3K3 w - - 98 80");
    play(reset, {"e2e3"});
    EXPECT_EQ(reset.halfmoveClock(), 0);
}

TEST(Rules, ThreefoldRepetition) {
    Position pos = startPosition();
    EXPECT_EQ(pos.repetitionCount(), 0);
    play(pos, {"g1f3", "g8f6", "f3g1", "f6g8"});
    EXPECT_EQ(pos.repetitionCount(), 1);
    EXPECT_EQ(gameStatus(pos), GameStatus::Ongoing);
    play(pos, {"g1f3", "g8f6", "f3g1", "f6g8"});
    EXPECT_EQ(pos.repetitionCount(), 2);
    EXPECT_EQ(gameStatus(pos), GameStatus::ThreefoldRepetition);
}

TEST(Rules, RepetitionNeedsSameCastlingRightsAndSide) {
    Position pos = startPosition();
    // The rook's round trip loses the castling right: not the same position.
    play(pos, {"g1f3", "g8f6", "h1g1", "f6g8", "g1h1", "g8f6", "f3g1", "f6g8"});
    EXPECT_EQ(pos.repetitionCount(), 0);
}

TEST(Rules, TwofoldInsideSearchThreefoldBeforeRoot) {
    Position pos = startPosition();
    play(pos, {"g1f3", "g8f6", "f3g1", "f6g8"}); // second occurrence, both before the root
    EXPECT_FALSE(pos.isRepetition(0)) << "a single earlier occurrence before the root is no draw";
    play(pos, {"g1f3", "g8f6", "f3g1", "f6g8"}); // third occurrence
    EXPECT_TRUE(pos.isRepetition(0));

    Position search = startPosition();
    play(search, {"e2e4", "e7e5"});                 // the root
    play(search, {"g1f3", "g8f6", "f3g1", "f6g8"}); // repeats the root inside the search
    EXPECT_TRUE(search.isRepetition(4));
    EXPECT_FALSE(search.isRepetition(3)) << "the earlier occurrence lies before a 3-ply root";
}

TEST(Rules, RepetitionScanStopsAtIrreversibleMoves) {
    Position pos = startPosition();
    play(pos, {"g1f3", "g8f6", "f3g1", "f6g8", "e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8"});
    EXPECT_EQ(pos.repetitionCount(), 1); // only since e2e4/e7e5
}

TEST(Rules, InsufficientMaterial) {
    EXPECT_EQ(insufficientMaterial(fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), MaterialDraw::Dead);
    EXPECT_EQ(insufficientMaterial(fen("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1")), MaterialDraw::Dead);
    EXPECT_EQ(insufficientMaterial(fen("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1")), MaterialDraw::Dead);
    // Bishops all on dark squares (c1 and f8 are both dark).
    EXPECT_EQ(insufficientMaterial(fen("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1")), MaterialDraw::Dead);
    // Opposite-coloured bishops: a mate exists.
    EXPECT_EQ(insufficientMaterial(fen("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1")), MaterialDraw::None);
    // KNN v K is not dead (helpmate exists) but cannot be forced: drawn only by claim.
    EXPECT_EQ(insufficientMaterial(fen("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1")),
              MaterialDraw::DrawnByClaim);
    EXPECT_EQ(gameStatus(fen("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1")), GameStatus::Ongoing);
    EXPECT_EQ(insufficientMaterial(fen("4k3/8/8/8/8/8/8/1Nn1K3 w - - 0 1")), MaterialDraw::None);
    EXPECT_EQ(insufficientMaterial(fen("4k3/8/8/8/8/8/8/1N1BK3 w - - 0 1")), MaterialDraw::None);
    EXPECT_EQ(insufficientMaterial(fen("4k3/8/8/8/8/8/P7/4K3 w - - 0 1")), MaterialDraw::None);
    EXPECT_EQ(gameStatus(fen("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1")), GameStatus::InsufficientMaterial);
}

} // namespace
} // namespace axon::test

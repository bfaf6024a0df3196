// SPDX-License-Identifier: GPL-3.0-or-later
// Game-ending rules: mate, stalemate, fifty moves, repetitions (game and search) and material.
#include <algorithm>

#include "chess/cuckoo.h"
#include "chess/movegen.h"
#include "chess/rules.h"
#include "chess/uci_move.h"
#include "chess/zobrist.h"
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
    play(search, {"g1f3", "g8f6", "f3g1", "f6g8"}); // returns to the root inside the search
    EXPECT_FALSE(search.isRepetition(4)) << "a single return to the root is no draw";
    EXPECT_TRUE(search.isRepetition(5)) << "the earlier occurrence lies inside a 5-ply search";
    EXPECT_FALSE(search.isRepetition(3)) << "the earlier occurrence lies before a 3-ply root";
    // A root that had occurred before: returning to it makes a threefold repetition.
    play(search, {"g1f3", "g8f6", "f3g1", "f6g8"});
    EXPECT_TRUE(search.isRepetition(4)) << "the root itself repeated an earlier position";
}

TEST(Rules, RepetitionScanStopsAtIrreversibleMoves) {
    Position pos = startPosition();
    play(pos, {"g1f3", "g8f6", "f3g1", "f6g8", "e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8"});
    EXPECT_EQ(pos.repetitionCount(), 1); // only since e2e4/e7e5
}

TEST(Rules, CuckooTablesHoldEveryReversibleMove) {
    // Knights 168, bishops 280, rooks 448, queens 728, kings 210 two-square pairs, both colours.
    EXPECT_EQ(cuckoo::size(), 3668);
    const Key knight = zobrist::pieceSquare[WhiteKnight][G1] ^
                       zobrist::pieceSquare[WhiteKnight][F3] ^ zobrist::sideToMove;
    const auto found = cuckoo::find(knight);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(std::min(found->a, found->b), G1);
    EXPECT_EQ(std::max(found->a, found->b), F3);
    EXPECT_FALSE(cuckoo::find(knight ^ zobrist::sideToMove).has_value());
}

TEST(Rules, UpcomingRepetitionNeedsAFreePathInsideTheSearch) {
    Position pos = startPosition();
    play(pos, {"g1f3", "g8f6", "f3g1"}); // black's Nf6-g8 would repeat the start position
    EXPECT_TRUE(pos.hasUpcomingRepetition(4));
    EXPECT_FALSE(pos.hasUpcomingRepetition(3)) << "the start position is the root itself";
    EXPECT_FALSE(pos.isRepetition(4)) << "not a repetition yet";

    // Black's king steps back to e8 and repeats the position before 1. Ra8+.
    Position king = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    play(king, {"a1a8", "e8e7", "a8a1"});
    EXPECT_TRUE(king.hasUpcomingRepetition(4));
    play(king, {"e7d6"});
    EXPECT_FALSE(king.hasUpcomingRepetition(5)) << "no white move restores an earlier position";

    // The queen went a8-h8-a1 while white's king walked a triangle: Qa1-a8 would repeat the
    // start, unless the pawn on a4 stands in the way.
    for (const bool pawnBlocks : {false, true}) {
        Position queen =
            fen(pawnBlocks ? "q7/8/7k/8/P7/4K3/8/8 w - - 0 1" : "q7/8/7k/8/8/4K3/8/8 w - - 0 1");
        play(queen, {"e3d3", "a8h8", "d3d2", "h8a1", "d2e3"});
        EXPECT_EQ(queen.hasUpcomingRepetition(6), !pawnBlocks);
    }
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

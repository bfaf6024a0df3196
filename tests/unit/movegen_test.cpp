// SPDX-License-Identifier: GPL-3.0-or-later
// Staged generation, isPseudoLegal/isLegal against the legal list for every 16-bit move code,
// givesCheck against making the move, and null moves.
#include <fstream>
#include <set>

#include "chess/movegen.h"
#include "chess/perft_suite.h"
#include "chess/uci_move.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;

// Positions from the suites plus the positions one move away from each, for variety (checks,
// pins, en passant and castling arise in the children).
std::vector<Position> samplePositions(const std::string& file, int limit) {
    std::vector<Position> result;
    std::ifstream in(sharedData(file));
    auto suite = readPerftSuite(in);
    if (!suite.ok()) return result;
    for (const PerftCase& c : *suite) {
        if (int(result.size()) >= limit) break;
        Position pos = fen(c.fen);
        result.push_back(pos);
        for (const Move m : MoveList(pos)) {
            pos.makeMove(m);
            result.push_back(pos);
            pos.unmakeMove();
        }
    }
    return result;
}

std::vector<Position> allSamples() {
    auto a = samplePositions("perft/standard.epd", 400);
    auto b = samplePositions("perft/tricky.perft", 400);
    auto c = samplePositions("perft/fischer.epd", 300);
    a.insert(a.end(), b.begin(), b.end());
    a.insert(a.end(), c.begin(), c.end());
    return a;
}

TEST(MoveGen, NoisyAndQuietPartitionAllMoves) {
    AXON_REQUIRE_DATA(sharedData("perft/standard.epd"));
    for (const Position& pos : allSamples()) {
        const MoveList<GenType::All> all(pos);
        const MoveList<GenType::Noisy> noisy(pos);
        const MoveList<GenType::Quiet> quiet(pos);
        EXPECT_EQ(noisy.size() + quiet.size(), all.size()) << toFen(pos);
        for (const Move m : noisy) {
            EXPECT_TRUE(all.contains(m));
            EXPECT_TRUE(pos.isNoisy(m)) << toFen(pos) << " " << toUci(m, true);
        }
        for (const Move m : quiet) {
            EXPECT_TRUE(all.contains(m));
            EXPECT_FALSE(pos.isNoisy(m)) << toFen(pos) << " " << toUci(m, true);
        }
        std::set<std::uint16_t> unique;
        for (const Move m : all) unique.insert(m.raw());
        EXPECT_EQ(int(unique.size()), all.size()) << "duplicate moves in " << toFen(pos);
    }
}

TEST(MoveGen, PseudoLegalAndLegalAgreeWithGeneratorOnEveryMoveCode) {
    AXON_REQUIRE_DATA(sharedData("perft/standard.epd"));
    const auto samples = allSamples();
    ASSERT_GT(samples.size(), 1000u);
    for (const Position& pos : samples) {
        const MoveList<GenType::All> legal(pos);
        int accepted = 0;
        for (unsigned code = 0; code < 65536; ++code) {
            const Move m{std::uint16_t(code)};
            if (pos.isPseudoLegal(m) && pos.isLegal(m)) {
                ++accepted;
                ASSERT_TRUE(legal.contains(m)) << toFen(pos) << " accepted " << toUci(m, true);
            }
        }
        ASSERT_EQ(accepted, legal.size()) << toFen(pos);
    }
}

TEST(MoveGen, GivesCheckMatchesMakingTheMove) {
    AXON_REQUIRE_DATA(sharedData("perft/standard.epd"));
    for (Position pos : allSamples()) {
        for (const Move m : MoveList(pos)) {
            const bool predicted = pos.givesCheck(m);
            pos.makeMove(m);
            EXPECT_EQ(predicted, pos.inCheck()) << toFen(pos) << " after " << toUci(m, true);
            pos.unmakeMove();
        }
    }
}

// The whole attack map of a side against attackersTo, square by square, for both sides.
TEST(MoveGen, AttackedByMatchesAttackersToSquareBySquare) {
    AXON_REQUIRE_DATA(sharedData("perft/standard.epd"));
    int attackedPieces = 0;
    for (const Position& pos : allSamples()) {
        for (const Color by : {White, Black}) {
            Bitboard expected = 0;
            for (int sq = 0; sq < kNumSquares; ++sq)
                if (pos.attackersTo(Square(sq)) & pos.pieces(by)) expected |= squareBB(Square(sq));
            ASSERT_EQ(attackedBy(pos, by), expected) << toFen(pos) << " by " << int(by);
            attackedPieces += (expected & pos.pieces(~by)) != 0;
        }
    }
    EXPECT_GT(attackedPieces, 500) << "attacked pieces must be common for the test to mean much";
}

TEST(MoveGen, KeyAfterPredictsQuietAndCaptureKeys) {
    AXON_REQUIRE_DATA(sharedData("perft/standard.epd"));
    for (Position pos : allSamples()) {
        for (const Move m : MoveList(pos)) {
            if (m.type() != MoveType::Normal) continue;
            const Key predicted = pos.keyAfter(m);
            pos.makeMove(m);
            if (pos.epSquare() == NoSquare) {
                EXPECT_EQ(predicted, pos.key()) << toFen(pos);
            }
            pos.unmakeMove();
        }
    }
}

TEST(MoveGen, NullMoveFlipsSideAndRestores) {
    Position pos = fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
    const Key before = pos.key();
    pos.makeNullMove();
    EXPECT_EQ(pos.sideToMove(), White);
    EXPECT_EQ(pos.epSquare(), NoSquare);
    EXPECT_TRUE(pos.isConsistent());
    pos.unmakeNullMove();
    EXPECT_EQ(pos.key(), before);
    EXPECT_EQ(pos.epSquare(), E3);
}

TEST(MoveGen, EvasionsOnlyInCheck) {
    // Double check: only king moves.
    const Position dbl = fen("4k3/8/8/8/8/5n2/8/4K2r w - - 0 1");
    ASSERT_EQ(popcount(dbl.checkers()), 2);
    for (const Move m : MoveList(dbl)) EXPECT_EQ(m.from(), E1);
    // En passant that removes the checking pawn.
    const Position ep = fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    ASSERT_TRUE(ep.inCheck());
    EXPECT_TRUE(MoveList(ep).contains(Move(E4, D3, MoveType::EnPassant)));
}

TEST(MoveGen, Chess960CastlingWhereTheRookShieldsTheKing) {
    // Queen-side castling keeps the king on c1 but uncovers the b1 rook's file... here the
    // castling rook on b1 shields c1 from the queen on a1: castling would leave the king in check.
    const Position pos = fen("4k3/8/8/8/8/8/8/qRK5 w B - 0 1");
    EXPECT_FALSE(MoveList(pos).contains(Move(C1, B1, MoveType::Castling)));
    const Position free = fen("4k3/8/8/8/8/8/8/1RK5 w B - 0 1");
    EXPECT_TRUE(MoveList(free).contains(Move(C1, B1, MoveType::Castling)));
}

} // namespace
} // namespace axon::test

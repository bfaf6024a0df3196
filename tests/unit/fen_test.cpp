// SPDX-License-Identifier: GPL-3.0-or-later
// FEN: round trips, Chess960 castling fields, and rejection of malformed or illegal positions.
#include <fstream>

#include "chess/movegen.h"
#include "chess/perft_suite.h"
#include "chess/uci_move.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;

TEST(Fen, StartPositionRoundTrip) {
    const Position pos = startPosition();
    EXPECT_EQ(toFen(pos), Position::kStartFen);
    EXPECT_EQ(pos.sideToMove(), White);
    EXPECT_EQ(pos.castlingRights(), AllCastling);
    EXPECT_EQ(pos.castlingRookSquare(WhiteQueenSide), A1);
    EXPECT_EQ(pos.castlingRookSquare(BlackKingSide), H8);
    EXPECT_FALSE(pos.isChess960());
}

TEST(Fen, SuitePositionsRoundTrip) {
    for (const char* file : {"perft/standard.epd", "perft/fischer.epd", "perft/tricky.perft"}) {
        const auto path = sharedData(file);
        AXON_REQUIRE_DATA(path);
        std::ifstream in(path);
        auto suite = readPerftSuite(in);
        ASSERT_TRUE(suite.ok());
        for (const PerftCase& c : *suite) {
            const Position pos = fen(c.fen);
            const std::string written = toFen(pos);
            const Position again = fen(written);
            EXPECT_EQ(again.key(), pos.key()) << c.fen << " -> " << written;
            EXPECT_EQ(toFen(again), written);
            EXPECT_EQ(again.castlingRights(), pos.castlingRights());
            for (int i = 0; i < 4; ++i) {
                const auto r = CastlingRights(1 << i);
                if (pos.canCastle(r)) {
                    EXPECT_EQ(again.castlingRookSquare(r), pos.castlingRookSquare(r)) << c.fen;
                }
            }
        }
    }
}

TEST(Fen, ShredderAndXFenCastling) {
    // The same Chess960 position with Shredder (file letters) and X-FEN (KQkq) castling.
    const Position shredder =
        fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    const Position xfen = fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    EXPECT_EQ(shredder.key(), xfen.key());
    EXPECT_EQ(shredder.castlingRookSquare(WhiteKingSide), H1);
    EXPECT_EQ(shredder.castlingRookSquare(WhiteQueenSide), F1);
    EXPECT_TRUE(shredder.isChess960());
    // Two rooks on one side: the inner one needs a file letter (X-FEN).
    const Position inner = fen("4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1");
    EXPECT_EQ(inner.castlingRookSquare(WhiteQueenSide), C1);
    EXPECT_EQ(toFen(inner), "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1");
    const Position outer = fen("4k3/8/8/8/8/8/8/R1R1K3 w Q - 0 1");
    EXPECT_EQ(outer.castlingRookSquare(WhiteQueenSide), A1);
}

TEST(Fen, CountersOptional) {
    const Position pos = fen("4k3/8/8/8/8/8/8/4K3 b - -");
    EXPECT_EQ(pos.halfmoveClock(), 0);
    EXPECT_EQ(pos.fullmoveNumber(), 1);
    EXPECT_EQ(pos.sideToMove(), Black);
    EXPECT_EQ(fen("4k3/8/8/8/8/8/8/4K3 w - - 37 80").halfmoveClock(), 37);
    EXPECT_EQ(fen("4k3/8/8/8/8/8/8/4K3 w - - 37 80").fullmoveNumber(), 80);
}

TEST(Fen, EnPassantSquareKeptOnlyWhenCapturePossible) {
    // After 1.e4 no black pawn can capture: the square is dropped, so the key equals the key
    // of the same position written without it.
    const Position withEp = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    const Position without = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    EXPECT_EQ(withEp.epSquare(), NoSquare);
    EXPECT_EQ(withEp.key(), without.key());
    // A capture is possible: kept.
    const Position capturable = fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    EXPECT_EQ(capturable.epSquare(), E3);
    // Capture possible geometrically but illegal (the capturing pawn is pinned along the rank).
    const Position pinned = fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1");
    EXPECT_EQ(pinned.epSquare(), NoSquare);
}

TEST(Fen, EqualPositionsByDifferentRoutesHaveEqualKeys) {
    Position a = startPosition(), b = startPosition();
    for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) a.makeMove(*parseUciMove(a, m));
    EXPECT_EQ(a.key(), b.key());
    // Double push with no capturer vs two single pushes: same placement, same key.
    Position c = startPosition(), d = startPosition();
    for (const char* m : {"e2e4", "e7e6", "d2d3", "e6e5"}) c.makeMove(*parseUciMove(c, m));
    for (const char* m : {"e2e3", "e7e5", "e3e4", "g8f6", "d2d3", "f6g8"})
        d.makeMove(*parseUciMove(d, m));
    EXPECT_EQ(c.key(), d.key());
}

struct BadFen {
    const char* fen;
    const char* expected; // a fragment of the error message
};

class FenRejects : public ::testing::TestWithParam<BadFen> {};

TEST_P(FenRejects, WithAClearMessage) {
    auto result = parseFen(GetParam().fen);
    ASSERT_FALSE(result.ok()) << GetParam().fen;
    EXPECT_NE(result.error().find(GetParam().expected), std::string::npos)
        << GetParam().fen << " -> " << result.error();
}

INSTANTIATE_TEST_SUITE_P(
    Fen, FenRejects,
    ::testing::Values(
        BadFen{"", "4 to 6 fields"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "4 to 6 fields"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "4 to 6 fields"},
        BadFen{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
               "unexpected character '9'"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "8 full ranks"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 ranks"},
        BadFen{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
               "unexpected character 'x'"},
        BadFen{"rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
               "does not have 8 squares"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
        BadFen{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has no king"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1", "more than one king"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w kq - 0 1", "first or last rank"},
        BadFen{"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "first or last rank"},
        BadFen{"4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "not to move is in check"},
        BadFen{"4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", "without a rook"},
        BadFen{"4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "without a rook"},
        BadFen{"4k3/8/8/8/8/8/4K3/7R w K - 0 1", "not on its first rank"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", "unexpected castling"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKQkq - 0 1", "given twice"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "not a square"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "impossible square"},
        BadFen{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", "impossible square"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "half-move clock"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 151 1", "half-move clock"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "half-move clock"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", "full-move number"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1z", "full-move number"},
        BadFen{"k7/8/8/8/8/8/PPPPPPPP/PPPPK3 w - - 0 1", "first or last rank"},
        BadFen{"k7/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "more than 8 pawns"},
        BadFen{"8/8/8/3kK3/8/8/8/8 w - - 0 1", "not to move is in check"},
        BadFen{"4k3/8/8/8/1b6/5n2/4r3/4K3 w - - 0 1", "more than two checkers"}));

} // namespace
} // namespace axon::test

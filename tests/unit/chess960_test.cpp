// SPDX-License-Identifier: GPL-3.0-or-later
// Chess960 start positions by number: the standard numbering's known members, every start a
// legal Chess960 arrangement and all 960 distinct, and double Chess960 FENs that parse.
#include <algorithm>
#include <set>

#include "chess/chess960.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

std::string backRankLetters(int n) {
    std::string letters;
    for (chess::PieceType t : chess::chess960BackRank(n)) letters += "PNBRQK"[t];
    return letters;
}

TEST(Chess960, KnownNumbers) {
    EXPECT_EQ(backRankLetters(518), "RNBQKBNR");
    EXPECT_EQ(backRankLetters(0), "BBQNNRKR");
    EXPECT_EQ(backRankLetters(959), "RKRNNQBB");
    EXPECT_EQ(backRankLetters(960 + 518), "RNBQKBNR") << "taken modulo 960";
}

TEST(Chess960, EveryStartIsLegalAndDistinct) {
    std::set<std::string> seen;
    for (int n = 0; n < chess::kChess960Positions; ++n) {
        const std::string rank = backRankLetters(n);
        seen.insert(rank);
        ASSERT_EQ(std::count(rank.begin(), rank.end(), 'N'), 2) << n << " " << rank;
        ASSERT_EQ(std::count(rank.begin(), rank.end(), 'Q'), 1) << n << " " << rank;
        const auto b1 = rank.find('B'), b2 = rank.rfind('B');
        ASSERT_NE(b1, b2) << n;
        EXPECT_NE(b1 % 2, b2 % 2) << "bishops on both colours: " << n << " " << rank;
        const auto r1 = rank.find('R'), r2 = rank.rfind('R'), k = rank.find('K');
        EXPECT_TRUE(r1 < k && k < r2) << "the king between the rooks: " << n << " " << rank;
    }
    EXPECT_EQ(seen.size(), 960u);
}

TEST(Chess960, DoubleStartsParse) {
    auto standard = chess::parseFen(chess::doubleChess960Fen(518, 518));
    ASSERT_TRUE(standard.ok()) << standard.error();
    EXPECT_FALSE(standard->isChess960());
    EXPECT_EQ(standard->key(), chess::startPosition().key());

    const std::string fenText = chess::doubleChess960Fen(0, 959);
    EXPECT_EQ(fenText, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1");
    for (const auto& [white, black] : {std::pair{0, 959}, std::pair{123, 456}, std::pair{959, 0}}) {
        auto pos = chess::parseFen(chess::doubleChess960Fen(white, black));
        ASSERT_TRUE(pos.ok()) << pos.error();
        EXPECT_TRUE(pos->isChess960());
        EXPECT_EQ(pos->castlingRights(), chess::AllCastling) << white << " " << black;
        EXPECT_FALSE(chess::MoveList(*pos).empty());
    }
}

} // namespace
} // namespace axon::test

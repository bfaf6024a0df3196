// SPDX-License-Identifier: GPL-3.0-or-later
// UCI move notation in standard and Chess960 modes, and its error messages.
#include "chess/uci_move.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;

TEST(UciMove, CastlingInBothForms) {
    const Position pos = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    const Move shortCastle(E1, H1, MoveType::Castling);
    EXPECT_EQ(toUci(shortCastle, false), "e1g1");
    EXPECT_EQ(toUci(shortCastle, true), "e1h1");
    EXPECT_EQ(toUci(Move(E1, A1, MoveType::Castling), false), "e1c1");
    EXPECT_EQ(*parseUciMove(pos, "e1g1"), shortCastle);
    EXPECT_EQ(*parseUciMove(pos, "e1h1"), shortCastle);
    EXPECT_EQ(*parseUciMove(pos, "e1c1"), Move(E1, A1, MoveType::Castling));
}

TEST(UciMove, Chess960KingTakesRookIsNotConfusedWithKingMove) {
    // King f1, rook g1: "f1g1" is castling (king takes own rook); the king already stands next
    // to its destination square.
    const Position pos = fen("k7/8/8/8/8/8/8/5KR1 w G - 0 1");
    auto m = parseUciMove(pos, "f1g1");
    ASSERT_TRUE(m.ok()) << m.error();
    EXPECT_EQ(m->type(), MoveType::Castling);
    // Rook on b1, king on c1: queen side castling keeps the king on c1.
    const Position q = fen("1rk5/8/8/8/8/8/8/1RK5 w B - 0 1");
    auto qm = parseUciMove(q, "c1b1");
    ASSERT_TRUE(qm.ok()) << qm.error();
    EXPECT_EQ(qm->type(), MoveType::Castling);
}

TEST(UciMove, Chess960CastlingNeedsItsOwnFormWhereTheKingStepsOne) {
    // King b1, rook a1: castling queen side takes the king to c1, so the standard form "b1c1"
    // is the plain king move; only "b1a1" says castling (datagen writes every castling move in
    // that form for this reason: CastlingInBothForms reads it in a standard position too).
    const Position pos = fen("rk6/8/8/8/8/8/8/RK6 w Aa - 0 1");
    const Move castle(B1, A1, MoveType::Castling);
    EXPECT_EQ(toUci(castle, false), "b1c1");
    EXPECT_EQ(*parseUciMove(pos, "b1a1"), castle);
    EXPECT_EQ(parseUciMove(pos, "b1c1")->type(), MoveType::Normal);
}

TEST(UciMove, Promotions) {
    const Position pos = fen("8/4P3/8/8/8/8/8/k3K3 w - - 0 1");
    EXPECT_EQ(*parseUciMove(pos, "e7e8q"), Move(E7, E8, MoveType::Promotion, Queen));
    EXPECT_EQ(*parseUciMove(pos, "e7e8n"), Move(E7, E8, MoveType::Promotion, Knight));
    EXPECT_EQ(toUci(Move(E7, E8, MoveType::Promotion, Rook), false), "e7e8r");
    EXPECT_FALSE(parseUciMove(pos, "e7e8").ok());
    EXPECT_FALSE(parseUciMove(pos, "e7e8k").ok());
}

TEST(UciMove, ErrorsNameTheMove) {
    const Position pos = startPosition();
    for (const char* bad : {"", "e2", "e2e5", "e9e4", "zz", "e2e4e4e4", "a1a1", "0000"}) {
        auto m = parseUciMove(pos, bad);
        ASSERT_FALSE(m.ok()) << bad;
        EXPECT_NE(m.error().find(std::string("'") + bad + "'"), std::string::npos) << m.error();
    }
}

} // namespace
} // namespace axon::test

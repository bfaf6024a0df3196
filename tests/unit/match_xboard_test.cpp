// SPDX-License-Identifier: GPL-3.0-or-later
// The CECP (xboard) text handling: feature lines, thinking output, the forms a move reply takes,
// and moves read and written in coordinate, SAN and Chess960 castling notation.
#include <gtest/gtest.h>

#include "chess/fen.h"
#include "chess/uci_move.h"
#include "match/xboard_engine.h"

namespace axon::match {
namespace {

chess::Position positionFrom(const char* fen) {
    auto pos = chess::parseFen(fen);
    EXPECT_TRUE(pos) << fen;
    return pos ? *pos : chess::startPosition();
}

TEST(MatchXboard, FeatureLinesWithQuotedValues) {
    XboardFeatures f;
    std::optional<int> done;
    const auto names = parseFeatureLine(
        "feature ping=1 setboard=1 san=1 usermove=1 time=0 myname=\"Fairy Max 5.0\" "
        "variants=\"normal,fischerandom\" done=0",
        f, done);
    EXPECT_EQ(names, (std::vector<std::string>{"ping", "setboard", "san", "usermove", "time",
                                               "myname", "variants", "done"}));
    EXPECT_TRUE(f.ping);
    EXPECT_TRUE(f.setboard);
    EXPECT_TRUE(f.san);
    EXPECT_TRUE(f.usermove);
    EXPECT_FALSE(f.time);
    EXPECT_EQ(f.myname, "Fairy Max 5.0");
    EXPECT_EQ(f.variants, (std::vector<std::string>{"normal", "fischerandom"}));
    ASSERT_TRUE(done);
    EXPECT_EQ(*done, 0);
    EXPECT_FALSE(f.done);

    done.reset();
    parseFeatureLine("feature setboard=0 done=1", f, done);
    EXPECT_FALSE(f.setboard);
    EXPECT_TRUE(f.done);
    ASSERT_TRUE(done);
    EXPECT_EQ(*done, 1);
}

TEST(MatchXboard, FeatureDefaultsAreTheProtocols) {
    const XboardFeatures f;
    EXPECT_FALSE(f.ping);
    EXPECT_FALSE(f.setboard);
    EXPECT_FALSE(f.san);
    EXPECT_FALSE(f.usermove);
    EXPECT_TRUE(f.time);
}

TEST(MatchXboard, ThinkingLines) {
    SearchResult r;
    ASSERT_TRUE(parseThinkingLine("  9     -35     120    45678 e2e4 e7e5 g1f3", r));
    EXPECT_EQ(r.depth, 9);
    ASSERT_TRUE(r.scoreCp);
    EXPECT_EQ(*r.scoreCp, -35);
    EXPECT_FALSE(r.scoreMate);

    ASSERT_TRUE(parseThinkingLine("12. 100003 50 999 Qh7+ Kf8 Qh8#", r));
    EXPECT_EQ(r.depth, 12);
    ASSERT_TRUE(r.scoreMate);
    EXPECT_EQ(*r.scoreMate, 3);
    EXPECT_FALSE(r.scoreCp);
    ASSERT_TRUE(parseThinkingLine("7& -100002 50 999 Kg8", r));
    ASSERT_TRUE(r.scoreMate);
    EXPECT_EQ(*r.scoreMate, -2);

    SearchResult other;
    EXPECT_FALSE(parseThinkingLine("move e2e4", other));
    EXPECT_FALSE(parseThinkingLine("tellics say Fairy-Max 5.0b", other));
    EXPECT_FALSE(parseThinkingLine("1. ... e7e5", other));
    EXPECT_FALSE(parseThinkingLine("pong 3", other));
    EXPECT_EQ(other.depth, 0);
    EXPECT_FALSE(other.scoreCp);
}

TEST(MatchXboard, MoveReplyForms) {
    EXPECT_EQ(moveInReply("move e2e4"), "e2e4");
    EXPECT_EQ(moveInReply("move O-O"), "O-O");
    EXPECT_EQ(moveInReply("My move is: e7e5"), "e7e5");
    EXPECT_EQ(moveInReply("my move is Nf3"), "Nf3");
    EXPECT_EQ(moveInReply("12. ... e7e5"), "e7e5");
    EXPECT_EQ(moveInReply("12 -35 120 45678 e2e4"), "");
    EXPECT_EQ(moveInReply("1-0 {White mates}"), "");
    EXPECT_EQ(moveInReply("pong 1"), "");
}

TEST(MatchXboard, MovesReadInEveryNotation) {
    const auto start = chess::startPosition();
    for (const char* text : {"e2e4", "E2E4", "e4"}) {
        const auto m = parseXboardMove(start, text);
        ASSERT_TRUE(m) << text;
        EXPECT_EQ(chess::toUci(*m, false), "e2e4") << text;
    }
    EXPECT_FALSE(parseXboardMove(start, "e2e5"));
    EXPECT_FALSE(parseXboardMove(start, "xyz"));
    EXPECT_FALSE(parseXboardMove(start, ""));

    const auto promo = positionFrom("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    for (const char* text : {"e7e8q", "e7e8Q", "e7e8=Q", "e8=Q"}) {
        const auto m = parseXboardMove(promo, text);
        ASSERT_TRUE(m) << text;
        EXPECT_EQ(chess::toUci(*m, false), "e7e8q") << text;
    }

    const auto castle = positionFrom("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (const char* text : {"e1g1", "e1h1", "O-O", "0-0"}) {
        const auto m = parseXboardMove(castle, text);
        ASSERT_TRUE(m) << text;
        EXPECT_EQ(chess::toUci(*m, false), "e1g1") << text;
    }
}

TEST(MatchXboard, MovesWrittenAsTheEngineAsked) {
    const auto start = chess::startPosition();
    const auto nf3 = chess::parseUciMove(start, "g1f3");
    ASSERT_TRUE(nf3);
    EXPECT_EQ(formatXboardMove(start, *nf3, false), "g1f3");
    EXPECT_EQ(formatXboardMove(start, *nf3, true), "Nf3");

    const auto castle = positionFrom("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    const auto oo = chess::parseUciMove(castle, "e1g1");
    ASSERT_TRUE(oo);
    EXPECT_EQ(formatXboardMove(castle, *oo, false), "e1g1");
    EXPECT_EQ(formatXboardMove(castle, *oo, true), "O-O");

    // Chess960: the king on b1 and rooks on a1 and h1 (Shredder-FEN rights): castling is
    // written O-O / O-O-O, since a coordinate move could not say which castling is meant.
    auto c960 = positionFrom("r3k2r/8/8/8/8/8/8/RK5R w HAha - 0 1");
    c960.setChess960(true);
    const auto queenSide = chess::parseUciMove(c960, "b1a1");
    ASSERT_TRUE(queenSide);
    EXPECT_EQ(formatXboardMove(c960, *queenSide, false), "O-O-O");
    const auto kingSide = chess::parseUciMove(c960, "b1h1");
    ASSERT_TRUE(kingSide);
    EXPECT_EQ(formatXboardMove(c960, *kingSide, false), "O-O");
    const auto back = parseXboardMove(c960, "O-O");
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, *kingSide);
}

} // namespace
} // namespace axon::match

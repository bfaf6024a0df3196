// SPDX-License-Identifier: GPL-3.0-or-later
// EPD suite scoring: c0 point lists, themes from ids, reading with skipped lines, the bm / am /
// points rules, and ordered, concurrency-independent runs over a fake engine pool.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <sstream>

#include "chess/fen.h"
#include "chess/san.h"
#include "chess/uci_move.h"
#include "fake_engine.h"
#include "match/epd_suite.h"
#include "test_helpers.h"

namespace axon {
namespace {

using match::themeOf;

chess::Move san(const chess::Position& pos, const char* text) {
    auto m = chess::parseSan(pos, text);
    EXPECT_TRUE(m.ok()) << text;
    return m.ok() ? *m : chess::Move::none();
}

TEST(MatchEpdSuite, PointListParsing) {
    const auto pos = chess::startPosition();
    auto list = match::parseMovePoints(pos, "Nf3=10, Nc3=5,e4=3 , d4=0");
    ASSERT_TRUE(list.ok()) << list.error();
    ASSERT_EQ(list->size(), 4u);
    EXPECT_EQ((*list)[0].move, san(pos, "Nf3"));
    EXPECT_EQ((*list)[0].points, 10);
    EXPECT_EQ((*list)[1].points, 5);
    EXPECT_EQ((*list)[2].move, san(pos, "e4"));
    EXPECT_EQ((*list)[3].points, 0);
}

TEST(MatchEpdSuite, PointListWithPromotionAndCheck) {
    const auto pos = test::fen("8/4P1k1/8/8/8/8/8/R3K3 w - - 0 1");
    auto list = match::parseMovePoints(pos, "e8=Q=10, Ra7+=4");
    ASSERT_TRUE(list.ok()) << list.error();
    ASSERT_EQ(list->size(), 2u);
    EXPECT_EQ((*list)[0].move, san(pos, "e8=Q"));
    EXPECT_EQ((*list)[1].move, san(pos, "Ra7"));
    EXPECT_EQ((*list)[1].points, 4);
}

TEST(MatchEpdSuite, PointListErrors) {
    const auto pos = chess::startPosition();
    EXPECT_FALSE(match::parseMovePoints(pos, "Nf3").ok());
    EXPECT_FALSE(match::parseMovePoints(pos, "Nf3=ten").ok());
    EXPECT_FALSE(match::parseMovePoints(pos, "Nf3=").ok());
    EXPECT_FALSE(match::parseMovePoints(pos, "Nf6=3").ok());          // not legal for White
    EXPECT_FALSE(match::parseMovePoints(pos, "Nf3=3, Ng1f3=2").ok()); // the same move twice
    EXPECT_FALSE(match::parseMovePoints(pos, "Nf3=3,").ok());
    const auto error = match::parseMovePoints(pos, "Nf3=10, Qh5=2");
    ASSERT_FALSE(error.ok());
    EXPECT_NE(error.error().find("Qh5"), std::string::npos) << error.error();
}

TEST(MatchEpdSuite, ThemeIsTheIdWithoutItsFinalNumber) {
    EXPECT_EQ(themeOf("STS(v1.0) Undermining.001"), "STS(v1.0) Undermining");
    EXPECT_EQ(themeOf("STS(v2.2) Open Files and Diagonals.015"),
              "STS(v2.2) Open Files and Diagonals");
    EXPECT_EQ(themeOf("WAC.001"), "WAC");
    EXPECT_EQ(themeOf("BK.24"), "BK");
    EXPECT_EQ(themeOf("pos_12"), "pos");
    EXPECT_EQ(themeOf("ECM 7 "), "ECM");
    EXPECT_EQ(themeOf("endgame"), "endgame");
    EXPECT_EQ(themeOf("v1.0 test"), "v1.0 test"); // no final number: the whole id
    EXPECT_EQ(themeOf("42"), "(no id)");
    EXPECT_EQ(themeOf(""), "(no id)");
}

const char* kSuite =
    "# a comment\n"
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n"
    "\n"
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"Nf3=10, e4=8, d4=7\"; id \"STS "
    "Opening.001\";\n"
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"nothing.1\";\n"
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - bm e4; id \"broken.1\";\n"
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"Nf3=10, Nf6=3\"; id "
    "\"badpoints.1\";\n"
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - am f3 g4; c0 \"avoid the worst\"; id "
    "\"Avoid.002\";\n";

TEST(MatchEpdSuite, ReadingSkipsBadLinesWithTheirNumbers) {
    std::istringstream in(kSuite);
    const match::Suite suite = match::readSuite(in);
    ASSERT_EQ(suite.positions.size(), 3u);
    EXPECT_EQ(suite.positions[0].line, 2);
    EXPECT_EQ(suite.positions[0].theme, "WAC");
    EXPECT_EQ(suite.positions[1].points.size(), 3u);
    EXPECT_EQ(suite.positions[1].theme, "STS Opening");
    EXPECT_TRUE(suite.positions[2].points.empty()); // a c0 without '=' is a plain comment
    ASSERT_EQ(suite.skipped.size(), 3u);
    EXPECT_EQ(suite.skipped[0].line, 5);
    EXPECT_NE(suite.skipped[0].reason.find("nothing to score"), std::string::npos);
    EXPECT_EQ(suite.skipped[1].line, 6);
    EXPECT_EQ(suite.skipped[2].line, 7);
    EXPECT_NE(suite.skipped[2].reason.find("c0"), std::string::npos) << suite.skipped[2].reason;
}

TEST(MatchEpdSuite, Scoring) {
    std::istringstream in(kSuite);
    const match::Suite suite = match::readSuite(in);
    const auto& wac = suite.positions[0];
    EXPECT_TRUE(match::scorePosition(wac, san(wac.record.position, "Qg6")).solved);
    EXPECT_FALSE(match::scorePosition(wac, san(wac.record.position, "Qh4")).solved);
    EXPECT_EQ(match::scorePosition(wac, san(wac.record.position, "Qg6")).maxPoints, 0);

    const auto& sts = suite.positions[1];
    const auto best = match::scorePosition(sts, san(sts.record.position, "Nf3"));
    EXPECT_TRUE(best.solved);
    EXPECT_EQ(best.points, 10);
    EXPECT_EQ(best.maxPoints, 10);
    const auto second = match::scorePosition(sts, san(sts.record.position, "e4"));
    EXPECT_FALSE(second.solved);
    EXPECT_EQ(second.points, 8);
    const auto unlisted = match::scorePosition(sts, san(sts.record.position, "a3"));
    EXPECT_EQ(unlisted.points, 0);
    EXPECT_EQ(unlisted.maxPoints, 10);

    const auto& avoid = suite.positions[2];
    EXPECT_TRUE(match::scorePosition(avoid, san(avoid.record.position, "e4")).solved);
    EXPECT_FALSE(match::scorePosition(avoid, san(avoid.record.position, "g4")).solved);
}

TEST(MatchEpdSuite, BestMoveAndPointsTogether) {
    // STS files carry both: bm decides "solved", c0 the points.
    std::istringstream in("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; c0 \"e4=10, "
                          "d4=9\"; id \"S.1\";\n");
    const match::Suite suite = match::readSuite(in);
    ASSERT_EQ(suite.positions.size(), 1u);
    const auto& p = suite.positions[0];
    const auto d4 = match::scorePosition(p, san(p.record.position, "d4"));
    EXPECT_FALSE(d4.solved);
    EXPECT_EQ(d4.points, 9);
}

// Qg6 in WAC.001 (solved), e4 elsewhere: 8 of 10 points in the STS position, and not one of
// the avoided moves.
std::string suiteAnswer(const match::SearchRequest& request) {
    if (request.startFen.rfind("2rr3k", 0) == 0) return "g3g6";
    return "e2e4";
}

TEST(MatchEpdSuite, RunIsOrderedAndTheSameAtAnyConcurrency) {
    std::istringstream in(kSuite);
    const match::Suite suite = match::readSuite(in);
    std::string outputs[2];
    for (int concurrency : {1, 3}) {
        match::SuiteRunOptions options;
        options.limit.nodes = 1000;
        options.concurrency = concurrency;
        options.verbose = true;
        std::ostringstream out;
        auto factory = [] { return std::make_unique<test::FakeEngine>(suiteAnswer); };
        auto summary = match::runSuite(suite, options, factory, out);
        ASSERT_TRUE(summary.ok()) << summary.error();
        EXPECT_EQ(summary->positions, 3);
        EXPECT_EQ(summary->skipped, 3);
        EXPECT_EQ(summary->total.solved, 2); // WAC.001 and Avoid.002; e4 earns 8 of 10
        EXPECT_EQ(summary->total.points, 8);
        EXPECT_EQ(summary->total.maxPoints, 10);
        ASSERT_EQ(summary->themes.size(), 3u);
        EXPECT_EQ(summary->themes[0].theme, "WAC");
        EXPECT_EQ(summary->themes[1].theme, "STS Opening");
        outputs[concurrency == 1 ? 0 : 1] = out.str();
        const std::string text = match::formatSuiteSummary(*summary);
        EXPECT_NE(text.find("Solved: 2/3 (66.7%)  Points: 8/10 (80.0%)"), std::string::npos)
            << text;
    }
    EXPECT_EQ(outputs[0], outputs[1]);
    EXPECT_NE(outputs[0].find("WAC.001  bm Qg6  engine Qg6  ok\n"), std::string::npos)
        << outputs[0];
    EXPECT_NE(outputs[0].find("STS Opening.001  points Nf3=10 e4=8 d4=7  engine e4  8/10 FAIL\n"),
              std::string::npos)
        << outputs[0];
    EXPECT_LT(outputs[0].find("WAC.001"), outputs[0].find("Avoid.002"));
}

TEST(MatchEpdSuite, EngineFailuresCountAsUnsolved) {
    std::istringstream in(kSuite);
    const match::Suite suite = match::readSuite(in);
    match::SuiteRunOptions options;
    options.limit.depth = 3;
    std::ostringstream out;
    auto crashOnWac = [](const match::SearchRequest& r) {
        return r.startFen.rfind("2rr3k", 0) == 0 ? std::string() : std::string("a2a9");
    };
    auto summary = match::runSuite(
        suite, options, [&] { return std::make_unique<test::FakeEngine>(crashOnWac); }, out);
    ASSERT_TRUE(summary.ok());
    EXPECT_EQ(summary->engineErrors, 3); // one crash, two illegal moves
    EXPECT_EQ(summary->total.solved, 0);
    EXPECT_EQ(summary->total.maxPoints, 10);
    EXPECT_NE(summary->results[1].error.find("illegal move 'a2a9'"), std::string::npos);
}

// Ctrl-C: the position in flight is finished, no new one starts, the summary covers those done.
TEST(MatchEpdSuite, InterruptStopsAfterThePositionsInFlight) {
    std::istringstream in(kSuite);
    const match::Suite suite = match::readSuite(in);
    for (int concurrency : {1, 2}) {
        std::atomic<bool> interrupt{false};
        std::atomic<int> searches{0};
        match::SuiteRunOptions options;
        options.limit.nodes = 1000;
        options.concurrency = concurrency;
        options.interrupt = &interrupt;
        std::ostringstream out;
        auto factory = [&] {
            return std::make_unique<test::FakeEngine>([&](const match::SearchRequest& r) {
                if (++searches == 1) interrupt = true; // during the first search
                return suiteAnswer(r);
            });
        };
        auto summary = match::runSuite(suite, options, factory, out);
        ASSERT_TRUE(summary.ok()) << summary.error();
        EXPECT_TRUE(summary->interrupted);
        EXPECT_EQ(summary->planned, 3);
        // One position per engine at most: those already started when the flag was set.
        EXPECT_GE(summary->positions, 1);
        EXPECT_LE(summary->positions, concurrency);
        EXPECT_EQ(summary->total.positions, summary->positions);
        EXPECT_EQ(int(summary->results.size()), summary->positions);
        EXPECT_TRUE(summary->results[0].score.solved); // WAC.001, analysed in full
        const std::string text = match::formatSuiteSummary(*summary);
        EXPECT_NE(text.find("Interrupted after " + std::to_string(summary->positions) +
                            " of 3 positions"),
                  std::string::npos)
            << text;
        EXPECT_NE(match::suiteSummaryJson(*summary, suite).find("\"interrupted\": true"),
                  std::string::npos);
    }
    // Not interrupted: no such line.
    match::SuiteRunOptions options;
    options.limit.nodes = 1000;
    std::ostringstream out;
    auto summary = match::runSuite(
        suite, options, [] { return std::make_unique<test::FakeEngine>(suiteAnswer); }, out);
    ASSERT_TRUE(summary.ok());
    EXPECT_FALSE(summary->interrupted);
    EXPECT_EQ(match::formatSuiteSummary(*summary).find("Interrupted"), std::string::npos);
}

} // namespace
} // namespace axon

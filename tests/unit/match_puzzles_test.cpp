// SPDX-License-Identifier: GPL-3.0-or-later
// Lichess puzzles: CSV header and line parsing, malformed lines (reported with their numbers,
// never fatal), filters, solving against a scripted engine (alternative mates on the last move,
// wrong moves, crashes) and the report's breakdowns.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <memory>
#include <sstream>

#include "fake_engine.h"
#include "match/puzzles.h"
#include "test_helpers.h"

namespace axon {
namespace {

const char* kHeader =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags";
// Mate in 2 (the first puzzle of the Lichess sample): ...Rxa3 Rd8+ Rxd8 Rxd8#.
const char* kMateIn2 =
    "0fYUn,1r4k1/5ppp/p7/8/1P1R4/P1r4P/3R2P1/6K1 b - - 0 27,c3a3 d4d8 b8d8 d2d8,399,92,100,189,"
    "backRankMate endgame mate mateIn2 rookEndgame short,https://lichess.org/0xGprMIQ/black#54,";
// Mate in 1 with two mating moves after ...c6: Ra8# (the solution) and Rb8#.
const char* kTwoMates = "alt01,7k/2p3pp/8/8/8/8/1R6/R5K1 b - - 0 1,c7c6 a1a8,1650,80,90,100,"
                        "mate mateIn1 oneMove,https://lichess.org/x,";

match::Puzzle parse(const char* line) {
    auto p = match::parsePuzzleLine(line, match::PuzzleColumns{});
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error());
    return p.ok() ? *p : match::Puzzle{};
}

// An engine that plays the given moves in turn, one per search.
std::unique_ptr<test::FakeEngine> scripted(std::vector<std::string> moves) {
    auto next = std::make_shared<std::size_t>(0);
    return std::make_unique<test::FakeEngine>([moves, next](const match::SearchRequest&) {
        return *next < moves.size() ? moves[(*next)++] : std::string("0000");
    });
}

TEST(MatchPuzzles, HeaderMapsColumns) {
    auto c = match::parsePuzzleHeader(kHeader);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->count, 10u);
    EXPECT_EQ(c->moves, 2u);
    EXPECT_EQ(c->themes, 7u);
    auto reordered = match::parsePuzzleHeader("FEN,PuzzleId,Rating,Moves,Themes");
    ASSERT_TRUE(reordered.ok());
    EXPECT_EQ(reordered->fen, 0u);
    EXPECT_EQ(reordered->rating, 2u);
    EXPECT_FALSE(match::parsePuzzleHeader("PuzzleId,FEN,Rating,Themes").ok()); // no Moves
}

TEST(MatchPuzzles, LineParsing) {
    const auto p = parse(kMateIn2);
    EXPECT_EQ(p.id, "0fYUn");
    EXPECT_EQ(p.rating, 399);
    EXPECT_EQ(p.moves, (std::vector<std::string>{"c3a3", "d4d8", "b8d8", "d2d8"}));
    EXPECT_EQ(p.themes.size(), 6u);
    EXPECT_EQ(p.themes[3], "mateIn2");
}

TEST(MatchPuzzles, MalformedLinesSayWhy) {
    const match::PuzzleColumns columns;
    auto error = [&](const std::string& line) {
        auto p = match::parsePuzzleLine(line, columns);
        return p.ok() ? std::string("(accepted)") : p.error();
    };
    EXPECT_NE(error("a,b,c").find("3 columns, expected 10"), std::string::npos);
    EXPECT_NE(error("x,8/8/8/8/8/8/8/8 w - - 0 1,e2e4 e7e5,1500,1,1,1,t,u,").find("bad FEN"),
              std::string::npos);
    EXPECT_NE(error("x,7k/2p3pp/8/8/8/8/1R6/R5K1 b - - 0 1,c7c6 a1a9,1500,1,1,1,t,u,")
                  .find("move 2 'a1a9'"),
              std::string::npos);
    EXPECT_NE(error("x,7k/2p3pp/8/8/8/8/1R6/R5K1 b - - 0 1,c7c6 a1a8 h7h6,1500,1,1,1,t,u,")
                  .find("opponent move"),
              std::string::npos);
    EXPECT_NE(error("x,7k/2p3pp/8/8/8/8/1R6/R5K1 b - - 0 1,c7c6,1500,1,1,1,t,u,")
                  .find("at least one solver"),
              std::string::npos);
    EXPECT_NE(
        error("x,7k/2p3pp/8/8/8/8/1R6/R5K1 b - - 0 1,c7c6 a1a8,15x0,1,1,1,t,u,").find("bad Rating"),
        std::string::npos);
}

TEST(MatchPuzzles, ReadingCountsMalformedLinesAndFilters) {
    std::istringstream in(std::string(kHeader) + "\n" + kMateIn2 + "\n" + "garbage line\n" +
                          kTwoMates + "\n" + "bad,8/8/8 w - - 0 1,e2e4 e7e5,1500,1,1,1,t,u,\n" +
                          "\n" + kMateIn2 + "\n");
    const auto all = match::readPuzzles(in, {});
    EXPECT_EQ(all.puzzles.size(), 3u);
    ASSERT_EQ(all.malformed.size(), 2u);
    EXPECT_EQ(all.malformed[0].line, 3);
    EXPECT_EQ(all.malformed[1].line, 5);
    EXPECT_EQ(all.puzzles[1].line, 4);
    EXPECT_EQ(all.puzzles[2].line, 7);

    std::istringstream again(std::string(kHeader) + "\n" + kMateIn2 + "\n" + kTwoMates + "\n" +
                             kMateIn2 + "\n");
    match::PuzzleFilter filter;
    filter.minRating = 1000;
    auto rated = match::readPuzzles(again, filter);
    ASSERT_EQ(rated.puzzles.size(), 1u);
    EXPECT_EQ(rated.puzzles[0].id, "alt01");
    EXPECT_EQ(rated.filteredOut, 2);

    std::istringstream third(std::string(kHeader) + "\n" + kMateIn2 + "\n" + kTwoMates + "\n" +
                             kMateIn2 + "\n");
    filter = {};
    filter.themes = {"oneMove", "nothing"};
    EXPECT_EQ(match::readPuzzles(third, filter).puzzles.size(), 1u);

    std::istringstream fourth(std::string(kHeader) + "\n" + kMateIn2 + "\n" + kTwoMates + "\n" +
                              kMateIn2 + "\n");
    filter = {};
    filter.limit = 2;
    EXPECT_EQ(match::readPuzzles(fourth, filter).puzzles.size(), 2u);
}

TEST(MatchPuzzles, SolvingFollowsTheSolutionWithTheOpponentsReplies) {
    const auto puzzle = parse(kMateIn2);
    auto engine = scripted({"d4d8", "d2d8"});
    match::AnalysisLimit limit;
    limit.nodes = 5000;
    const auto attempt = match::solvePuzzle(*engine, puzzle, limit);
    EXPECT_TRUE(attempt.solved);
    EXPECT_TRUE(attempt.firstMoveAgrees);
    EXPECT_EQ(engine->newGames, 1);
    ASSERT_EQ(engine->requests.size(), 2u);
    EXPECT_EQ(engine->requests[0].startFen, puzzle.fen);
    EXPECT_EQ(engine->requests[0].moves, (std::vector<std::string>{"c3a3"}));
    EXPECT_EQ(engine->requests[1].moves, (std::vector<std::string>{"c3a3", "d4d8", "b8d8"}));
    EXPECT_EQ(engine->requests[1].nodes, 5000);
}

TEST(MatchPuzzles, AWrongMoveFailsThePuzzle) {
    const auto puzzle = parse(kMateIn2);
    match::AnalysisLimit limit;
    limit.nodes = 1;
    auto wrongFirst = scripted({"d2e2"});
    auto a = match::solvePuzzle(*wrongFirst, puzzle, limit);
    EXPECT_FALSE(a.solved);
    EXPECT_FALSE(a.firstMoveAgrees);
    EXPECT_EQ(wrongFirst->requests.size(), 1u);
    auto wrongSecond = scripted({"d4d8", "d2d3"});
    a = match::solvePuzzle(*wrongSecond, puzzle, limit);
    EXPECT_FALSE(a.solved);
    EXPECT_TRUE(a.firstMoveAgrees);
    EXPECT_EQ(a.engineMoves, (std::vector<std::string>{"d4d8", "d2d3"}));
}

TEST(MatchPuzzles, AnyMateOnTheLastMoveIsAccepted) {
    const auto puzzle = parse(kTwoMates);
    match::AnalysisLimit limit;
    limit.depth = 2;
    auto solution = scripted({"a1a8"});
    EXPECT_TRUE(match::solvePuzzle(*solution, puzzle, limit).solved);
    auto otherMate = scripted({"b2b8"});
    const auto alt = match::solvePuzzle(*otherMate, puzzle, limit);
    EXPECT_TRUE(alt.solved);
    EXPECT_FALSE(alt.firstMoveAgrees); // not the solution's move, though it mates
    auto noMate = scripted({"b2b7"});
    EXPECT_FALSE(match::solvePuzzle(*noMate, puzzle, limit).solved);
}

TEST(MatchPuzzles, EngineFailuresAreReportedNotFatal) {
    const auto puzzle = parse(kTwoMates);
    match::AnalysisLimit limit;
    limit.nodes = 1;
    auto crash = scripted({""});
    auto a = match::solvePuzzle(*crash, puzzle, limit);
    EXPECT_FALSE(a.solved);
    EXPECT_NE(a.error.find("exited"), std::string::npos);
    auto illegal = scripted({"a1a9"});
    a = match::solvePuzzle(*illegal, puzzle, limit);
    EXPECT_FALSE(a.solved);
    EXPECT_NE(a.error.find("illegal move 'a1a9'"), std::string::npos);
}

TEST(MatchPuzzles, AnUncheckedBadPuzzleIsAnErrorNotACrash) {
    auto puzzle = parse(kTwoMates);
    puzzle.moves = {"c7c6", "a1a9"};
    auto engine = scripted({"a1a8"});
    const auto a = match::solvePuzzle(*engine, puzzle, match::AnalysisLimit{});
    EXPECT_FALSE(a.solved);
    EXPECT_NE(a.error.find("malformed puzzle"), std::string::npos);
    EXPECT_TRUE(engine->requests.empty());
}

TEST(MatchPuzzles, RatingBands) {
    EXPECT_EQ(match::ratingBand(399), "<1000");
    EXPECT_EQ(match::ratingBand(999), "<1000");
    EXPECT_EQ(match::ratingBand(1000), "1000-1499");
    EXPECT_EQ(match::ratingBand(1499), "1000-1499");
    EXPECT_EQ(match::ratingBand(1500), "1500-1999");
    EXPECT_EQ(match::ratingBand(2499), "2000-2499");
    EXPECT_EQ(match::ratingBand(2500), ">=2500");
    EXPECT_EQ(match::ratingBand(3300), ">=2500");
}

// Ctrl-C: the puzzles in flight are finished, no new one starts, the summary covers those done.
TEST(MatchPuzzles, InterruptStopsAfterThePuzzlesInFlight) {
    std::string csv = std::string(kHeader) + "\n";
    for (int i = 0; i < 6; ++i) csv += std::string(kTwoMates) + "\n";
    std::istringstream in(csv);
    const auto set = match::readPuzzles(in, {});
    ASSERT_EQ(set.puzzles.size(), 6u);
    for (int concurrency : {1, 2}) {
        std::atomic<bool> interrupt{false};
        std::atomic<int> searches{0};
        auto factory = [&] {
            return std::make_unique<test::FakeEngine>([&](const match::SearchRequest&) {
                if (++searches == 2) interrupt = true; // during the second puzzle's search
                return std::string("a1a8");
            });
        };
        match::PuzzleRunOptions options;
        options.limit.nodes = 100;
        options.concurrency = concurrency;
        options.interrupt = &interrupt;
        std::ostringstream out;
        auto summary = match::runPuzzles(set, options, factory, out);
        ASSERT_TRUE(summary.ok()) << summary.error();
        EXPECT_TRUE(summary->interrupted);
        EXPECT_EQ(summary->planned, 6);
        // The second puzzle and any started beside it are finished; none after.
        EXPECT_GE(summary->total.puzzles, 2);
        EXPECT_LE(summary->total.puzzles, 1 + concurrency);
        EXPECT_EQ(summary->total.solved, summary->total.puzzles);
        EXPECT_EQ(int(summary->attempts.size()), summary->total.puzzles);
        const std::string text = match::formatPuzzleSummary(*summary, 5);
        EXPECT_NE(text.find("Interrupted after " + std::to_string(summary->total.puzzles) +
                            " of 6 puzzles"),
                  std::string::npos)
            << text;
        EXPECT_NE(match::puzzleSummaryJson(*summary, set.puzzles).find("\"interrupted\": true"),
                  std::string::npos);
    }
}

TEST(MatchPuzzles, RunAndReport) {
    std::istringstream in(std::string(kHeader) + "\n" + kMateIn2 + "\n" + kTwoMates + "\n" +
                          kMateIn2 + "\n");
    const auto set = match::readPuzzles(in, {});
    // Rb8# (the alternative mate) in the mate in 1, a wrong first move in the mate in 2: one of
    // three solved, no first move agreeing with the solution.
    auto factory = [] {
        return std::make_unique<test::FakeEngine>([](const match::SearchRequest& r) {
            return r.startFen.rfind("7k/", 0) == 0 ? std::string("b2b8") : std::string("d2e2");
        });
    };
    for (int concurrency : {1, 2}) {
        match::PuzzleRunOptions options;
        options.limit.nodes = 100;
        options.concurrency = concurrency;
        options.verbose = true;
        std::ostringstream out;
        auto summary = match::runPuzzles(set, options, factory, out);
        ASSERT_TRUE(summary.ok()) << summary.error();
        EXPECT_EQ(summary->total.puzzles, 3);
        EXPECT_EQ(summary->total.solved, 1);
        EXPECT_EQ(summary->firstMoveAgreements, 0);
        EXPECT_EQ(summary->ratingBands[0].puzzles, 2);
        EXPECT_EQ(summary->ratingBands[0].solved, 0);
        EXPECT_EQ(summary->ratingBands[2].solved, 1);
        EXPECT_EQ(summary->mateThemes[0].puzzles, 1);
        EXPECT_EQ(summary->mateThemes[0].solved, 1);
        EXPECT_EQ(summary->mateThemes[1].puzzles, 2);
        ASSERT_FALSE(summary->themes.empty());
        EXPECT_EQ(summary->themes[0].label, "mate"); // in all three
        EXPECT_EQ(out.str(), "0fYUn  399  solution d4d8 d2d8  engine d2e2  FAIL\n"
                             "alt01  1650  solution a1a8  engine b2b8  ok\n"
                             "0fYUn  399  solution d4d8 d2d8  engine d2e2  FAIL\n");
        const std::string text = match::formatPuzzleSummary(*summary, 5);
        EXPECT_NE(text.find("Solved: 1/3 (33.3%)  first move agreement: 0/3 (0.0%)"),
                  std::string::npos)
            << text;
        EXPECT_NE(text.find("mateIn1"), std::string::npos);
        EXPECT_EQ(text.find("mateIn3"), std::string::npos); // no such puzzle
    }
}

TEST(MatchPuzzles, TheSharedSampleReadsCleanly) {
    const auto path = test::sharedData("puzzles/lichess_puzzles_dev.csv");
    AXON_REQUIRE_DATA(path);
    std::ifstream in(path);
    const auto set = match::readPuzzles(in, {});
    EXPECT_EQ(set.puzzles.size(), 5000u);
    EXPECT_TRUE(set.malformed.empty())
        << set.malformed.front().line << ": " << set.malformed.front().reason;
}

} // namespace
} // namespace axon

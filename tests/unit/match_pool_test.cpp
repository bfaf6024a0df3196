// SPDX-License-Identifier: GPL-3.0-or-later
// Pooling match summaries (match/pool.h): the JSON `axon match --json` writes reads back, the
// counts of several runs add up to the documented pooled result, and summaries that do not
// belong together or are malformed are refused with a reason.
#include <gtest/gtest.h>

#include <string>

#include "match/match.h"
#include "match/pool.h"

namespace axon::match {
namespace {

std::string summaryText(const std::string& first, const std::string& limit, int wins, int losses,
                        int draws, const std::string& penta, const std::string& extra = "") {
    return "{\"engines\": [\"" + first + "\", \"main\"], \"time_control\": \"" + limit +
           "\", \"games\": " + std::to_string(wins + losses + draws) +
           ", \"wins\": " + std::to_string(wins) + ", \"losses\": " + std::to_string(losses) +
           ", \"draws\": " + std::to_string(draws) + ", \"pentanomial\": " + penta + extra + "}";
}

const std::string kSprt05 = ", \"sprt\": {\"elo_model\": \"normalized\", \"elo0\": 0, \"elo1\": "
                            "5, \"alpha\": 0.05, \"beta\": 0.05, \"llr\": 1.2}";

TEST(MatchPool, ReadsTheSummaryThatMatchWrites) {
    MatchSummary summary;
    summary.names = {"new", "old"};
    summary.score.addPair(1.0, 0.5);
    summary.score.addPair(0.0, 0.5);
    summary.score.addGame(1.0); // a game of an unfinished pair: in W/L/D, not in the pentanomial
    summary.elo = estimateElo(summary.score);
    MatchOptions options;
    options.sprt = SprtConfig{0, 10, 0.05, 0.1};
    summary.sprt = computeSprt(summary.score, *options.sprt);
    auto run = parseRunSummary(summaryJson(summary, options));
    ASSERT_TRUE(run) << run.error();
    EXPECT_EQ(run->engines[0], "new");
    EXPECT_EQ(run->engines[1], "old");
    EXPECT_FALSE(run->limit.empty());
    EXPECT_EQ(run->score.wins, 2);
    EXPECT_EQ(run->score.losses, 1);
    EXPECT_EQ(run->score.draws, 2);
    EXPECT_EQ(run->score.pentanomial, summary.score.pentanomial);
    ASSERT_TRUE(run->sprt);
    EXPECT_EQ(run->sprt->elo1, 10);
    EXPECT_EQ(run->sprt->beta, 0.1);
}

// The four null-move runs of 2026-11-29 (docs/elo-log.md): 7,554 games, +9.9 [+4.0, +15.8],
// LLR 3.36 pooled.
TEST(MatchPool, FourRunsAddUpToTheLoggedResult) {
    const std::string texts[] = {
        summaryText("nmpR", "nodes=20000", 1261, 1176, 1413, "[147, 414, 740, 455, 169]", kSprt05),
        summaryText("nmpR", "nodes=20000", 801, 716, 779, "[85, 239, 442, 270, 112]", kSprt05),
        summaryText("nmpR", "nodes=20000", 268, 246, 288, "[29, 97, 129, 115, 31]", kSprt05),
        summaryText("nmpR", "nodes=20000", 202, 179, 225, "[24, 61, 114, 76, 28]", kSprt05)};
    std::vector<RunSummary> runs;
    for (const auto& text : texts) {
        auto run = parseRunSummary(text);
        ASSERT_TRUE(run) << run.error();
        runs.push_back(*run);
    }
    auto pooled = poolRuns(runs, std::nullopt);
    ASSERT_TRUE(pooled) << pooled.error();
    EXPECT_EQ(pooled->runs, 4);
    EXPECT_EQ(pooled->score.games(), 7554);
    EXPECT_EQ(pooled->score.pentanomial, (std::array<std::int64_t, 5>{285, 811, 1425, 916, 340}));
    EXPECT_NEAR(pooled->elo.elo, 9.9, 0.05);
    EXPECT_NEAR(pooled->elo.error95, 5.9, 0.1);
    ASSERT_TRUE(pooled->sprt);
    EXPECT_NEAR(pooled->sprt->llr, 3.36, 0.005);
    EXPECT_EQ(pooled->sprt->state, SprtState::AcceptH1);
    const std::string report = formatPooled(*pooled);
    EXPECT_NE(report.find("Pooled 4 runs of nmpR vs main (nodes=20000)"), std::string::npos);
    EXPECT_NE(report.find("not one sequential test"), std::string::npos);

    // Bounds given on the command line replace the runs' own: [5, 15] asks for more than the
    // +13 nElo measured, so its LLR is lower.
    auto higher = poolRuns(runs, SprtConfig{5, 15, 0.05, 0.05});
    ASSERT_TRUE(higher);
    ASSERT_TRUE(higher->sprt);
    EXPECT_LT(higher->sprt->llr, pooled->sprt->llr);
}

TEST(MatchPool, RunsWithDifferentBoundsHaveNoCommonTest) {
    auto a = parseRunSummary(summaryText("x", "nodes=1", 3, 1, 2, "[0, 0, 1, 1, 1]", kSprt05));
    auto b = parseRunSummary(summaryText("x", "nodes=1", 3, 1, 2, "[0, 0, 1, 1, 1]"));
    ASSERT_TRUE(a && b);
    auto pooled = poolRuns({*a, *b}, std::nullopt);
    ASSERT_TRUE(pooled);
    EXPECT_FALSE(pooled->sprt);
    EXPECT_EQ(formatPooled(*pooled).find("LLR"), std::string::npos);
}

TEST(MatchPool, RunsOfDifferentComparisonsAreRefused) {
    auto a = parseRunSummary(summaryText("x", "nodes=1", 1, 1, 0, "[0, 0, 1, 0, 0]"));
    auto otherEngine = parseRunSummary(summaryText("y", "nodes=1", 1, 1, 0, "[0, 0, 1, 0, 0]"));
    auto otherLimit = parseRunSummary(summaryText("x", "nodes=2", 1, 1, 0, "[0, 0, 1, 0, 0]"));
    ASSERT_TRUE(a && otherEngine && otherLimit);
    auto e1 = poolRuns({*a, *otherEngine}, std::nullopt);
    ASSERT_FALSE(e1);
    EXPECT_NE(e1.error().find("run 2 is y vs main"), std::string::npos) << e1.error();
    auto e2 = poolRuns({*a, *otherLimit}, std::nullopt);
    ASSERT_FALSE(e2);
    EXPECT_NE(e2.error().find("nodes=2"), std::string::npos) << e2.error();
    EXPECT_FALSE(poolRuns({}, std::nullopt));
}

TEST(MatchPool, MalformedSummariesAreRefusedWithAReason) {
    const std::pair<std::string, std::string> cases[] = {
        {"{\"engines\": [", "not valid JSON"},
        {"[1, 2]", "JSON object"},
        {"{\"engines\": [\"a\", \"b\", \"c\"], \"ranking\": []}", "tournament"},
        {"{\"engines\": [\"a\"], \"time_control\": \"nodes=1\"}", "two names"},
        {summaryText("x", "nodes=1", -1, 1, 2, "[0, 0, 1, 0, 0]"), "counts"},
        {summaryText("x", "nodes=1", 1, 1, 0, "[0, 0, 1, 0]"), "five counts"},
        {summaryText("x", "nodes=1", 1, 1, 0, "[0, 0, 1, 0, -1]"), "five counts"},
        {summaryText("x", "nodes=1", 1, 1, 0, "[0, 0, 2, 0, 0]"), "more game pairs"},
        {summaryText("x", "nodes=1", 1, 1, 0, "[0, 0, 1, 0, 0]",
                     ", \"sprt\": {\"elo0\": 5, \"elo1\": 0, \"alpha\": 0.05, \"beta\": 0.05}"),
         "elo0 < elo1"},
        {"{\"engines\": [\"a\", \"b\"], \"time_control\": \"nodes=1\", \"games\": 3, \"wins\": 1, "
         "\"losses\": 1, \"draws\": 0, \"pentanomial\": [0, 0, 1, 0, 0]}",
         "wins + losses + draws"},
    };
    for (const auto& [text, reason] : cases) {
        auto run = parseRunSummary(text);
        ASSERT_FALSE(run) << text;
        EXPECT_NE(run.error().find(reason), std::string::npos) << text << ": " << run.error();
    }
}

} // namespace
} // namespace axon::match

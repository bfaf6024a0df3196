// SPDX-License-Identifier: GPL-3.0-or-later
// The match statistics: W/D/L and pentanomial bookkeeping, Elo, LOS and the SPRT's LLR, checked
// against values worked out by hand from the formulas in stats.h.
#include <gtest/gtest.h>

#include <cmath>

#include "match/stats.h"

namespace axon::match {
namespace {

MatchScore fromPentanomial(std::array<std::int64_t, 5> counts) {
    MatchScore s;
    s.pentanomial = counts;
    // W/D/L consistent with the pairs, though the pair statistics do not use them.
    s.losses = 2 * counts[0] + counts[1] + counts[2];
    s.draws = counts[1] + counts[3];
    s.wins = counts[2] + counts[3] + 2 * counts[4];
    return s;
}

TEST(MatchStats, PairsAndGamesAreCounted) {
    MatchScore s;
    s.addPair(1.0, 0.0); // WL -> index 2
    s.addPair(0.5, 0.5); // DD -> index 2
    s.addPair(1.0, 0.5); // WD -> index 3
    s.addPair(0.0, 0.0); // LL -> index 0
    s.addPair(1.0, 1.0); // WW -> index 4
    EXPECT_EQ(s.wins, 4);
    EXPECT_EQ(s.losses, 3);
    EXPECT_EQ(s.draws, 3);
    EXPECT_EQ(s.games(), 10);
    EXPECT_EQ(s.pairs(), 5);
    EXPECT_EQ(s.pentanomial, (std::array<std::int64_t, 5>{1, 0, 2, 1, 1}));
    EXPECT_DOUBLE_EQ(s.scoreRatio(), 5.5 / 10.0);
    EXPECT_DOUBLE_EQ(s.drawRatio(), 0.3);
}

TEST(MatchStats, SymmetricResultsGiveZeroElo) {
    const EloEstimate e = estimateElo(fromPentanomial({10, 20, 40, 20, 10}));
    EXPECT_NEAR(e.elo, 0.0, 1e-9);
    EXPECT_NEAR(e.nElo, 0.0, 1e-9);
    EXPECT_NEAR(e.los, 0.5, 1e-9);
    EXPECT_GT(e.error95, 0.0);
}

TEST(MatchStats, AllPairsWonGivesLargePositiveElo) {
    const EloEstimate e = estimateElo(fromPentanomial({0, 0, 0, 0, 50}));
    EXPECT_GT(e.elo, 500.0);
    EXPECT_TRUE(std::isfinite(e.elo));
    EXPECT_DOUBLE_EQ(e.los, 1.0);
    // The regularised spread gives finite, positive error bars and a large normalised Elo.
    EXPECT_GT(e.error95, 0.0);
    EXPECT_TRUE(std::isfinite(e.error95));
    EXPECT_GT(e.nElo, 500.0);
    const EloEstimate lost = estimateElo(fromPentanomial({50, 0, 0, 0, 0}));
    EXPECT_LT(lost.elo, -500.0);
    EXPECT_DOUBLE_EQ(lost.los, 0.0);
}

// [5, 20, 40, 25, 10]: mean per-game score 0.5375, pair variance 0.06421875 (by hand: the five
// pair scores 0, 1/4, 1/2, 3/4, 1 weighted by the counts over 100 pairs).
TEST(MatchStats, EloLosAndNormalisedEloOfAKnownSample) {
    const EloEstimate e = estimateElo(fromPentanomial({5, 20, 40, 25, 10}));
    EXPECT_NEAR(e.elo, -400.0 * std::log10(1.0 / 0.5375 - 1.0), 1e-9); // 26.107
    EXPECT_NEAR(e.elo, 26.107, 1e-3);
    EXPECT_NEAR(e.error95, 34.826, 1e-3);
    EXPECT_NEAR(e.los, 0.93054, 1e-5);
    // nElo = (mu - 0.5) / sqrt(2 var) * 800 / ln 10
    EXPECT_NEAR(e.nElo, 36.3546, 1e-4);
}

TEST(MatchStats, SprtLlrOfAKnownSample) {
    const MatchScore s = fromPentanomial({5, 20, 40, 25, 10});
    // LLR = N (mu1 - mu0) (2 mu - mu0 - mu1) / (2 var), mu_i = 0.5 + elo_i / (800 / ln 10) *
    // sqrt(2 var): 0.28046 for [0, 5], 0.51950 for [0, 10], 0.32188 for [-5, 0].
    EXPECT_NEAR(computeSprt(s, {0, 5, 0.05, 0.05}).llr, 0.28046, 1e-5);
    EXPECT_NEAR(computeSprt(s, {0, 10, 0.05, 0.05}).llr, 0.51950, 1e-5);
    EXPECT_NEAR(computeSprt(s, {-5, 0, 0.05, 0.05}).llr, 0.32188, 1e-5);
    const SprtResult r = computeSprt(s, {0, 5, 0.05, 0.05});
    EXPECT_NEAR(r.lowerBound, std::log(0.05 / 0.95), 1e-12); // -2.944
    EXPECT_NEAR(r.upperBound, std::log(0.95 / 0.05), 1e-12); // +2.944
    EXPECT_EQ(r.state, SprtState::Continue);
}

TEST(MatchStats, SprtDecidesClearCases) {
    EXPECT_EQ(computeSprt(fromPentanomial({0, 0, 0, 0, 100}), {0, 5, 0.05, 0.05}).state,
              SprtState::AcceptH1);
    EXPECT_EQ(computeSprt(fromPentanomial({100, 0, 0, 0, 0}), {0, 5, 0.05, 0.05}).state,
              SprtState::AcceptH0);
    // 20000 pairs scoring exactly 50% are evidence for elo0 = 0 against elo1 = 5.
    EXPECT_EQ(
        computeSprt(fromPentanomial({2000, 4000, 8000, 4000, 2000}), {0, 5, 0.05, 0.05}).state,
        SprtState::AcceptH0);
    // No games: nothing to decide.
    const SprtResult none = computeSprt(MatchScore{}, {0, 5, 0.05, 0.05});
    EXPECT_EQ(none.state, SprtState::Continue);
    EXPECT_DOUBLE_EQ(none.llr, 0.0);
}

TEST(MatchStats, ScoreToEloIsLogistic) {
    EXPECT_NEAR(scoreToElo(0.5), 0.0, 1e-12);
    EXPECT_NEAR(scoreToElo(0.75), 400.0 * std::log10(3.0), 1e-9); // 190.85
    EXPECT_NEAR(scoreToElo(0.25), -400.0 * std::log10(3.0), 1e-9);
    EXPECT_TRUE(std::isfinite(scoreToElo(1.0)));
    EXPECT_TRUE(std::isfinite(scoreToElo(0.0)));
}

} // namespace
} // namespace axon::match

// SPDX-License-Identifier: GPL-3.0-or-later
// Tournaments: which pairings gauntlets and round robins play, and each engine's pooled score
// and ranking from the pairings' results (the second engine's view flipped).
#include <gtest/gtest.h>

#include "match/match.h"

namespace axon::match {
namespace {

TEST(MatchTournament, Pairings) {
    using Pairs = std::vector<std::pair<int, int>>;
    EXPECT_EQ(tournamentPairings(2, TournamentKind::RoundRobin), (Pairs{{0, 1}}));
    EXPECT_EQ(tournamentPairings(2, TournamentKind::Gauntlet), (Pairs{{0, 1}}));
    EXPECT_EQ(tournamentPairings(4, TournamentKind::Gauntlet), (Pairs{{0, 1}, {0, 2}, {0, 3}}));
    EXPECT_EQ(tournamentPairings(4, TournamentKind::RoundRobin),
              (Pairs{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}));
    EXPECT_EQ(tournamentPairings(6, TournamentKind::RoundRobin).size(), 15u);
}

PairingResult pairing(int first, int second, std::vector<std::pair<double, double>> pairs) {
    PairingResult p;
    p.first = first;
    p.second = second;
    for (const auto& [a, b] : pairs) p.score.addPair(a, b);
    return p;
}

TEST(MatchTournament, RankingPoolsEachEnginesGames) {
    // Engine 0 beats 1 (WW, WD), draws 2 (DD, DD); 1 loses to 2 (LL, LD).
    const std::vector<PairingResult> pairings = {
        pairing(0, 1, {{1, 1}, {1, 0.5}}),
        pairing(0, 2, {{0.5, 0.5}, {0.5, 0.5}}),
        pairing(1, 2, {{0, 0}, {0, 0.5}}),
    };
    const auto ranking = computeRanking(3, pairings);
    ASSERT_EQ(ranking.size(), 3u);
    EXPECT_EQ(ranking[0].engine, 0);
    EXPECT_EQ(ranking[1].engine, 2);
    EXPECT_EQ(ranking[2].engine, 1);

    const MatchScore& zero = ranking[0].score;
    EXPECT_EQ(zero.wins, 3);
    EXPECT_EQ(zero.draws, 5);
    EXPECT_EQ(zero.losses, 0);
    EXPECT_EQ(zero.pentanomial, (std::array<std::int64_t, 5>{0, 0, 2, 1, 1}));

    // Engine 1 is the second engine of its pairing with 0: WW for 0 is LL for 1, WD is LD.
    const MatchScore& one = ranking[2].score;
    EXPECT_EQ(one.wins, 0);
    EXPECT_EQ(one.losses, 6);
    EXPECT_EQ(one.draws, 2);
    EXPECT_EQ(one.pentanomial, (std::array<std::int64_t, 5>{2, 2, 0, 0, 0}));

    const MatchScore& two = ranking[1].score;
    EXPECT_EQ(two.wins, 3);
    EXPECT_EQ(two.losses, 0);
    EXPECT_EQ(two.draws, 5);
    EXPECT_EQ(two.pentanomial, (std::array<std::int64_t, 5>{0, 0, 2, 1, 1}));

    // The pooled Elo follows the pooled score: positive for the leaders, negative for the last.
    EXPECT_GT(ranking[0].elo.elo, 0);
    EXPECT_LT(ranking[2].elo.elo, 0);
    EXPECT_GT(ranking[0].elo.error95, 0);
    // Every game counted twice over the field: points add up to the games played.
    const double points = [&] {
        double sum = 0;
        for (const auto& s : ranking) sum += double(s.score.wins) + 0.5 * double(s.score.draws);
        return sum;
    }();
    EXPECT_DOUBLE_EQ(points, 12.0);
}

TEST(MatchTournament, EnginesWithoutGamesRankLastWithNoElo) {
    const auto ranking = computeRanking(3, {pairing(0, 1, {{1, 0.5}})});
    ASSERT_EQ(ranking.size(), 3u);
    EXPECT_EQ(ranking[0].engine, 0);
    EXPECT_EQ(ranking[2].engine, 1);
    EXPECT_EQ(ranking[1].engine, 2); // 0.5 score ratio without games sits between
    EXPECT_EQ(ranking[1].score.games(), 0);
    EXPECT_DOUBLE_EQ(ranking[1].elo.elo, 0);
}

} // namespace
} // namespace axon::match

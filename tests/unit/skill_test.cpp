// SPDX-License-Identifier: GPL-3.0-or-later
// Strength limiting: the Elo map, the seeded choice among near-best lines, and searches that
// play legal, reproducible and (at lower settings) worse moves; the engine's options for it.
#include <algorithm>
#include <map>
#include <set>

#include "chess/movegen.h"
#include "chess/uci_move.h"
#include "engine/bench.h"
#include "engine/engine.h"
#include "search/searcher.h"
#include "search/skill.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;
using namespace search;

struct Outcome {
    SearchResult result;
    std::set<int> reportedLines;
};

Outcome searchWith(Searcher& searcher, const std::string& fenText, SearchLimits limits,
                   SkillSettings skill, int multiPv = 1) {
    Searcher::Request request;
    request.position = fen(fenText);
    request.limits = std::move(limits);
    request.skill = skill;
    request.multiPv = multiPv;
    Outcome outcome;
    request.callbacks.onInfo = [&](const SearchInfo& info) {
        outcome.reportedLines.insert(info.multiPv);
    };
    request.onDone = [&](const SearchResult& r) { outcome.result = r; };
    searcher.start(std::move(request));
    searcher.wait();
    return outcome;
}

SkillSettings seeded(SkillSettings s, std::uint64_t seed) {
    s.seed = seed;
    return s;
}

TEST(SkillMap, NodesGrowAndMarginShrinksWithElo) {
    SkillSettings previous = skillForElo(kSkillMinElo);
    EXPECT_TRUE(previous.enabled);
    for (int elo = kSkillMinElo + 50; elo <= kSkillMaxElo; elo += 50) {
        const SkillSettings s = skillForElo(elo);
        EXPECT_GT(s.nodes, previous.nodes) << elo;
        EXPECT_LE(s.margin, previous.margin) << elo;
        previous = s;
    }
    // Out-of-range requests are clamped to the calibrated range.
    EXPECT_EQ(skillForElo(100).nodes, skillForElo(kSkillMinElo).nodes);
    EXPECT_EQ(skillForElo(100).elo, kSkillMinElo);
    EXPECT_EQ(skillForElo(9999).elo, kSkillMaxElo);
}

TEST(SkillMap, SkillLevelsSpanTheEloRangeAndTwentyIsFullStrength) {
    EXPECT_FALSE(skillForLevel(kSkillMaxLevel).enabled);
    EXPECT_EQ(eloForSkillLevel(0), kSkillMinElo);
    EXPECT_EQ(eloForSkillLevel(kSkillMaxLevel - 1), kSkillMaxElo);
    for (int level = 1; level < kSkillMaxLevel; ++level) {
        EXPECT_GT(eloForSkillLevel(level), eloForSkillLevel(level - 1));
        EXPECT_TRUE(skillForLevel(level).enabled);
    }
}

TEST(SkillPick, OnlyLinesWithinTheMarginArePlayed) {
    const std::vector<SkillCandidate> lines = {
        {Move(E2, E4), 50}, {Move(D2, D4), 40}, {Move(G1, F3), 20}, {Move(A2, A3), -200}};
    std::map<std::size_t, int> picks;
    for (std::uint64_t seed = 0; seed < 2000; ++seed) ++picks[pickSkillLine(lines, 35, seed)];
    EXPECT_EQ(picks.count(3), 0u) << "a line 250 cp behind is outside a 35 cp margin";
    EXPECT_GT(picks[0], picks[1]);
    EXPECT_GT(picks[1], picks[2]);
    EXPECT_GT(picks[2], 0);
    // No margin: always the best line.
    for (std::uint64_t seed = 0; seed < 100; ++seed) EXPECT_EQ(pickSkillLine(lines, 0, seed), 0u);
    EXPECT_EQ(pickSkillLine({{Move(E2, E4), 0}}, 100, 5), 0u);
}

TEST(SkillPick, WiderMarginsPlayWorseLinesMoreOften) {
    const std::vector<SkillCandidate> lines = {
        {Move(E2, E4), 30}, {Move(D2, D4), 10}, {Move(G1, F3), -20}, {Move(A2, A3), -60}};
    auto averageLoss = [&](int margin) {
        double loss = 0;
        for (std::uint64_t seed = 0; seed < 4000; ++seed)
            loss += 30 - lines[pickSkillLine(lines, margin, seed)].score;
        return loss / 4000;
    };
    EXPECT_LT(averageLoss(10), averageLoss(40));
    EXPECT_LT(averageLoss(40), averageLoss(100));
}

TEST(SkillPick, SameSeedSameChoice) {
    const std::vector<SkillCandidate> lines = {
        {Move(E2, E4), 30}, {Move(D2, D4), 25}, {Move(G1, F3), 20}};
    for (std::uint64_t seed = 0; seed < 50; ++seed)
        EXPECT_EQ(pickSkillLine(lines, 50, seed), pickSkillLine(lines, 50, seed));
}

TEST(SkillSearch, PlaysLegalRootMovesAndShowsOnlyTheRequestedLines) {
    const auto& positions = engine::benchPositions();
    for (std::size_t i = 0; i < positions.size(); i += 5) {
        Searcher searcher;
        const Position pos = fen(positions[i]);
        const Outcome o =
            searchWith(searcher, positions[i], {}, seeded(skillForElo(kSkillMinElo), i));
        EXPECT_TRUE(MoveList(pos).contains(o.result.bestMove)) << positions[i];
        EXPECT_EQ(o.reportedLines, std::set<int>{1}) << "internal lines are not shown";
    }
    // A GUI asking for more lines than skill searches still gets all of them.
    Searcher searcher;
    const Outcome o =
        searchWith(searcher, Position::kStartFen, {}, seeded(skillForElo(1500), 1), 6);
    EXPECT_EQ(o.reportedLines, (std::set<int>{1, 2, 3, 4, 5, 6}));
}

TEST(SkillSearch, SearchMovesStillRestrictTheChoice) {
    Searcher searcher;
    const Position start = startPosition();
    SearchLimits limits;
    limits.searchMoves = {*parseUciMove(start, "a2a3"), *parseUciMove(start, "h2h3")};
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
        const Move m = searchWith(searcher, Position::kStartFen, limits,
                                  seeded(skillForElo(kSkillMinElo), seed))
                           .result.bestMove;
        EXPECT_TRUE(m == limits.searchMoves[0] || m == limits.searchMoves[1]);
    }
}

TEST(SkillSearch, SameSeedSameMoveAndSeedsVary) {
    const std::string position = Position::kStartFen; // many moves of near-equal value
    std::set<std::uint16_t> moves;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        Searcher a, b;
        const SkillSettings s = seeded(skillForElo(kSkillMinElo), seed);
        const Move first = searchWith(a, position, {}, s).result.bestMove;
        EXPECT_EQ(first, searchWith(b, position, {}, s).result.bestMove) << "seed " << seed;
        moves.insert(first.raw());
    }
    EXPECT_GT(moves.size(), 1u) << "the weakest setting should not always play the same move";
}

// The score of the position after `m`, for the side that played it, from a deeper search.
int referenceScore(const std::string& fenText, Move m) {
    Searcher searcher;
    SearchLimits limits;
    limits.depth = 8;
    limits.searchMoves = {m};
    return searchWith(searcher, fenText, limits, {}).result.score;
}

TEST(SkillSearch, WeakerSettingsPlayWorseMoves) {
    const auto& positions = engine::benchPositions();
    double lossWeak = 0, lossStrong = 0;
    int samples = 0;
    for (std::size_t i = 0; i < positions.size(); i += 4) {
        const Position pos = fen(positions[i]);
        if (MoveList(pos).size() < 4) continue;
        Searcher reference;
        SearchLimits deep;
        deep.depth = 8;
        const int best = searchWith(reference, positions[i], deep, {}).result.score;
        if (best > 1000 || best < -1000) continue; // decided positions say little about quality
        for (std::uint64_t seed = 0; seed < 3; ++seed) {
            Searcher weak, strong;
            const Move w =
                searchWith(weak, positions[i], {}, seeded(skillForElo(kSkillMinElo), seed))
                    .result.bestMove;
            const Move s = searchWith(strong, positions[i], {}, seeded(skillForElo(1800), seed))
                               .result.bestMove;
            lossWeak += std::max(0, best - referenceScore(positions[i], w));
            lossStrong += std::max(0, best - referenceScore(positions[i], s));
            ++samples;
        }
    }
    ASSERT_GT(samples, 20);
    EXPECT_GT(lossWeak / samples, lossStrong / samples + 5)
        << "average centipawn loss: weakest " << lossWeak / samples << ", 1800 "
        << lossStrong / samples;
}

TEST(EngineSkill, OptionsSelectTheStrengthAndRejectOutOfRangeElo) {
    engine::Engine engine;
    EXPECT_FALSE(engine.skill().enabled) << "full strength by default";
    EXPECT_TRUE(engine.options().set("UCI_Elo", "900").has_value()) << "below the range";
    const auto error = engine.options().set("UCI_Elo", "3500");
    ASSERT_TRUE(error.has_value());
    EXPECT_NE(error->find("1000"), std::string::npos) << *error;
    EXPECT_FALSE(engine.options().set("UCI_Elo", "2000").has_value());
    EXPECT_FALSE(engine.skill().enabled) << "UCI_Elo alone does not limit";

    EXPECT_FALSE(engine.options().set("Skill Level", "0").has_value());
    EXPECT_TRUE(engine.skill().enabled);
    EXPECT_EQ(engine.skill().elo, kSkillMinElo);
    EXPECT_FALSE(engine.options().set("UCI_LimitStrength", "true").has_value());
    EXPECT_EQ(engine.skill().elo, 2000) << "UCI_LimitStrength with UCI_Elo takes precedence";
    EXPECT_TRUE(engine.options().set("Skill Level", "21").has_value());
    EXPECT_FALSE(engine.options().set("UCI_LimitStrength", "false").has_value());
    EXPECT_FALSE(engine.options().set("Skill Level", "20").has_value());
    EXPECT_FALSE(engine.skill().enabled);
}

TEST(EngineSkill, FixedSkillSeedReproducesAGame) {
    auto play = [](std::uint64_t seed) {
        engine::Engine engine;
        engine.options().set("UCI_LimitStrength", "true");
        engine.options().set("UCI_Elo", "1400");
        engine.options().set("Skill Seed", std::to_string(seed));
        std::vector<std::string> moves;
        for (int ply = 0; ply < 12; ++ply) {
            EXPECT_FALSE(engine.setPosition("", moves).has_value());
            Move best;
            engine.go({}, {nullptr, nullptr, [&](Move b, Move) { best = b; }, nullptr});
            engine.wait();
            if (!best) break;
            moves.push_back(engine.moveToString(best));
        }
        return moves;
    };
    EXPECT_EQ(play(77), play(77));
}

} // namespace
} // namespace axon::test

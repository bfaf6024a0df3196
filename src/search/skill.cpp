// SPDX-License-Identifier: GPL-3.0-or-later
// The Elo -> (node budget, margin) map and the weighted choice among near-best root lines.
#include "search/skill.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "util/prng.h"

namespace axon::search {

namespace {

// Calibration anchors, measured against Stockfish 15.1 at the same UCI_Elo (UCI_LimitStrength),
// 5+0.05, 20 games a setting, rating = level + Elo (bench/strength.sh --calibrate; the rounds
// and their games are in docs/strength.md). Network #2's map played 200-500 Elo above its
// labels with network #5 (round 1); round 2 tried a map re-read from round 1 and measured:
//   990 / 110 / 4 lines: 1541 +/- 162     1620 / 82 / 4: 1570 +/- 154
//   3500 / 50 / 4: 1610 +/- 257 (1801 +/- 342 against Stockfish 1500 in round 1)
//   one line: 8000: 1911 +/- 136   22600: 2093 +/- 98   (round 1: 13500: 2101, 48000: 2511)
// The one-line levels (2000 up) follow the fit through round 2's one-line points, about 121 Elo
// per doubling of nodes. Below, nodes buy little (the first iteration always completes), so the
// weaker levels get a wider margin: they play more of the worse near-best moves. Rounds 3
// and 4 at 1350, 1500 and 1800:
//   250 / 160: 1458 +/- 113    700 / 120: 1691 +/- 257    6000 / 40: 1947 +/- 135
//   150 / 200: 1315 +/- 164    400 / 140: 1353 +/- 198    2500 / 60: 1693 +/- 179
// 1350 is round 4's setting; 1500 and 1800 lie between the two rounds' settings, whose results
// bracket their levels (geometric mean of the nodes, mean of the margins), not measured on
// their own. 1000 extends the line from 1350 (Stockfish stops at 1320), not measured.
struct Anchor {
    int elo;
    double nodes;
    double margin;
};
constexpr std::array kAnchors = {
    Anchor{1000, 60, 300},   //
    Anchor{1350, 150, 200},  //
    Anchor{1500, 530, 130},  //
    Anchor{1800, 3900, 50},  //
    Anchor{2000, 9000, 0},   //
    Anchor{2200, 42000, 0},  //
    Anchor{2400, 130000, 0}, //
};

// Scores beyond this are mates or decisive; clamping keeps a mate from dwarfing every margin.
constexpr int kDecisiveScore = 1000;

} // namespace

SkillSettings skillForElo(int elo) {
    SkillSettings s;
    s.enabled = true;
    s.elo = std::clamp(elo, kSkillMinElo, kSkillMaxElo);
    std::size_t upper = 1;
    while (upper + 1 < kAnchors.size() && kAnchors[upper].elo < s.elo) ++upper;
    const Anchor& a = kAnchors[upper - 1];
    const Anchor& b = kAnchors[upper];
    const double t = std::clamp(double(s.elo - a.elo) / double(b.elo - a.elo), 0.0, 1.0);
    s.nodes = std::uint64_t(std::llround(a.nodes * std::pow(b.nodes / a.nodes, t)));
    s.margin = int(std::lround(a.margin + (b.margin - a.margin) * t));
    // Without a margin there is nothing to choose: extra lines would only cost depth (network
    // #2: four lines at 100000 nodes rated 1764, one line at 40000 rated 1911; docs/strength.md).
    s.lines = s.margin > 0 ? 4 : 1;
    return s;
}

int eloForSkillLevel(int level) {
    const int l = std::clamp(level, 0, kSkillMaxLevel - 1);
    return kSkillMinElo + l * (kSkillMaxElo - kSkillMinElo) / (kSkillMaxLevel - 1);
}

SkillSettings skillForLevel(int level) {
    if (level >= kSkillMaxLevel) return SkillSettings{};
    return skillForElo(eloForSkillLevel(level));
}

std::size_t pickSkillLine(const std::vector<SkillCandidate>& lines, int margin,
                          std::uint64_t seed) {
    if (lines.size() <= 1 || margin <= 0) return 0;
    const int best = std::clamp(lines[0].score, -kDecisiveScore, kDecisiveScore);
    const double temperature = std::max(1.0, margin / 2.0);
    std::vector<double> weights;
    double total = 0;
    for (const SkillCandidate& line : lines) {
        const int loss = best - std::clamp(line.score, -kDecisiveScore, kDecisiveScore);
        const double w = loss <= margin ? std::exp(-std::max(0, loss) / temperature) : 0.0;
        weights.push_back(w);
        total += w;
    }
    util::Prng prng(seed);
    // 53 random bits give a uniform double in [0, 1).
    const double r = double(prng.next() >> 11) * 0x1.0p-53 * total;
    double sum = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        sum += weights[i];
        if (r < sum) return i;
    }
    return 0;
}

} // namespace axon::search

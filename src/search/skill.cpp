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
// 5+0.05, rating = level + Elo (bench/strength.sh --calibrate; every round and its games are in
// docs/strength.md). Rounds 1-4 (20 games a setting) ran on a loaded machine, where Stockfish's
// timed search lost strength and Axon's node-bounded levels did not, so they rated the levels
// too high. Measured at idle (60 games a setting, round 5 the map they gave, rounds 6-7 refits):
//   530 / 130 cp: 1240 +/- 124    820 / 112: 1457 +/- 97    1530 / 88: 1558 +/- 92
//   3900 / 50: 1717 +/- 83        5500 / 30: 1806 +/- 94    9000 / 0 (one line): 1942 +/- 95
// About 143 Elo per doubling along that path. 1350, 1500, 2000 and 2200 below are the fit's
// settings, measured in round 7; 2400 is one-line nodes scaled like 2000 and 2200, not measured.
// 1000 extends the fit below Stockfish's weakest level (1320) with a wider margin, since so few
// nodes buy little (the first iteration always completes): not measured.
struct Anchor {
    int elo;
    double nodes;
    double margin;
};
constexpr std::array kAnchors = {
    Anchor{1000, 110, 200},  //
    Anchor{1350, 620, 124},  //
    Anchor{1500, 1270, 95},  //
    Anchor{1800, 5500, 30},  //
    Anchor{2000, 12000, 0},  //
    Anchor{2200, 57000, 0},  //
    Anchor{2400, 177000, 0}, //
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

// SPDX-License-Identifier: GPL-3.0-or-later
// The Elo -> (node budget, margin) map and the weighted choice among near-best root lines.
#include "search/skill.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "util/prng.h"

namespace axon::search {

namespace {

// Calibration anchors, measured with the network evaluation (network #2): each setting played
// Stockfish 15.1 with UCI_LimitStrength at 5+0.05, and its rating is the Stockfish level plus
// its Elo against it (docs/strength.md, "UCI_Elo calibration", has the games and commands).
// Between anchors the node budget is interpolated geometrically and the margin linearly.
// Measured ratings, 40 games each, 95% errors of 90 to 210:
//   3000 / 55: 1497    3500 / 55: 1411    6000 / 35: 1607    10000 / 20: 1632
//   one line: 15000: 1927    40000: 1911    150000: 2093    full strength: 2393
// The one-line points follow about 112 Elo per doubling of nodes (a weighted fit, with full
// strength counted at the 310,000 nodes its 5+0.05 moves average), and the anchors from 1800
// up sit on that fit; at 2400 the clock of a blitz game binds before the budget does. 1500
// sits on the two 3000-3500 / 55 points (1454 pooled); 1350 is a step weaker, not measured on
// its own. Four lines cost depth (30000 / 10 rated 1772, 100000 / 4 rated 1764), so only the
// levels below 1800 choose among lines.
// Below 1350 (Stockfish stops at 1320) the 1000 anchor was set by self-play against this map's
// 1350 (10+0.1, node budgets decide): 1000 scored -319 +/- 72 in 200 games (aim -350) and the
// interpolated 1175 -171 +/- 50 (aim -175). Self-play tends to stretch Elo gaps, so these
// levels are, if anything, stronger than their numbers.
struct Anchor {
    int elo;
    double nodes;
    double margin;
};
constexpr std::array kAnchors = {
    Anchor{1000, 700, 130},   //
    Anchor{1350, 2000, 70},   //
    Anchor{1500, 3500, 50},   //
    Anchor{1800, 13500, 0},   //
    Anchor{2000, 48000, 0},   //
    Anchor{2200, 165000, 0},  //
    Anchor{2400, 1000000, 0}, //
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
    // Without a margin there is nothing to choose: extra lines would only cost depth (four
    // lines at 100000 nodes rated 1764, one line at 40000 rated 1911; docs/strength.md).
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

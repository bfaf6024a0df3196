// SPDX-License-Identifier: GPL-3.0-or-later
// measureSpeedRatio: alternated bench runs of two networks.
#include "grow/speed_ratio.h"

#include <algorithm>
#include <ostream>
#include <vector>

#include "engine/bench.h"
#include "engine/eval_file.h"

namespace axon::grow {

util::Result<SpeedRatio> measureSpeedRatio(const std::string& candidateNetwork,
                                           const std::string& bestNetwork, int rounds, int depth) {
    auto candidate = engine::loadEvalSource(candidateNetwork);
    if (!candidate) return util::makeError(candidateNetwork + ": " + candidate.error());
    auto best =
        engine::loadEvalSource(bestNetwork.empty() ? engine::kEmbeddedEvalName : bestNetwork);
    if (!best) return util::makeError(bestNetwork + ": " + best.error());
    std::ostream discard(nullptr); // bench's per-position lines
    std::vector<double> ratios;
    double candidateSum = 0, bestSum = 0;
    for (int r = 0; r < std::max(1, rounds); ++r) {
        // Nodes per second of search alone: the hash clearing before each bench position is
        // the same work for both networks and would pull the ratio toward 1 (or, at a shallow
        // depth, toward the ratio of their node counts).
        auto nps = [&](const eval::EvalSource& source) {
            const engine::BenchResult run = engine::runBench(depth, discard, source);
            return double(run.nodes) / std::max(run.searchSeconds, 1e-9);
        };
        const double c = nps(*candidate);
        const double b = nps(*best);
        if (c <= 0 || b <= 0) return util::makeError("bench measured no speed");
        ratios.push_back(c / b);
        candidateSum += c;
        bestSum += b;
    }
    std::sort(ratios.begin(), ratios.end());
    const std::size_t n = ratios.size();
    SpeedRatio s;
    s.ratio = n % 2 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
    s.candidateNps = std::uint64_t(candidateSum / double(n));
    s.bestNps = std::uint64_t(bestSum / double(n));
    return s;
}

} // namespace axon::grow

// SPDX-License-Identifier: GPL-3.0-or-later
// The search speed of a candidate network against the best one: the node odds that make a
// fixed-node pre-screen a match at equal time. Each network runs `bench` in turn
// (engine::runBench, in this process), rounds alternated so that load on the machine hits both
// alike, and the ratio is the median of the rounds' ratios of nodes per second of search (the
// hash clearing between bench positions left out). bench/nps-ratio.sh is the shell's version,
// with bench's printed nps.
#pragma once

#include <cstdint>
#include <string>

#include "util/result.h"

namespace axon::grow {

struct SpeedRatio {
    double ratio = 1;                            // candidate nps / best nps
    std::uint64_t candidateNps = 0, bestNps = 0; // the rounds' means
};

// `bestNetwork` "" is the embedded network. Errors: a network that does not load.
util::Result<SpeedRatio> measureSpeedRatio(const std::string& candidateNetwork,
                                           const std::string& bestNetwork, int rounds, int depth);

} // namespace axon::grow

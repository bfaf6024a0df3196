// SPDX-License-Identifier: GPL-3.0-or-later
// The generational loop of `axon grow`: for each generation of the configuration, self-play
// data with the current best network, a training run per candidate, a gate per candidate
// against the best, and the promotion of the winner, each step recorded in WORK/state.json
// and the report (WORK/report.md, WORK/report.svg) rewritten after it. Work directory:
//   WORK/state.json, report.md, report.svg
//   WORK/GEN/data/sSEED/     one datagen run per seed (resumable chunk files)
//   WORK/GEN/train/NAME/     one training run per candidate (checkpoint, history, final.nnue)
//   WORK/GEN/prescreen/NAME/ the pre-screen's blocks, where the gate has one
//   WORK/GEN/gate/NAME/      the gate's blocks (counts and PGN)
//   WORK/GEN/best.nnue       the promoted candidate, when one passed
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "grow/grow_config.h"
#include "util/result.h"

namespace axon::grow {

struct GrowOptions {
    std::string workDir;
    std::string engineCommand; // this binary as a shell word: the gate's engines
    std::function<void(const std::string& line)> say;
    // Seconds between datagen progress lines.
    double progressSeconds = 30;
    // Generations whose running gates end now as "stopped" (not accepted): the user's call on
    // a gate that would run to its game limit.
    std::vector<std::string> stopGates;
};

// Runs (or resumes) every generation. True when all are done; false when `stop` ended the run
// at a safe point (rerun to go on).
util::Result<bool> runGrow(const GrowConfig& config, const GrowOptions& options,
                           const std::atomic<bool>& stop);

} // namespace axon::grow

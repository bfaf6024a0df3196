// SPDX-License-Identifier: GPL-3.0-or-later
// The gate of `axon grow`: a candidate network against the current best, both in this binary
// (EvalFile), played in blocks of game pairs until the SPRT on the pooled pentanomial count
// accepts a hypothesis or the game limit is reached. Each finished block is a file (its counts,
// and its games as PGN), so a killed gate loses at most the block in flight; the test is
// checked after every block, as fishtest checks after every batch of games. The same blocks
// play a pre-screen: a match at its own limit, of fixed length (GatePlan::fixedLength) or ended
// by its own SPRT.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "grow/grow_config.h"
#include "grow/grow_state.h"
#include "match/match.h"
#include "util/result.h"

namespace axon::grow {

struct GateEngines {
    std::string command; // this binary, as a shell word
    std::string candidateName, candidateNetwork;
    std::string bestName, bestNetwork; // "": the embedded network
    std::string candidateLimit;        // "": the plan's; else the candidate's own (node odds)
};

// Plays (or resumes) the gate in `dir`. The outcome's verdict stays Running when `stop` ended
// it early; its cost is left to the caller.
util::Result<GateOutcome> runGate(const GatePlan& plan, const GateEngines& engines,
                                  const std::string& dir, const std::atomic<bool>& stop,
                                  const std::function<void(const std::string&)>& say);

// The plan of a gate's pre-screen: its limit and length, the gate's openings, engines' settings
// and seed, played to its length or, with the pre-screen's SPRT, until that decides (the caller
// compares the Elo with the pre-screen's min_elo).
GatePlan prescreenPlan(const GatePlan& gate);

// The verdict, Elo and LLR of a pooled count under `plan`.
GateOutcome outcomeOf(const match::MatchScore& score, const GatePlan& plan);

// The outcome of the blocks already in `dir` (none: an empty count).
util::Result<GateOutcome> readGateBlocks(const GatePlan& plan, const std::string& dir,
                                         int* blocks = nullptr);

} // namespace axon::grow

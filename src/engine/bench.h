// SPDX-License-Identifier: GPL-3.0-or-later
// `bench`: a fixed set of positions searched to a fixed depth with one thread and a 16 MB hash.
// Its node count is the engine's signature: it changes only when search behaviour changes.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "eval/evaluator.h"

namespace axon::engine {

constexpr int kDefaultBenchDepth = 13;

const std::vector<std::string>& benchPositions();

struct BenchResult {
    std::uint64_t nodes = 0;
    std::uint64_t nps = 0; // over `seconds`, which include clearing the hash per position
    double seconds = 0;
    double searchSeconds = 0; // the searches alone: a network's speed without the fixed costs
};

// Searches every bench position (each from a cleared hash and history) evaluating with
// `source`; prints one line per position and finally "N nodes M nps". The signature is the
// node count with the default evaluation (EvalFile's default, the embedded network).
BenchResult runBench(int depth, std::ostream& out, const eval::EvalSource& source);

// The `axon bench` command of both binaries: resolves an EvalFile value (engine/eval_file.h),
// runs the bench to `out`, and returns the exit status (2, with the reason on `err`, when the
// value names no usable evaluation).
int runBenchCommand(int depth, const std::string& evalFile, std::ostream& out, std::ostream& err);

} // namespace axon::engine

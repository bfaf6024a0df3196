// SPDX-License-Identifier: GPL-3.0-or-later
// `axon train`: trains a perspective network (or the linear PST model) from Axon data files
// (docs/training.md).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "train/config.h"

namespace CLI {
class App;
}

namespace axon::app {

struct TrainCommandArgs {
    train::TrainConfig config;
    std::string arch = "perspective"; // perspective | linear
    std::string schedule = "cosine";  // cosine | step
    std::string bucketMap;            // 64 numbers, or empty / "even"
    // Whether the command line set any of the network's shape (--hidden, --mirror, buckets):
    // with --init and none of them, the run takes the starting network's shape.
    std::function<bool()> shapeGiven;
};

struct TrainSynthArgs {
    std::string output;
    std::size_t positions = 100000;
    std::uint64_t seed = 1;
};

struct TrainCommands {
    CLI::App* train = nullptr;
    CLI::App* synth = nullptr; // `axon train-synth`: synthetic data for tests and benchmarks
};

TrainCommands addTrainCommand(CLI::App& app, TrainCommandArgs& args, TrainSynthArgs& synth);

// The process exit status: 0 on success, 1 on errors (printed to stderr).
int runTrainCommand(TrainCommandArgs& args);
int runTrainSynthCommand(const TrainSynthArgs& args);

} // namespace axon::app

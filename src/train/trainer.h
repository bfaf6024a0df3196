// SPDX-License-Identifier: GPL-3.0-or-later
// The training loop: batches from the loader, data-parallel forward/backward over the
// threads, the fused AdamW step, validation, history, checkpoints and outputs per superbatch.
// Deterministic for a given seed, data and thread count: each thread owns a fixed slice of
// every batch and the gradients are summed in thread order.
//
// Files in the output directory: checkpoint.bin, history.csv, loss.svg, and per checkpoint
// net-sbNNNN.nnue (perspective) or pst-sbNNNN.csv (linear); at the end final.nnue or
// final-pst.csv.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "train/config.h"
#include "train/history.h"
#include "train/output.h"
#include "util/result.h"

namespace axon::train {

struct TrainHooks {
    FloatNetworkWriter floatWriter;                        // optional
    std::function<void(const std::string& line)> progress; // optional progress lines
    // Asked after every superbatch: true ends the run there, with a checkpoint (optional).
    std::function<bool()> shouldStop;
};

struct TrainSummary {
    std::vector<HistoryRow> history;
    double initialValLoss = -1; // before the first step (negative: none or resumed)
    std::string finalOutput;    // the network or table written last
    std::uint64_t rejectedRecords = 0;
    std::uint64_t validationRecords = 0;
    bool stopped = false; // shouldStop ended the run before its last superbatch
};

util::Result<TrainSummary> runTraining(const TrainConfig& config, const TrainHooks& hooks = {});

// File names inside the output directory.
std::string checkpointPath(const TrainConfig& config);
std::string superbatchOutputPath(const TrainConfig& config, int superbatch);
std::string finalOutputPath(const TrainConfig& config);

} // namespace axon::train

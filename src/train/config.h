// SPDX-License-Identifier: GPL-3.0-or-later
// Everything a training run is configured by (what `axon train` parses), with its defaults and
// the check that rejects a bad combination before any data is read.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nn/arch.h"
#include "util/result.h"

namespace axon::train {

enum class ModelKind : std::uint8_t { Perspective = 0, Linear = 1 };
enum class LrSchedule : std::uint8_t { Step = 0, Cosine = 1 };

// Bullet's superbatch: 6104 batches of 16384, about 100M positions.
constexpr int kDefaultBatchesPerSuperbatch = 6104;

struct TrainConfig {
    // Data: files (or directories holding *.axd / *.data / *.bin files) to train on.
    std::vector<std::string> data;
    // Validation: the last `valFraction` of every training file, or separate files.
    std::vector<std::string> valFiles;
    double valFraction = 0.01;
    // At most this many validation positions are evaluated (evenly strided) per superbatch.
    std::int64_t valPositions = 100000;
    // Records whose |score| exceeds this are skipped (mate scores by default).
    int scoreLimit = 10000;
    // The shuffle: chunks of `chunkRecords` consecutive records in random order, `bufferChunks`
    // of them at a time shuffled together (memory: bufferChunks * chunkRecords * 32 bytes).
    std::int64_t chunkRecords = 65536;
    int bufferChunks = 8;

    std::string out; // output directory

    ModelKind model = ModelKind::Perspective;
    nn::Architecture arch; // hidden, mirror, buckets (qa/qb/scale: the defaults)

    int threads = 1;
    int batchSize = 16384;
    // Batches per superbatch; `superbatchPositions` > 0 overrides (rounded up to whole batches).
    std::int64_t batchesPerSuperbatch = kDefaultBatchesPerSuperbatch;
    std::int64_t superbatchPositions = 0;
    int superbatches = 40;
    // Stop (with a checkpoint) after this superbatch, 0 = run to `superbatches`; the schedule
    // still spans `superbatches`, so a run can be paused and resumed.
    int stopAfter = 0;
    int saveEvery = 1; // checkpoint and quantised net every N superbatches

    // Loss: target = (1 - wdl) * sigmoid(score / K) + wdl * result, |sigmoid(cp / K) - target|^p.
    double wdl = 0.3;
    double scaleK = 400.0;
    double power = 2.0;

    // AdamW and the learning rate schedule over superbatches.
    double lr = 0.001;
    double weightDecay = 0.01;
    double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
    LrSchedule schedule = LrSchedule::Cosine;
    double gamma = 0.1;            // step: lr *= gamma every `stepEvery` superbatches
    int stepEvery = 0;             // 0: the step schedule never steps
    double finalLrFraction = 0.01; // cosine: the last superbatch's lr as a fraction of lr
    // Every perspective-network weight and feature bias is kept within +-clip (bullet's 1.98),
    // and never beyond what quantisation represents.
    double clip = 1.98;

    std::uint64_t seed = 1;
    // A network to start from instead of random weights (.nnue, or a float .safetensors), of
    // the run's architecture, or with `shapeFromInit` giving the run its architecture; a
    // resumed run takes only the shape from it (its checkpoint holds the weights).
    std::string init;
    bool shapeFromInit = false;
    bool resume = false;
    bool quiet = false; // no progress lines

    std::int64_t batchesPer() const {
        return superbatchPositions > 0 ? (superbatchPositions + batchSize - 1) / batchSize
                                       : batchesPerSuperbatch;
    }
};

// Why the configuration cannot run, or nothing.
std::optional<std::string> validateConfig(const TrainConfig& c);

// A king bucket map from 64 comma- or space-separated numbers (a1..h8, from the perspective's
// own side), or "even" for nn::evenBucketMap(buckets).
util::Result<std::array<std::uint8_t, chess::kNumSquares>> parseBucketMap(const std::string& text,
                                                                          int buckets);

} // namespace axon::train

// SPDX-License-Identifier: GPL-3.0-or-later
// `axon train`: the command line over src/train.
#include "app/train_command.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <vector>

#include "train/synthetic_data.h"
#include "train/trainer.h"

namespace axon::app {

TrainCommands addTrainCommand(CLI::App& app, TrainCommandArgs& args, TrainSynthArgs& synth) {
    train::TrainConfig& c = args.config;
    auto* cmd = app.add_subcommand(
        "train", "Train a network (or the linear PST model) from Axon data files");
    cmd->add_option("--data", c.data, "Training data files or directories")->required();
    cmd->add_option("--out", c.out, "Output directory (network, checkpoint, history, plot)")
        ->required();
    cmd->add_option("--arch", args.arch, "perspective (default) or linear (768 -> 1 PST)")
        ->check(CLI::IsMember({"perspective", "linear"}));
    const std::vector<CLI::Option*> shape{
        cmd->add_option("--hidden", c.arch.hidden, "Hidden size (multiple of 32)"),
        cmd->add_flag("--mirror", c.arch.mirror, "Mirror inputs by king file"),
        cmd->add_option("--input-buckets", c.arch.inputBuckets, "King input buckets"),
        cmd->add_option("--bucket-map", args.bucketMap,
                        "64 king buckets a1..h8 (comma-separated), or 'even'"),
        cmd->add_option("--output-buckets", c.arch.outputBuckets, "Material output buckets"),
        cmd->add_option("--l1", c.arch.l1,
                        "Layer stack: first hidden layer after the accumulator (0 = none)"),
        cmd->add_option("--l2", c.arch.l2, "Layer stack: second hidden layer")};
    args.shapeGiven = [shape] {
        for (const CLI::Option* o : shape)
            if (o->count() > 0) return true;
        return false;
    };
    cmd->add_option("--init", c.init,
                    "Start from this network (.nnue or float .safetensors) instead of random "
                    "weights; without shape options the run takes its shape")
        ->check(CLI::ExistingFile);
    cmd->add_option("--threads", c.threads, "Data-parallel threads");
    cmd->add_option("--batch", c.batchSize, "Positions per batch");
    cmd->add_option("--superbatch-batches", c.batchesPerSuperbatch, "Batches per superbatch");
    cmd->add_option("--superbatch-positions", c.superbatchPositions,
                    "Positions per superbatch (overrides --superbatch-batches)");
    cmd->add_option("--superbatches", c.superbatches, "Superbatches to train");
    cmd->add_option("--stop-after", c.stopAfter,
                    "Stop after this superbatch (resume later with --resume)");
    cmd->add_option("--save-every", c.saveEvery, "Checkpoint every N superbatches");
    cmd->add_option("--lr", c.lr, "Learning rate");
    cmd->add_option("--lr-schedule", args.schedule, "cosine or step")
        ->check(CLI::IsMember({"cosine", "step"}));
    cmd->add_option("--gamma", c.gamma, "Step schedule: lr factor per step");
    cmd->add_option("--step-every", c.stepEvery, "Step schedule: superbatches per step");
    cmd->add_option("--final-lr-fraction", c.finalLrFraction,
                    "Cosine schedule: last lr as a fraction of --lr");
    cmd->add_option("--weight-decay", c.weightDecay, "AdamW weight decay");
    cmd->add_option("--clip", c.clip, "Weight clipping bound (network weights)");
    cmd->add_option("--wdl", c.wdl, "Weight of the game result in the target (0..1)");
    cmd->add_option("--scale", c.scaleK, "K: centipawns per sigmoid unit in the loss");
    cmd->add_option("--power", c.power, "Loss exponent: |prediction - target|^power");
    cmd->add_option("--score-limit", c.scoreLimit, "Skip records with |score| above this");
    cmd->add_option("--val-fraction", c.valFraction,
                    "Validation: this fraction at the end of every data file");
    cmd->add_option("--val", c.valFiles, "Validation data files (instead of --val-fraction)");
    cmd->add_option("--val-positions", c.valPositions, "At most this many validation positions");
    cmd->add_option("--chunk-records", c.chunkRecords, "Shuffle: records per chunk");
    cmd->add_option("--buffer-chunks", c.bufferChunks, "Shuffle: chunks shuffled together");
    cmd->add_option("--seed", c.seed, "Random seed (initialisation and shuffling)");
    cmd->add_flag("--resume", c.resume, "Continue the run in --out from its checkpoint");
    cmd->add_flag("--quiet", c.quiet, "No progress lines");

    auto* synthCmd = app.add_subcommand(
        "train-synth", "Write synthetic training data (random playouts scored by the "
                       "hand-written eval) for tests and trainer benchmarks");
    synthCmd->add_option("output", synth.output, "The data file to write")->required();
    synthCmd->add_option("--positions", synth.positions, "Records to write")
        ->check(CLI::Range(std::size_t(1), std::size_t(1) << 34));
    synthCmd->add_option("--seed", synth.seed, "Random seed");
    return {cmd, synthCmd};
}

int runTrainSynthCommand(const TrainSynthArgs& args) {
    if (auto e = train::writeSyntheticData(args.output, args.positions, args.seed)) {
        std::fprintf(stderr, "train-synth: %s\n", e->c_str());
        return 1;
    }
    return 0;
}

int runTrainCommand(TrainCommandArgs& args) {
    train::TrainConfig& c = args.config;
    c.model = args.arch == "linear" ? train::ModelKind::Linear : train::ModelKind::Perspective;
    c.schedule = args.schedule == "step" ? train::LrSchedule::Step : train::LrSchedule::Cosine;
    // With --init and no shape options the run takes the starting network's shape, bucket map
    // included (the trainer reads it): nothing to repeat by hand.
    c.shapeFromInit = !c.init.empty() && !(args.shapeGiven && args.shapeGiven());
    auto map = train::parseBucketMap(args.bucketMap, c.arch.inputBuckets);
    if (!map) {
        std::fprintf(stderr, "train: %s\n", map.error().c_str());
        return 1;
    }
    c.arch.bucketMap = *map;
    train::TrainHooks hooks;
    hooks.progress = [](const std::string& line) {
        std::fprintf(stderr, "%s\n", line.c_str());
        std::fflush(stderr);
    };
    // The float-network hook (hooks.floatWriter) is where safetensors output plugs in.
    auto result = train::runTraining(c, hooks);
    if (!result) {
        std::fprintf(stderr, "train: %s\n", result.error().c_str());
        return 1;
    }
    std::fprintf(stderr, "train: wrote %s (%llu records rejected by the filter)\n",
                 result->finalOutput.c_str(), (unsigned long long)result->rejectedRecords);
    return 0;
}

} // namespace axon::app

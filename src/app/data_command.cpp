// SPDX-License-Identifier: GPL-3.0-or-later
// Statistics over training-data files and a text dump of their records.
#include "app/data_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "chess/uci_move.h"
#include "data/record_file.h"

namespace axon::app {

namespace {

constexpr std::size_t kBatch = 4096;

struct Totals {
    std::uint64_t count = 0, blackToMove = 0, withMove = 0, withCastling = 0;
    std::uint64_t results[3] = {};
    double scoreSum = 0, absScoreSum = 0, plySum = 0, pieceSum = 0;
    int minScore = 0, maxScore = 0, maxPly = 0;

    void add(const data::TrainingRecord& r) {
        if (count == 0) minScore = maxScore = r.score;
        ++count;
        blackToMove += r.flags & 1;
        withCastling += r.castling() != chess::NoCastling;
        withMove += r.bestMove != 0;
        ++results[int(r.result)];
        scoreSum += r.score;
        absScoreSum += std::abs(int(r.score));
        plySum += r.ply;
        pieceSum += r.pieceCount();
        minScore = std::min<int>(minScore, r.score);
        maxScore = std::max<int>(maxScore, r.score);
        maxPly = std::max<int>(maxPly, r.ply);
    }
};

// Calls f(record) for every record of the file (at most `limit` when not 0); an error or "".
template <typename F>
std::string forEachRecord(const std::string& path, std::uint64_t limit, F&& f) {
    auto reader = data::RecordReader::open(path);
    if (!reader) return reader.error();
    std::vector<data::TrainingRecord> batch(kBatch);
    std::uint64_t seen = 0;
    while (true) {
        auto n = (*reader)->read(batch);
        if (!n) return n.error();
        if (*n == 0) return {};
        for (std::size_t i = 0; i < *n; ++i) {
            if (limit && seen >= limit) return {};
            f(batch[i]);
            ++seen;
        }
    }
}

std::string moveText(const data::TrainingRecord& r) {
    if (!r.bestMove) return "none";
    return chess::toUci(chess::Move(r.bestMove), false);
}

const char* resultName(data::GameResult r) {
    return r == data::GameResult::Win ? "win" : r == data::GameResult::Loss ? "loss" : "draw";
}

} // namespace

DataCommands addDataCommand(CLI::App& app, DataCommandArgs& args) {
    auto* data = app.add_subcommand("data", "Training-data files: stats, dump");
    data->require_subcommand(1);
    DataCommands cmds;
    cmds.stats = data->add_subcommand(
        "stats", "Validate data files and print record counts, results, scores and plies");
    cmds.dump = data->add_subcommand(
        "dump", "Print records as 'FEN ; score S; result R; best MOVE; ply N' (EPD-readable)");
    for (auto* c : {cmds.stats, cmds.dump})
        c->add_option("files", args.files, "Data files (.bin)")->required();
    cmds.dump->add_option("--limit", args.limit, "Records per file (default: all)");
    return cmds;
}

int runDataStats(const DataCommandArgs& args) {
    Totals all;
    for (const auto& path : args.files) {
        Totals file;
        const std::string error = forEachRecord(path, 0, [&](const data::TrainingRecord& r) {
            file.add(r);
            all.add(r);
        });
        if (!error.empty()) {
            std::fprintf(stderr, "axon data stats: %s\n", error.c_str());
            return 1;
        }
        std::printf("file           %s %" PRIu64 " records\n", path.c_str(), file.count);
    }
    const double n = double(std::max<std::uint64_t>(1, all.count));
    std::printf("records        %" PRIu64 "\n", all.count);
    std::printf("valid          yes\n");
    std::printf("black to move  %.1f%%\n", 100.0 * double(all.blackToMove) / n);
    std::printf("castling       %.1f%% with a right\n", 100.0 * double(all.withCastling) / n);
    std::printf("results        win %" PRIu64 " draw %" PRIu64 " loss %" PRIu64 " (side to move)\n",
                all.results[2], all.results[1], all.results[0]);
    std::printf("score          mean %.1f  mean |score| %.1f  min %d  max %d\n", all.scoreSum / n,
                all.absScoreSum / n, all.minScore, all.maxScore);
    std::printf("ply            mean %.1f  max %d\n", all.plySum / n, all.maxPly);
    std::printf("pieces         mean %.1f\n", all.pieceSum / n);
    std::printf("best move      %.1f%%\n", 100.0 * double(all.withMove) / n);
    return 0;
}

int runDataDump(const DataCommandArgs& args) {
    for (const auto& path : args.files) {
        const std::string error =
            forEachRecord(path, args.limit, [](const data::TrainingRecord& r) {
                std::printf("%s ; score %d; result %s; best %s; ply %d\n",
                            data::recordFen(r).c_str(), int(r.score), resultName(r.result),
                            moveText(r).c_str(), int(r.ply));
            });
        if (!error.empty()) {
            std::fprintf(stderr, "axon data dump: %s\n", error.c_str());
            return 1;
        }
    }
    return 0;
}

} // namespace axon::app

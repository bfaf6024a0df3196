// SPDX-License-Identifier: GPL-3.0-or-later
// `axon datagen`: options, the progress line on stderr and the summary on stdout.
#include "app/datagen_command.h"

#include <CLI/CLI.hpp>

#include <cinttypes>
#include <cstdio>
#include <map>

#include "app/interrupt.h"
#include "util/progress_format.h"

namespace axon::app {

namespace {

void printDatagenProgress(const data::DatagenStats& s, bool byGames) {
    const double done =
        double(byGames ? s.resumedGames + s.games : s.resumedPositions + s.generated);
    const double made = double(byGames ? s.games : s.generated);
    const double perSecond = util::ratePerSecond(made, s.seconds);
    const double left = double(s.targetTotal) - done;
    std::fprintf(
        stderr,
        "datagen: games %" PRIu64 "  positions %" PRIu64 "  %s %.0f/%" PRIu64
        " (%.1f%%)  %.0f pos/s  ETA %s\n",
        s.games, s.resumedPositions + s.generated, byGames ? "games" : "positions", done,
        s.targetTotal, s.targetTotal ? 100.0 * done / double(s.targetTotal) : 0.0,
        util::ratePerSecond(double(s.generated), s.seconds),
        util::formatDuration(perSecond > 0 ? std::max(0.0, left) / perSecond : -1).c_str());
}

} // namespace

CLI::App* addDatagenCommand(CLI::App& app, DatagenCommandArgs& args) {
    auto& c = args.config;
    auto* cmd = app.add_subcommand(
        "datagen", "Self-play training data: games from random openings at a soft node limit, "
                   "written as resumable chunk files (docs/datagen.md)");
    cmd->add_option("--out", c.outDir, "Output directory (created; rerun to resume)")->required();
    cmd->add_option("--threads", c.threads, "Games played at once (one engine each)")
        ->check(CLI::Range(1, 1024));
    auto* positions = cmd->add_option("--positions", c.positions, "Total positions to record")
                          ->check(CLI::PositiveNumber);
    auto* games =
        cmd->add_option("--games", c.games, "Total games to play")->check(CLI::PositiveNumber);
    positions->excludes(games);
    cmd->add_option("--seed", c.seed, "Seed: with the thread count it fixes every chunk");
    cmd->add_option("--soft-nodes", c.softNodes,
                    "No new iteration after this many nodes (default 5000)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--hard-nodes", c.hardNodes, "Node cap per search (default 20x soft)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--random-plies", c.randomPlies,
                    "Random legal plies after the opening (default 8, 2 with a book)")
        ->check(CLI::Range(0, 100));
    cmd->add_option("--book", c.book, "Openings, EPD or PGN, chosen by the seed")
        ->check(CLI::ExistingFile);
    cmd->add_option("--dfrc", c.dfrcFraction,
                    "Share of games (0-1) from a double Chess960 start instead of the start "
                    "position (not with --book)")
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_flag("--keep-noisy", c.filter.keepNoisy,
                  "Also record positions in check and those whose best move is a capture or "
                  "promotion (left out by default)");
    cmd->add_option("--syzygy", c.syzygyPath,
                    "Syzygy tables: games that reach them end with their result");
    cmd->add_option("--net", c.network,
                    "Play the games with this network (.nnue) instead of the embedded one")
        ->check(CLI::ExistingFile);
    cmd->add_option("--hash", c.hashMb, "Hash per engine, MiB (default 8)")
        ->check(CLI::Range(1, 65536));
    cmd->add_option("--chunk-positions", c.chunkPositions,
                    "Positions per chunk file with --positions (default 50000)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--chunk-games", c.chunkGames,
                    "Games per chunk file with --games (default 500)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--format", c.format,
                    "Chunk contents: records (training records, the default) or games (whole "
                    "games, about 4.4 bytes a position; axon convert --from games makes the "
                    "records)")
        ->transform(CLI::CheckedTransformer(std::map<std::string, data::DatagenFormat>{
            {"records", data::DatagenFormat::Records}, {"games", data::DatagenFormat::Games}}));
    cmd->add_option("--progress", args.progressSeconds, "Seconds between progress lines")
        ->check(CLI::Range(0.05, 3600.0));
    return cmd;
}

int runDatagenCommand(const DatagenCommandArgs& args) {
    const bool byGames = args.config.games > 0;
    data::DatagenCallbacks callbacks;
    callbacks.progressSeconds = args.progressSeconds;
    callbacks.onProgress = [&](const data::DatagenStats& s) { printDatagenProgress(s, byGames); };
    callbacks.onWarning = [](const std::string& w) {
        std::fprintf(stderr, "datagen: %s\n", w.c_str());
    };
    const auto& stop = installInterruptFlag();
    auto result = data::runDatagen(args.config, stop, callbacks);
    if (!result) {
        std::fprintf(stderr, "axon datagen: %s\n", result.error().c_str());
        return 1;
    }
    const data::DatagenStats& s = *result;
    const double games = double(std::max<std::uint64_t>(1, s.whiteWins + s.draws + s.blackWins));
    std::printf("games          %" PRIu64 " (discarded openings %" PRIu64 ")\n", s.games,
                s.discardedGames);
    if (!args.config.syzygyPath.empty())
        std::printf("tablebases     %" PRIu64 " games ended by the tables\n", s.tablebaseGames);
    std::printf("white/draw/black %" PRIu64 " / %" PRIu64 " / %" PRIu64
                " (%.1f%% / %.1f%% / %.1f%%)\n",
                s.whiteWins, s.draws, s.blackWins, 100.0 * double(s.whiteWins) / games,
                100.0 * double(s.draws) / games, 100.0 * double(s.blackWins) / games);
    std::printf("positions      %" PRIu64 " written in %" PRIu64 " chunks, %" PRIu64
                " generated, %" PRIu64 " resumed in %" PRIu64 " chunks\n",
                s.positions, s.chunksWritten, s.generated, s.resumedPositions, s.resumedChunks);
    std::printf(
        "not recorded   in check %" PRIu64 ", capture/promotion %" PRIu64 ", opening %" PRIu64
        ", decided %" PRIu64 "\n",
        s.skipped[int(data::SkipReason::InCheck)], s.skipped[int(data::SkipReason::NoisyBestMove)],
        s.skipped[int(data::SkipReason::Opening)], s.skipped[int(data::SkipReason::Decided)]);
    std::printf("time           %.1f s, %.0f positions/s, %.2f games/s\n", s.seconds,
                util::ratePerSecond(double(s.generated), s.seconds),
                util::ratePerSecond(double(s.games), s.seconds));
    if (s.interrupted) {
        std::fprintf(stderr, "axon datagen: interrupted; unfinished chunks were abandoned, "
                             "rerun the same command to resume\n");
        return kInterruptedExitStatus;
    }
    return 0;
}

} // namespace axon::app

// SPDX-License-Identifier: GPL-3.0-or-later
// `axon convert`: options, progress and summary.
#include "app/convert_command.h"

#include <CLI/CLI.hpp>

#include <cinttypes>
#include <cstdio>

#include "util/progress_format.h"

namespace axon::app {

namespace {

void printConvertProgress(const data::ConvertStats& s) {
    std::fprintf(stderr,
                 "convert: %" PRIu64 " read, %" PRIu64 " records written, %" PRIu64
                 " malformed, %.0f records/s\n",
                 s.items, s.written, s.malformed,
                 util::ratePerSecond(double(s.written), s.seconds));
}

void printCounts(const char* title, const std::map<std::string, std::uint64_t>& counts) {
    if (counts.empty()) return;
    std::printf("%-15s", title);
    const char* separator = "";
    for (const auto& [reason, n] : counts) {
        std::printf("%s%s %" PRIu64, separator, reason.c_str(), n);
        separator = ", ";
    }
    std::printf("\n");
}

} // namespace

CLI::App* addConvertCommand(CLI::App& app, ConvertCommandArgs& args) {
    auto* cmd = app.add_subcommand(
        "convert",
        "Convert training data: Lichess PGN (.pgn, .pgn.zst or .pgn.bz2) with [%eval], "
        "engine-match "
        "PGN with scores in the move comments (fastchess, cutechess, OpenBench datagen), Lichess "
        "puzzles, EPD (ce/bm), Axon game files, Axon or bullet files in; Axon or bullet out "
        "(docs/training-data.md, docs/openbench.md)");
    cmd->add_option("--from", args.from, "Input format")
        ->required()
        ->check(CLI::IsMember({"lichess-pgn", "pgn", "puzzles", "epd", "axon", "bullet", "games"}));
    cmd->add_option("--to", args.to, "Output format (default axon)")
        ->check(CLI::IsMember({"axon", "bullet"}));
    cmd->add_option("--in,inputs", args.inputs,
                    "Input files (after --in, or as positional arguments)")
        ->required()
        ->expected(1, 100000)
        ->check(CLI::ExistingFile);
    cmd->add_option("--out", args.output, "The file to write (atomically)")->required();
    auto& p = args.pgn;
    cmd->add_option("--min-elo", p.minElo, "lichess-pgn: both players rated at least this")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--max-elo", p.maxElo, "lichess-pgn: both players rated at most this")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--time-control", args.timeControl,
                    "lichess-pgn: speed classes (ultrabullet,bullet,blitz,rapid,classical,"
                    "correspondence; comma-separated) or a minimum initial time in seconds");
    cmd->add_option("--skip-plies", p.skipPlies,
                    "lichess-pgn: leave out positions after the game's first N plies")
        ->check(CLI::Range(0, 100000));
    cmd->add_flag("--skip-check", p.skipCheck, "lichess-pgn: leave out positions in check");
    cmd->add_flag("--skip-captures", p.skipCaptures,
                  "lichess-pgn: leave out positions where the next move played is a capture");
    cmd->add_option("--mates", args.mates,
                    "lichess-pgn: mate evals as +-(" + std::to_string(data::kRecordScoreLimit) +
                        " - N) (score, default) or left out (skip)")
        ->check(CLI::IsMember({"score", "skip"}));
    cmd->add_flag("--puzzle-line", args.puzzleLine,
                  "puzzles: every position the solver faces, not only the first");
    cmd->add_flag("--keep-noisy", args.keepNoisy,
                  "games: also keep positions in check and those whose best move is a capture or "
                  "promotion (datagen leaves them out)");
    cmd->add_option("--progress", args.progressSeconds, "Seconds between progress lines")
        ->check(CLI::Range(0.05, 3600.0));
    return cmd;
}

int runConvertCommand(const ConvertCommandArgs& args) {
    data::ConvertConfig config;
    config.from = *data::parseDataFormat(args.from);
    config.to = *data::parseDataFormat(args.to);
    config.inputs = args.inputs;
    config.output = args.output;
    config.pgn = args.pgn;
    config.pgn.mates = args.mates == "skip" ? data::MateScores::Skip : data::MateScores::Score;
    if (!args.timeControl.empty()) {
        auto tc = data::parseTimeControlFilter(args.timeControl);
        if (!tc) {
            std::fprintf(stderr, "axon convert: %s\n", tc.error().c_str());
            return 1;
        }
        config.pgn.timeControl = *tc;
    }
    config.puzzles.wholeLine = args.puzzleLine;
    config.games.keepNoisy = args.keepNoisy;
    config.onProgress = printConvertProgress;
    config.progressSeconds = args.progressSeconds;

    auto result = data::runConvert(config);
    if (!result) {
        std::fprintf(stderr, "axon convert: %s (no output written)\n", result.error().c_str());
        return 1;
    }
    const data::ConvertStats& s = *result;
    const char* unit = config.from == data::DataFormat::LichessPgn  ? "games"
                       : config.from == data::DataFormat::EnginePgn ? "games"
                       : config.from == data::DataFormat::Games     ? "games"
                       : config.from == data::DataFormat::Puzzles   ? "puzzles"
                       : config.from == data::DataFormat::Epd       ? "positions"
                                                                    : "records";
    std::printf("inputs         %" PRIu64 " files, %" PRIu64 " %s read, %" PRIu64 " malformed\n",
                s.inputs, s.items, unit, s.malformed);
    if (s.malformed) std::printf("first malformed %s\n", s.firstMalformed.c_str());
    printCounts("skipped", s.skipped);
    printCounts("notes", s.notes);
    std::printf("time           %.2f s, %.0f records/s\n", s.seconds,
                util::ratePerSecond(double(s.written), s.seconds));
    std::printf("output         %s %" PRIu64 " records (%s)\n", args.output.c_str(), s.written,
                args.to.c_str());
    return 0;
}

} // namespace axon::app

// SPDX-License-Identifier: GPL-3.0-or-later
// `axon label`: options (the engine and limit as in `axon epd`), progress and summary.
#include "app/label_command.h"

#include <CLI/CLI.hpp>

#include <cinttypes>
#include <cstdio>

#include "app/interrupt.h"
#include "data/game_format.h"
#include "data/in_process_teacher.h"
#include "util/progress_format.h"

namespace axon::app {

namespace {

void printLabelProgress(const data::LabelStats& s) {
    const double perSecond = util::ratePerSecond(double(s.processed), s.seconds);
    const double left = double(s.pending) - double(s.processed);
    std::fprintf(stderr,
                 "label: %" PRIu64 "/%" PRIu64 " positions (%.1f%%)  skipped %" PRIu64
                 "  %.0f pos/s  ETA %s\n",
                 s.processed, s.pending,
                 s.pending ? 100.0 * double(s.processed) / double(s.pending) : 0.0, s.skipped,
                 perSecond, util::formatDuration(perSecond > 0 ? left / perSecond : -1).c_str());
}

} // namespace

CLI::App* addLabelCommand(CLI::App& app, LabelCommandArgs& args) {
    auto* cmd = app.add_subcommand(
        "label", "Score positions with a UCI teacher engine: Axon data files or EPD/FEN lines in, "
                 "a data file out; or game files in, the same games with the teacher's scores "
                 "out (resumable; docs/datagen.md)");
    cmd->add_option("--in", args.inputs,
                    "Input files: Axon data (.bin), EPD/FEN text, or game files (.games, all "
                    "inputs then)")
        ->required()
        ->expected(1, 100000)
        ->check(CLI::ExistingFile);
    cmd->add_option("--out", args.output, "The data file to write")->required();
    auto& a = args.analysis;
    cmd->add_option("--engine", a.engine,
                    "The teacher (default: this binary, searching in this process): cmd=COMMAND "
                    "[option.NAME=VALUE]... "
                    "[nodes=N | depth=N | movetime=MS]")
        ->expected(1, 1000);
    cmd->add_option("--nodes", a.nodes, "Nodes per position")->check(CLI::PositiveNumber);
    cmd->add_option("--depth", a.depth, "Depth per position")->check(CLI::Range(1, 1000));
    cmd->add_option("--movetime", a.moveTime, "Time per position, ms")->check(CLI::PositiveNumber);
    cmd->add_option("--move-timeout", a.moveTimeout,
                    "ms past the limit before a UCI teacher counts as hung (default 60000; "
                    "the in-process teacher's search ends by its limit alone)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--jobs", args.jobs,
                    "Teachers (processes; threads of the default in-process one)")
        ->check(CLI::Range(1, 1024));
    cmd->add_option("--in-flight", args.inFlight,
                    "Positions sent to a teacher at once, queued behind its search (1: one round "
                    "trip each)")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    cmd->add_option("--block", args.blockSize,
                    "Positions per part file (the unit of resuming; default 4096)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--score-factor", args.scoreFactor,
                    "Multiply the teacher's centipawns by this (not mates): brings a teacher's "
                    "scale to the engine's; the summary measures the ratio")
        ->check(CLI::Range(0.01, 100.0));
    cmd->add_flag("--keep-parts", args.keepParts, "Keep OUT.parts after merging");
    cmd->add_option("--progress", args.progressSeconds, "Seconds between progress lines")
        ->check(CLI::Range(0.05, 3600.0));
    return cmd;
}

int runLabelCommand(const LabelCommandArgs& args) {
    auto setup = buildAnalysis(args.analysis);
    if (!setup) {
        std::fprintf(stderr, "axon label: %s\n", setup.error().c_str());
        return 1;
    }
    if (setup->engine.protocol != match::Protocol::Uci) {
        std::fprintf(stderr, "axon label: the teacher must be a UCI engine\n");
        return 1;
    }
    data::LabelConfig config;
    config.inputs = args.inputs;
    config.output = args.output;
    config.limit = setup->limit;
    config.jobs = args.jobs;
    config.inFlight = args.inFlight;
    config.blockSize = args.blockSize;
    config.keepParts = args.keepParts;
    config.scoreFactor = args.scoreFactor;
    config.teacherDescription = data::describeTeacher(setup->engine);
    data::LabelCallbacks callbacks;
    callbacks.progressSeconds = args.progressSeconds;
    callbacks.onProgress = printLabelProgress;
    callbacks.onReport = [](const std::string& line) {
        std::fprintf(stderr, "label: %s\n", line.c_str());
    };
    const auto& stop = installInterruptFlag();
    // The default teacher, this binary, searches in this process: the same labels as its UCI
    // process (tests/cli/label_cli.sh), without the pipes and the info lines' parsing. So the
    // parts' manifest names the teacher as before and either kind of run resumes the other.
    const match::EngineFactory teacher = args.analysis.engine.empty()
                                             ? data::inProcessTeacherFactory({})
                                             : match::uciEngineFactory(setup->engine);
    auto result = data::runLabel(config, teacher, stop, callbacks);
    if (!result) {
        std::fprintf(stderr, "axon label: %s\n", result.error().c_str());
        return 1;
    }
    const data::LabelStats& s = *result;
    std::printf("inputs         %" PRIu64 " positions in %" PRIu64 " blocks (%" PRIu64
                " resumed, %" PRIu64 " records)\n",
                s.inputs, s.blocks, s.resumedBlocks, s.resumedRecords);
    std::printf("labelled       %" PRIu64 "  skipped %" PRIu64 "  teacher restarts %" PRIu64 "\n",
                s.labelled, s.skipped, s.restarts);
    std::printf("time           %.1f s, %.0f positions/s (%s, %d jobs, %d in flight)\n", s.seconds,
                util::ratePerSecond(double(s.processed), s.seconds),
                config.limit.describe().c_str(), args.jobs, args.inFlight);
    if (const auto ratio = s.fit.ratio()) {
        std::printf(
            "scale          written scores = %.3f x the inputs' (least squares over %" PRIu64
            " positions within +-%d cp)",
            *ratio, s.fit.positions, data::ScaleFit::kBound);
        if (*ratio > 0)
            std::printf("; --score-factor %.3f matches them", args.scoreFactor / *ratio);
        std::printf("\n");
    }
    if (s.interrupted) {
        std::fprintf(stderr,
                     "axon label: interrupted; finished blocks are kept in %s.parts, "
                     "rerun the same command to resume\n",
                     args.output.c_str());
        return kInterruptedExitStatus;
    }
    std::printf("output         %s %" PRIu64 " %s\n", args.output.c_str(), s.output,
                data::isGameFile(args.output) ? "plies (game file)" : "records");
    return 0;
}

} // namespace axon::app

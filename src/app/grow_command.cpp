// SPDX-License-Identifier: GPL-3.0-or-later
// `axon grow`: reads the configuration, lowers the process's priority (and its session's when it
// leads one), names this binary as the gate's engine and runs the loop, its progress lines on
// stderr.
#include "app/grow_command.h"

#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/engine_spec.h"
#include "app/interrupt.h"
#include "grow/grow_loop.h"
#include "grow/grow_report.h"
#include "grow/grow_state.h"

namespace axon::app {

namespace fs = std::filesystem;

namespace {

int growError(const std::string& message) {
    std::fprintf(stderr, "axon grow: %s\n", message.c_str());
    return 1;
}

// Linux schedules the processes of each session as one group (autogroup) and shares the CPU
// between groups before a nice value counts: nice orders processes only within their group, so
// a loop started in a session of its own (setsid) took half the machine from a match or a build
// in a terminal whatever its nice (seen 2026-12-07: a niced loop halved a training run's speed).
// The group's own nice fixes that. It is set only when this process leads its session, so that
// the group holds nothing but the loop and the engines it starts, never a user's shell.
void lowerSessionPriority(int nice) {
#ifdef __linux__
    if (getsid(0) != getpid()) return;
    // "/autogroup-N nice K"; a kernel without autogroup scheduling has no such file.
    std::ifstream current("/proc/self/autogroup");
    std::string group, word;
    int currentNice = 0;
    if (!(current >> group >> word >> currentNice) || word != "nice" || currentNice >= nice) return;
    std::ofstream autogroup("/proc/self/autogroup");
    autogroup << nice << '\n';
    autogroup.flush();
    if (!autogroup)
        std::fprintf(stderr, "axon grow: cannot lower the session's priority (autogroup)\n");
#else
    (void)nice;
#endif
}

} // namespace

CLI::App* addGrowCommand(CLI::App& app, GrowCommandArgs& args) {
    auto* cmd = app.add_subcommand(
        "grow", "Grow networks generation after generation from a config file: self-play data "
                "with the best network, candidates trained on it, each gated by an SPRT against "
                "the best, the winner promoted; resumable (rerun the same command) (docs/grow.md)");
    cmd->add_option("config", args.config, "The configuration (JSON, e.g. configs/grow/*.json)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--work", args.workDir,
                    "Work directory: data, networks, state and report (default "
                    "data/grow/<config name>)");
    cmd->add_option("--progress", args.progressSeconds, "Seconds between progress lines")
        ->check(CLI::Range(0.05, 3600.0));
    cmd->add_option("--stop-gate", args.stopGates,
                    "End the running gates of this started generation as 'stopped' (not "
                    "accepted) and go on with the loop; repeatable")
        ->allow_extra_args(false);
    cmd->add_flag("--report", args.reportOnly,
                  "Print the report from the state and exit (safe beside a running loop)");
    return cmd;
}

int runGrowCommand(const GrowCommandArgs& args) {
    std::ifstream in(args.config, std::ios::binary);
    if (!in) return growError("cannot read " + args.config);
    std::stringstream text;
    text << in.rdbuf();
    auto config = grow::parseGrowConfig(text.str());
    if (!config) return growError(args.config + ": " + config.error());
    const std::string work = args.workDir.empty()
                                 ? (fs::path("data/grow") / fs::path(args.config).stem()).string()
                                 : args.workDir;
    if (args.reportOnly) {
        // Read only: the state is replaced whole, so a running loop's file reads consistently,
        // and the files in the work directory stay the loop's to write.
        auto state = grow::loadGrowState((fs::path(work) / "state.json").string());
        if (!state) return growError(state.error());
        std::printf("%s", grow::growReportMarkdown(*config, *state).c_str());
        return 0;
    }
    // Niced: the loop runs for days in the background of everything else on the machine. The
    // gate's engines inherit the priority, so both sides of a match share it.
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, 0);
    if (errno == 0 && current < config->nice && setpriority(PRIO_PROCESS, 0, config->nice) != 0)
        std::fprintf(stderr, "axon grow: cannot lower the priority: %s\n", std::strerror(errno));
    lowerSessionPriority(config->nice);

    grow::GrowOptions options;
    options.workDir = work;
    options.engineCommand = selfCommand();
    options.progressSeconds = args.progressSeconds;
    options.stopGates = args.stopGates;
    options.say = [](const std::string& line) {
        std::fprintf(stderr, "%s\n", line.c_str());
        std::fflush(stderr);
    };
    const auto& stop = installInterruptFlag();
    auto finished = grow::runGrow(*config, options, stop);
    if (!finished) return growError(finished.error());
    if (!*finished) {
        std::fprintf(stderr, "axon grow: interrupted at a safe point; rerun the same command "
                             "to go on\n");
        return kInterruptedExitStatus;
    }
    std::fprintf(stderr, "axon grow: every generation is done; the report is %s/report.md\n",
                 work.c_str());
    return 0;
}

} // namespace axon::app

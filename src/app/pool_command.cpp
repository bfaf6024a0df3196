// SPDX-License-Identifier: GPL-3.0-or-later
// `axon pool`: reads match summaries, pools them and prints the pooled result.
#include "app/pool_command.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

#include "app/match_command.h"
#include "match/pool.h"

namespace axon::app {

namespace {

int poolError(const std::string& message) {
    std::cerr << "axon pool: " << message << "\n";
    return 1;
}

} // namespace

CLI::App* addPoolCommand(CLI::App& app, PoolCommandArgs& args) {
    auto* cmd = app.add_subcommand(
        "pool", "Add the results of several two-engine matches of one comparison (the JSON "
                "summaries of axon match --json) into one pentanomial count, Elo and LLR");
    cmd->add_option("files", args.files, "Summaries written by axon match --json")->required();
    cmd->add_option("--sprt", args.sprt,
                    "elo0=E0 elo1=E1 alpha=A beta=B (default: the bounds the runs share)")
        ->expected(1, 4);
    return cmd;
}

int runPoolCommand(const PoolCommandArgs& args) {
    std::optional<match::SprtConfig> sprt;
    if (!args.sprt.empty()) {
        auto parsed = parseSprtItems(args.sprt);
        if (!parsed) return poolError(parsed.error());
        sprt = *parsed;
    }
    std::vector<match::RunSummary> runs;
    for (const auto& file : args.files) {
        std::ifstream in(file, std::ios::binary);
        if (!in) return poolError("cannot read " + file);
        std::ostringstream text;
        text << in.rdbuf();
        auto run = match::parseRunSummary(text.str());
        if (!run) return poolError(file + ": " + run.error());
        runs.push_back(std::move(*run));
    }
    auto pooled = match::poolRuns(runs, sprt);
    if (!pooled) return poolError(pooled.error());
    std::cout << match::formatPooled(*pooled);
    return 0;
}

} // namespace axon::app

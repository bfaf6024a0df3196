// SPDX-License-Identifier: GPL-3.0-or-later
// Shared options of the position-analysis subcommands and their validation.
#include "app/analysis_args.h"

#include <CLI/CLI.hpp>

#include <fstream>

#include "app/engine_spec.h"

namespace axon::app {

void addAnalysisOptions(CLI::App& cmd, AnalysisArgs& args, const std::string& itemName) {
    cmd.add_option("--engine", args.engine,
                   "The UCI engine (default: this binary): cmd=COMMAND [name=NAME] [dir=DIR] "
                   "[option.NAME=VALUE]... [nodes=N | depth=N | movetime=MS]")
        ->expected(1, 1000);
    cmd.add_option("--nodes", args.nodes, "Nodes per search")->check(CLI::PositiveNumber);
    cmd.add_option("--depth", args.depth, "Depth per search")->check(CLI::Range(1, 1000));
    cmd.add_option("--movetime", args.moveTime, "Time per search, ms")->check(CLI::PositiveNumber);
    cmd.add_option("--move-timeout", args.moveTimeout,
                   "ms past the limit before an engine counts as hung (default 60000)")
        ->check(CLI::PositiveNumber);
    cmd.add_option("--concurrency", args.concurrency, "Engine processes searching at once")
        ->check(CLI::Range(1, 1024));
    cmd.add_option("--limit", args.limit, "Use only the first N " + itemName)
        ->check(CLI::PositiveNumber);
    cmd.add_option("--json", args.json, "Write the summary and every result as JSON");
    cmd.add_flag("--verbose,-v", args.verbose,
                 "A line per " + itemName.substr(0, itemName.size() - 1));
}

util::Result<AnalysisSetup> buildAnalysis(const AnalysisArgs& args) {
    AnalysisSetup setup;
    if (args.engine.empty()) {
        setup.engine.command = selfCommand();
    } else {
        auto engine = parseEngineSpec(args.engine);
        if (!engine) return util::makeError(engine.error());
        setup.engine = std::move(*engine);
    }
    const int flags = (args.nodes > 0) + (args.depth > 0) + (args.moveTime > 0);
    const auto& own = setup.engine.timeControl;
    if (own && own->kind == match::TimeControl::Kind::Clock)
        return util::makeError(
            "a clock (tc=) makes no sense for single positions: use nodes, depth or movetime");
    if (flags + (own ? 1 : 0) != 1)
        return util::makeError("give exactly one limit: --nodes, --depth or --movetime");
    auto& limit = setup.limit;
    limit.timeoutMs = args.moveTimeout;
    if (own) {
        limit.nodes = own->kind == match::TimeControl::Kind::Nodes ? own->nodes : 0;
        limit.depth = own->kind == match::TimeControl::Kind::Depth ? own->depth : 0;
        limit.moveTimeMs = own->kind == match::TimeControl::Kind::MoveTime ? own->moveTimeMs : 0;
    } else {
        limit.nodes = args.nodes;
        limit.depth = args.depth;
        limit.moveTimeMs = args.moveTime;
    }
    return setup;
}

bool writeTextFile(const std::string& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
    return bool(out.flush());
}

} // namespace axon::app

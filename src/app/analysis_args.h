// SPDX-License-Identifier: GPL-3.0-or-later
// The command-line options `axon epd` and `axon puzzles` share: the engine (default: this
// binary), the search limit, concurrency, output, and their validation.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "match/engine.h"
#include "match/engine_pool.h"
#include "util/result.h"

namespace CLI {
class App;
}

namespace axon::app {

struct AnalysisArgs {
    std::vector<std::string> engine; // --engine key=value list; empty: this binary
    long long nodes = 0;
    int depth = 0;
    long long moveTime = 0;
    long long moveTimeout = 60000;
    int concurrency = 1;
    std::size_t limit = 0;
    std::string json;
    bool verbose = false;
};

// Adds --engine, --nodes, --depth, --movetime, --move-timeout, --concurrency, --limit, --json
// and --verbose to `cmd`.
void addAnalysisOptions(CLI::App& cmd, AnalysisArgs& args, const std::string& itemName);

struct AnalysisSetup {
    match::EngineConfig engine;
    match::AnalysisLimit limit;
};

// The engine and exactly one limit (a flag, or nodes= / depth= / movetime= in --engine).
util::Result<AnalysisSetup> buildAnalysis(const AnalysisArgs& args);

// Writes `text` to `path`; false when it cannot.
bool writeTextFile(const std::string& path, const std::string& text);

} // namespace axon::app

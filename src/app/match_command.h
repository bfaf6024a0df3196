// SPDX-License-Identifier: GPL-3.0-or-later
// The `axon match` subcommand: its command line, turned into match options, and the run.
#pragma once

#include <string>
#include <vector>

#include "match/stats.h"
#include "util/result.h"

namespace CLI {
class App;
}

namespace axon::app {

// What the command line gives, before validation; the key=value lists stay raw until run.
struct MatchCommandArgs {
    std::vector<std::vector<std::string>> engines; // one key=value list per --engine
    std::string tournament;                        // gauntlet or roundrobin (more than 2 engines)
    std::string variant = "standard";
    std::string tc;
    long long nodes = 0;
    int depth = 0;
    long long moveTime = 0;
    int games = 0;
    int rounds = 0;
    int concurrency = 1;
    std::string openings;
    std::string openingsOrder = "sequential";
    unsigned long long seed = 0;
    std::string pgn;
    std::string json;
    std::vector<std::string> sprt;
    std::vector<std::string> resign;
    std::vector<std::string> draw;
    long long timeMargin = 100;
    long long moveTimeout = 60000;
};

// Adds the subcommand to `app`; `args` receives the parsed values.
CLI::App* addMatchCommand(CLI::App& app, MatchCommandArgs& args);

// The SPRT bounds of --sprt's elo0=E0 elo1=E1 alpha=A beta=B items (`axon match`, `axon pool`).
util::Result<match::SprtConfig> parseSprtItems(const std::vector<std::string>& items);

// Validates the arguments and runs the match: 0 when it ran, 1 on errors (printed to stderr).
int runMatchCommand(const MatchCommandArgs& args);

} // namespace axon::app

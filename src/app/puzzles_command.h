// SPDX-License-Identifier: GPL-3.0-or-later
// The `axon puzzles` subcommand: scores an engine on Lichess puzzles (lichess_db_puzzle.csv).
#pragma once

#include <string>

#include "app/analysis_args.h"

namespace CLI {
class App;
}

namespace axon::app {

struct PuzzlesCommandArgs {
    std::string csvFile;
    AnalysisArgs analysis;
    int minRating = 0;
    int maxRating = 100000;
    std::string themes; // comma-separated
    std::size_t topThemes = 20;
};

CLI::App* addPuzzlesCommand(CLI::App& app, PuzzlesCommandArgs& args);

// 0 when the puzzles ran, 1 on errors (printed to stderr).
int runPuzzlesCommand(const PuzzlesCommandArgs& args);

} // namespace axon::app

// SPDX-License-Identifier: GPL-3.0-or-later
// `axon convert`: the command line of converting training data between formats (Lichess PGN,
// puzzles, EPD, Axon, bullet), its progress line and summary.
#pragma once

#include <string>
#include <vector>

#include "data/convert.h"

namespace CLI {
class App;
}

namespace axon::app {

struct ConvertCommandArgs {
    std::string from;
    std::string to = "axon";
    std::vector<std::string> inputs;
    std::string output;
    data::LichessPgnOptions pgn;
    std::string timeControl;
    std::string mates = "score";
    bool puzzleLine = false;
    bool keepNoisy = false;
    double progressSeconds = 3.0;
};

CLI::App* addConvertCommand(CLI::App& app, ConvertCommandArgs& args);
// The process exit status: 0 when done, 1 on errors (no output file is written then).
int runConvertCommand(const ConvertCommandArgs& args);

} // namespace axon::app

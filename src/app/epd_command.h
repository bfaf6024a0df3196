// SPDX-License-Identifier: GPL-3.0-or-later
// The `axon epd` subcommand: scores an engine on an EPD test suite (bm / am, or c0 points).
#pragma once

#include <string>

#include "app/analysis_args.h"

namespace CLI {
class App;
}

namespace axon::app {

struct EpdCommandArgs {
    std::string suiteFile;
    AnalysisArgs analysis;
};

CLI::App* addEpdCommand(CLI::App& app, EpdCommandArgs& args);

// 0 when the suite ran, 1 on errors (printed to stderr).
int runEpdCommand(const EpdCommandArgs& args);

} // namespace axon::app

// SPDX-License-Identifier: GPL-3.0-or-later
// `axon label`: the command line of re-scoring positions with a teacher engine, its progress
// line and summary.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "app/analysis_args.h"
#include "data/labeler.h"

namespace CLI {
class App;
}

namespace axon::app {

struct LabelCommandArgs {
    std::vector<std::string> inputs;
    std::string output;
    AnalysisArgs analysis; // engine, limit, move timeout
    int jobs = 1;
    int inFlight = data::kDefaultLabelInFlight;
    std::size_t blockSize = data::kDefaultLabelBlock;
    bool keepParts = false;
    double scoreFactor = 1.0; // data::LabelConfig::scoreFactor
    double progressSeconds = 3.0;
};

CLI::App* addLabelCommand(CLI::App& app, LabelCommandArgs& args);
// The process exit status: 0 when done, 1 on errors, 130 when interrupted (Ctrl-C).
int runLabelCommand(const LabelCommandArgs& args);

} // namespace axon::app

// SPDX-License-Identifier: GPL-3.0-or-later
// `axon datagen`: the command line of self-play data generation, its progress line and summary.
#pragma once

#include "data/datagen.h"

namespace CLI {
class App;
}

namespace axon::app {

struct DatagenCommandArgs {
    data::DatagenConfig config;
    double progressSeconds = 3.0;
};

CLI::App* addDatagenCommand(CLI::App& app, DatagenCommandArgs& args);
// The process exit status: 0 when done, 1 on errors, 130 when interrupted (Ctrl-C).
int runDatagenCommand(const DatagenCommandArgs& args);

} // namespace axon::app

// SPDX-License-Identifier: GPL-3.0-or-later
// `axon grow`: the command line of the generational loop (src/grow, docs/grow.md).
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace axon::app {

struct GrowCommandArgs {
    std::string config;
    std::string workDir; // empty: data/grow/<the config file's stem>
    double progressSeconds = 30;
    bool reportOnly = false;
    std::vector<std::string> stopGates; // --stop-gate GEN
};

CLI::App* addGrowCommand(CLI::App& app, GrowCommandArgs& args);
// The process exit status: 0 when every generation is done, 1 on errors, 130 when interrupted.
int runGrowCommand(const GrowCommandArgs& args);

} // namespace axon::app

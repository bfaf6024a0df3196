// SPDX-License-Identifier: GPL-3.0-or-later
// The `axon pool` subcommand: several `axon match --json` summaries of one comparison added into
// one report (match/pool.h).
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace axon::app {

struct PoolCommandArgs {
    std::vector<std::string> files;
    std::vector<std::string> sprt; // key=value items as for `axon match --sprt`
};

CLI::App* addPoolCommand(CLI::App& app, PoolCommandArgs& args);

// Prints the pooled report: 0 when every file was read and the runs agree, 1 otherwise.
int runPoolCommand(const PoolCommandArgs& args);

} // namespace axon::app

// SPDX-License-Identifier: GPL-3.0-or-later
// The `axon serve` subcommand: its command-line options and the call into src/server.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "server/server.h"

namespace axon::app {

struct ServeCommandArgs {
    server::ServerConfig config;
    std::string webRoot;
    int idleMinutes = 30;
    std::string localAnalysis = "unlimited"; // --local-analysis: unlimited or capped
    std::string syzygyPath;                  // --syzygy-path: tables for every session
};

CLI::App* addServeCommand(CLI::App& app, ServeCommandArgs& args);
int runServeCommand(ServeCommandArgs& args);

} // namespace axon::app

// SPDX-License-Identifier: GPL-3.0-or-later
// The native UCI front end: reads commands from stdin, or from the command line as OpenBench
// passes them, and writes responses to stdout (the protocol itself is uci/session.h).
#pragma once

#include <string>
#include <vector>

namespace axon::uci {

// Runs until `quit` or end of input; returns the process exit status.
int runUciLoop();

// Whether the program's first argument is a UCI command line rather than a subcommand:
// OpenBench starts engines as `./engine "genfens N seed S book B" "quit"`.
bool isCommandLineCommand(const std::string& argument);

// Handles each argument as one UCI command line, in order, until `quit` or the last one; then
// returns the process exit status without reading stdin.
int runUciCommands(const std::vector<std::string>& lines);

} // namespace axon::uci

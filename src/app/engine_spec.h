// SPDX-License-Identifier: GPL-3.0-or-later
// The --engine key=value list shared by the subcommands that drive UCI engines (match, epd,
// puzzles), and the command line that runs this very binary as an engine.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "match/engine.h"
#include "util/result.h"

namespace axon::app {

// "key=value" split at the first '='; nothing when there is no '=' or no key.
std::optional<std::pair<std::string, std::string>> splitKeyValue(const std::string& item);

// Reads cmd=COMMAND name=NAME dir=DIR option.NAME=VALUE and a per-engine limit (tc=, nodes=,
// depth=, movetime=). cmd is required. Errors say which item is wrong.
util::Result<match::EngineConfig> parseEngineSpec(const std::vector<std::string>& items);

// This binary (from /proc/self/exe), quoted for /bin/sh: the default engine of epd and puzzles.
std::string selfCommand();

} // namespace axon::app

// SPDX-License-Identifier: GPL-3.0-or-later
// `axon data stats` and `axon data dump`: read training-data files back, validating every
// record, for people and for the data tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace axon::app {

struct DataCommandArgs {
    std::vector<std::string> files;
    std::uint64_t limit = 0; // dump: records per file, 0: all
};

struct DataCommands {
    CLI::App* stats = nullptr;
    CLI::App* dump = nullptr;
};

DataCommands addDataCommand(CLI::App& app, DataCommandArgs& args);
// Exit status 0, or 1 when a file cannot be read or holds an invalid record or game (printed).
int runDataStats(const DataCommandArgs& args);
int runDataDump(const DataCommandArgs& args);

} // namespace axon::app

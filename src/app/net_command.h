// SPDX-License-Identifier: GPL-3.0-or-later
// The `axon net` subcommands: print a network file's header, write a random network, and
// measure evaluation speed (incremental accumulators against full refreshes).
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace axon::app {

struct NetCommandArgs {
    std::string file;   // info: the file; bench: optional (a random network otherwise)
    std::string output; // random: where to write
    int hidden = 256;
    int inputBuckets = 1;
    int outputBuckets = 1;
    bool mirror = false;
    std::uint64_t seed = 1;
    double seconds = 1.0; // bench: time per mode
};

struct NetCommands {
    CLI::App* info = nullptr;
    CLI::App* random = nullptr;
    CLI::App* bench = nullptr;
};

NetCommands addNetCommand(CLI::App& app, NetCommandArgs& args);

// Each returns a process exit status: 0 on success, 1 on errors (printed to stderr).
int runNetInfo(const NetCommandArgs& args);
int runNetRandom(const NetCommandArgs& args);
int runNetBench(const NetCommandArgs& args);

} // namespace axon::app

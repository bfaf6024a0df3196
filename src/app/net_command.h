// SPDX-License-Identifier: GPL-3.0-or-later
// The `axon net` subcommands: print a network file's header, write a random network, convert
// between network files and safetensors (export, import), and measure evaluation speed
// (incremental accumulators against full refreshes, the float models, and the per-piece
// contributions of the analysis heat map).
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace axon::app {

struct NetCommandArgs {
    std::string file;         // info, export, import: the input; bench: optional (random)
    std::string output;       // random, import: where to write
    std::string safetensors;  // export: where to write
    std::string floatModel;   // bench: a float model file to measure as well
    bool floatModels = false; // bench: also measure random float models (MLP, CNN)
    bool pieces = false;      // bench: also measure the piece contributions (`eval pieces`)
    int hidden = 256;
    int inputBuckets = 1;
    int outputBuckets = 1;
    bool mirror = false;
    int l1 = 0, l2 = 0; // the layer stack of a random network (0: none)
    std::uint64_t seed = 1;
    double seconds = 1.0; // bench: time per mode
};

struct NetCommands {
    CLI::App* info = nullptr;
    CLI::App* random = nullptr;
    CLI::App* bench = nullptr;
    CLI::App* exportCmd = nullptr;
    CLI::App* importCmd = nullptr;
};

NetCommands addNetCommand(CLI::App& app, NetCommandArgs& args);

// Each returns a process exit status: 0 on success, 1 on errors (printed to stderr).
int runNetInfo(const NetCommandArgs& args);
int runNetRandom(const NetCommandArgs& args);
int runNetBench(const NetCommandArgs& args);
int runNetExport(const NetCommandArgs& args);
int runNetImport(const NetCommandArgs& args);

} // namespace axon::app

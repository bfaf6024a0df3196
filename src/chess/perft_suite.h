// SPDX-License-Identifier: GPL-3.0-or-later
// Perft suites: reading EPD lines "FEN ;D1 20 ;D2 400" and the id/epd/perft block format, and
// running them with the one report format that the native and WebAssembly front ends share.
#pragma once

#include <cstdint>
#include <cstdio>
#include <istream>
#include <string>
#include <vector>

#include "util/result.h"

namespace axon::chess {

struct PerftCase {
    std::string name;
    std::string fen;
    std::vector<std::pair<int, std::uint64_t>> expected; // (depth, nodes)
    int line = 0;
};

// Reads every case; a malformed line is an error naming the line.
util::Result<std::vector<PerftCase>> readPerftSuite(std::istream& in);

// Which expectations a suite run checks: deeper or larger ones are skipped.
struct PerftSuiteLimits {
    int maxDepth = 99;
    std::uint64_t maxNodes = ~std::uint64_t(0);
};

struct PerftSuiteSummary {
    int checks = 0;
    int failures = 0;
    std::uint64_t nodes = 0;
    double seconds = 0;
};

// Runs every expectation within the limits, single-threaded, writing one line per check,
// "ok FEN ;D<depth> <nodes>" or "FAIL FEN ;D<depth> <nodes>" followed by "  expected <n>", a
// "FAIL <name>: <why>" line for a position that does not parse, and a closing summary line
// "<checks> checks, <failed> failed, <nodes> nodes, <s> s, <n> nodes/s".
PerftSuiteSummary runPerftSuite(const std::vector<PerftCase>& suite, const PerftSuiteLimits& limits,
                                std::FILE* out);

// Reads the suite file and runs it as above; returns a process exit status: 0 when every check
// passed, 1 on a mismatch, 2 when the file cannot be read or parsed (reported on `err`).
int runPerftSuiteFile(const std::string& path, const PerftSuiteLimits& limits, std::FILE* out,
                      std::FILE* err);

} // namespace axon::chess

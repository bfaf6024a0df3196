// SPDX-License-Identifier: GPL-3.0-or-later
// `bench`: a fixed set of positions searched to a fixed depth with one thread and a 16 MB hash.
// Its node count is the engine's signature: it changes only when search behaviour changes.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace axon::engine {

constexpr int kDefaultBenchDepth = 13;

const std::vector<std::string>& benchPositions();

struct BenchResult {
    std::uint64_t nodes = 0;
    std::uint64_t nps = 0;
    double seconds = 0;
};

// Searches every bench position (each from a cleared hash and history); prints one line per
// position and finally "N nodes M nps".
BenchResult runBench(int depth, std::ostream& out);

} // namespace axon::engine

// SPDX-License-Identifier: GPL-3.0-or-later
// Reading perft suites: EPD lines "FEN ;D1 20 ;D2 400" and the id/epd/perft block format.
#pragma once

#include <cstdint>
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

} // namespace axon::chess

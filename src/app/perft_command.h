// SPDX-License-Identifier: GPL-3.0-or-later
// `axon perft`: divide counts and speed for one position, or a whole suite checked against
// its expected counts.
#pragma once

#include <string>

namespace axon::app {

struct PerftOptions {
    int depth = 5;
    std::string fen;                            // empty: start position
    std::string suiteFile;                      // when set, run the suite instead of one position
    int maxDepth = 99;                          // suite mode: skip deeper expectations
    std::uint64_t maxNodes = ~std::uint64_t(0); // suite mode: skip larger expectations
    int threads = 1;
    bool divide = true;
};

// Returns the process exit status (non-zero on a bad FEN or a suite mismatch).
int runPerft(const PerftOptions& options);

} // namespace axon::app

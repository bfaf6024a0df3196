// SPDX-License-Identifier: GPL-3.0-or-later
// The WebAssembly perft tool: runs a perft suite with the chess core as compiled by em++, printing
// exactly what `axon perft --suite` prints, so the two can be diffed (scripts/build-wasm-perft.sh).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "chess/perft_suite.h"

namespace {

int usage() {
    std::fprintf(stderr, "usage: axon_perft_wasm SUITE [--max-depth D] [--max-nodes N]\n");
    return 2;
}

// Parses a whole decimal number; no exceptions (the WASM build has them off).
bool parseNumber(const char* text, std::uint64_t& value) {
    if (!text || !*text) return false;
    char* end = nullptr;
    value = std::strtoull(text, &end, 10);
    return *end == '\0' && text[0] != '-';
}

} // namespace

int main(int argc, char** argv) {
    std::string suiteFile;
    axon::chess::PerftSuiteLimits limits;
    for (int i = 1; i < argc; ++i) {
        std::uint64_t value = 0;
        if (std::strcmp(argv[i], "--max-depth") == 0) {
            if (!parseNumber(i + 1 < argc ? argv[++i] : nullptr, value) || value > 99)
                return usage();
            limits.maxDepth = static_cast<int>(value);
        } else if (std::strcmp(argv[i], "--max-nodes") == 0) {
            if (!parseNumber(i + 1 < argc ? argv[++i] : nullptr, value)) return usage();
            limits.maxNodes = value;
        } else if (argv[i][0] == '-' || !suiteFile.empty()) {
            return usage();
        } else {
            suiteFile = argv[i];
        }
    }
    if (suiteFile.empty()) return usage();
    return axon::chess::runPerftSuiteFile(suiteFile, limits, stdout, stderr);
}

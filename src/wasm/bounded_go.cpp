// SPDX-License-Identifier: GPL-3.0-or-later
// Rewrites unbounded `go` commands for the single-threaded WebAssembly engine.
#include "wasm/bounded_go.h"

#include <sstream>
#include <vector>

namespace axon::wasm {

BoundedCommand boundSearch(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> tokens;
    for (std::string token; in >> token;) tokens.push_back(token);
    if (tokens.empty() || tokens[0] != "go") return {line, ""};

    bool infinite = false, ponder = false, limited = false, moves = false;
    std::string rewritten = "go";
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        const std::string& t = tokens[i];
        // After `searchmoves` every token is a move; the session checks them.
        if (!moves && t == "infinite") {
            infinite = true;
            continue;
        }
        if (!moves && t == "ponder") {
            ponder = true;
            continue;
        }
        if (!moves && (t == "depth" || t == "nodes" || t == "mate" || t == "movetime"))
            limited = true;
        if (t == "searchmoves") moves = true;
        rewritten += " " + t;
    }
    if (!infinite && !ponder) return {line, ""};

    std::string note;
    if (infinite && !limited) {
        // Inserted before any searchmoves, which take the rest of the line.
        const std::size_t at = rewritten.find(" searchmoves");
        const std::string limit = " movetime " + std::to_string(kMaxUnboundedSearchMs);
        rewritten.insert(at == std::string::npos ? rewritten.size() : at, limit);
        note = "info string go infinite runs at most " + std::to_string(kMaxUnboundedSearchMs) +
               " ms in the single-threaded build (stop cannot reach a running search)";
    } else if (infinite) {
        note =
            "info string go infinite ends at its limit in the single-threaded build (stop cannot "
            "reach a running search)";
    }
    if (ponder) {
        if (!note.empty()) note += "\n";
        note += "info string go ponder searches on the clock at once in the single-threaded build "
                "(ponderhit cannot reach a running search)";
    }
    return {rewritten, note};
}

} // namespace axon::wasm

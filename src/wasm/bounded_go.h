// SPDX-License-Identifier: GPL-3.0-or-later
// Makes a UCI `go` bounded for the single-threaded WebAssembly engine, where the search runs
// inside the command and no `stop` or `ponderhit` can reach it.
#pragma once

#include <string>

namespace axon::wasm {

// The longest search the single-threaded build runs for `go infinite`.
constexpr int kMaxUnboundedSearchMs = 60000;

struct BoundedCommand {
    std::string line; // the command to run
    std::string note; // an `info string` saying what was changed, or empty
};

// `go ... infinite` loses `infinite` and, without a depth, nodes, mate or movetime limit, gets
// `movetime kMaxUnboundedSearchMs`; `go ponder ...` loses `ponder` (the clock applies at once).
// Any other line is returned unchanged.
BoundedCommand boundSearch(const std::string& line);

} // namespace axon::wasm

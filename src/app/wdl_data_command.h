// SPDX-License-Identifier: GPL-3.0-or-later
// `axon wdl-data`: turns PGN games with engine eval comments (as `axon match --pgn` writes
// them) into the samples scripts/fit-wdl.py fits the WDL model to.
#pragma once

#include <string>

namespace axon::app {

// Prints one line per evaluated move: "material score result", where material is the WDL
// model's count for the position searched, score the mover's centipawns and result the mover's
// outcome (1, 0.5 or 0). Book moves, mate scores and unfinished games are skipped. Returns the
// process exit status (non-zero when the file cannot be read).
int runWdlData(const std::string& pgnFile);

} // namespace axon::app

// SPDX-License-Identifier: GPL-3.0-or-later
// PGN writer: export format with the Seven Tag Roster, SAN movetext, comments carrying
// [%eval] / [%clk] / [%emt], NAGs, and lines wrapped so that the reader gives the game back.
#pragma once

#include <string>

#include "chess/pgn_game.h"
#include "util/result.h"

namespace axon::chess {

struct PgnWriterOptions {
    int maxLineLength = 80;
    bool comments = true; // comment text and the eval / clock commands
    bool nags = true;
};

// The game as PGN text, ending with a blank line so that games can be concatenated. Fails when
// the start position does not parse or a move is not legal where it is played.
util::Result<std::string> toPgn(const PgnGame& game, const PgnWriterOptions& options = {});

} // namespace axon::chess

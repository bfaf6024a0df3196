// SPDX-License-Identifier: GPL-3.0-or-later
// Standard algebraic notation (SAN): writing with minimal disambiguation and check marks, and
// lenient reading of what people and programs actually write.
#pragma once

#include <string>
#include <string_view>

#include "chess/position.h"
#include "util/result.h"

namespace axon::chess {

// SAN of a legal move: "Nbd7", "exd6", "e8=Q+", "O-O-O#".
std::string toSan(const Position& pos, Move m);

// Finds the legal move written in SAN. Accepts O-O / 0-0 (and O-O-O / 0-0-0), missing or extra
// check marks and annotation glyphs (+ # ! ?), "e.p." suffixes, promotions with or without '=',
// and over-disambiguation (Ng1f3). Rejects lower-case piece letters ("nf3") with a message saying
// so, and reports ambiguous or illegal moves by name.
util::Result<Move> parseSan(const Position& pos, std::string_view text);

} // namespace axon::chess

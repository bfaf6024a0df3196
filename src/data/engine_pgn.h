// SPDX-License-Identifier: GPL-3.0-or-later
// Engine-match PGNs to training records: the games fastchess and cutechess write, and OpenBench
// uploads from its DATAGEN workloads (through its pgn_util.py), carry each engine's search score
// in the comment after the move it chose ("{+0.98/15 0.126s}", "{-0.23/6 0.002s, n=3114, sd=8}",
// "{-0.23/6}", "{+M5/12}", "{book}"). Every scored move gives the position it was played from,
// with that score, the move as its best move and the game's result, filtered as `axon datagen`
// filters its own positions (docs/openbench.md, docs/training-data.md).
#pragma once

#include <istream>
#include <optional>
#include <string_view>

#include "data/convert_output.h"

namespace axon::data {

// What one move comment says about the move.
struct EngineComment {
    enum class Kind { None, Book, Score };
    Kind kind = Kind::None;
    // Kind::Score: centipawns from the view of the side that played the move (the side to move
    // of the position searched); a mate "+M5" / "-M5" as +-(kRecordScoreLimit - 5), whatever unit
    // the tool counted the distance in (fastchess and cutechess count plies).
    int score = 0;
    bool mate = false;
    int depth = 0;
};

// Reads the first "score/depth" token of a comment (pawns with an optional fraction, or M and a
// mate distance, optionally signed: the form every one of these tools writes), or "book".
// Anything else, "unknown" (OpenBench's word for a comment it could not read) included, is
// Kind::None.
EngineComment parseEngineComment(std::string_view comment);

// Reads every game of `in`. Games the PGN reader cannot replay are counted as malformed and
// skipped; an error is returned only when the sink fails.
std::string convertEnginePgn(std::istream& in, ConvertOutput& out);

} // namespace axon::data

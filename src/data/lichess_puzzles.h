// SPDX-License-Identifier: GPL-3.0-or-later
// Lichess's puzzle database CSV (PuzzleId,FEN,Moves,...) to training records: the position the
// solver faces, with the solution's move as the best move (docs/training-data.md).
#pragma once

#include <istream>
#include <string>

#include "data/convert_output.h"

namespace axon::data {

struct PuzzleOptions {
    // Every position the solver faces along the solution, not just the first.
    bool wholeLine = false;
};

// The score of puzzle records: the database has no evaluation. Results are draws for the same
// reason; `axon label` can score the positions.
constexpr int kPuzzleScore = 0;

// Reads the CSV (the header names the FEN and Moves columns). A row that does not parse or
// whose moves are illegal is counted as malformed; an error is returned for a missing header
// or a failing sink.
std::string convertPuzzles(std::istream& in, const PuzzleOptions& options, ConvertOutput& out);

} // namespace axon::data

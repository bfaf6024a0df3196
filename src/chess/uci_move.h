// SPDX-License-Identifier: GPL-3.0-or-later
// UCI long algebraic notation (e2e4, e7e8q), with castling as e1g1 or, in Chess960,
// king-takes-rook.
#pragma once

#include <string>
#include <string_view>

#include "chess/position.h"
#include "util/result.h"

namespace axon::chess {

std::string squareName(Square s);
// Parses "e4"; NoSquare when malformed.
Square parseSquare(std::string_view text);

// In standard notation castling is written as the king's two-square move; with `chess960`
// it is written as the king capturing its own rook.
std::string toUci(Move m, bool chess960);

// Finds the legal move the text names. Castling is accepted in both forms in any mode, since
// GUIs differ.
util::Result<Move> parseUciMove(const Position& pos, std::string_view text);

} // namespace axon::chess

// SPDX-License-Identifier: GPL-3.0-or-later
// FEN reading and writing, with Shredder-FEN and X-FEN castling fields for Chess960.
#pragma once

#include <string>
#include <string_view>

#include "chess/position.h"
#include "util/result.h"

namespace axon::chess {

// Parses a FEN (the two move counters may be omitted, as in EPD). Rejects malformed fields and
// illegal positions with a message naming the field.
util::Result<Position> parseFen(std::string_view fen);

// Writes the position; castling uses KQkq for the outermost rooks and file letters otherwise
// (X-FEN), so standard positions get standard FENs and Chess960 ones stay unambiguous.
std::string toFen(const Position& pos);

// A piece's FEN letter: PNBRQK for White, pnbrqk for Black.
constexpr char pieceChar(Piece p) { return "PNBRQKpnbrqk"[p]; }

Position startPosition();

} // namespace axon::chess

// SPDX-License-Identifier: GPL-3.0-or-later
// Chess960 start positions by number (the standard Scharnagl numbering, 518 the usual start), and
// double Chess960 (DFRC) starts: White's and Black's back ranks chosen independently.
#pragma once

#include <array>
#include <string>

#include "chess/types.h"

namespace axon::chess {

constexpr int kChess960Positions = 960;

// The back rank of Chess960 position `n` (0-959), a-file first. `n` outside 0-959 is taken modulo
// 960.
std::array<PieceType, 8> chess960BackRank(int n);

// The FEN of the start with White's pieces from position `white` and Black's from position
// `black` (0-959 each), castling rights on both rooks of each side as Shredder-FEN rook files
// (so every right is unambiguous), White to move. doubleChess960Fen(518, 518) is the usual start
// position, written "HAha".
std::string doubleChess960Fen(int white, int black);

} // namespace axon::chess

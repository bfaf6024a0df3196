// SPDX-License-Identifier: GPL-3.0-or-later
// Zobrist hashing keys for pieces on squares, castling rights, en-passant files and side to move.
#pragma once

#include "chess/types.h"

namespace axon::chess::zobrist {

extern Key pieceSquare[kNumPieces][kNumSquares];
extern Key castling[kNumCastlingRights];
extern Key enPassantFile[8];
extern Key sideToMove;

void init();

} // namespace axon::chess::zobrist

// SPDX-License-Identifier: GPL-3.0-or-later
// Tapered material and piece-square tables: midgame and endgame values blended by game phase.
#pragma once

#include "chess/position.h"

namespace axon::eval {

struct TaperedScore {
    int mg = 0;
    int eg = 0;
};

// Material + piece-square sum for White minus Black.
TaperedScore materialAndPlacement(const chess::Position& pos);
// Game phase from non-pawn material: kMaxPhase in the opening down to 0 in a pawn ending.
int gamePhase(const chess::Position& pos);
constexpr int kMaxPhase = 24;

// Value of piece type pt on square s (from White's side) for White.
TaperedScore pieceSquareValue(chess::PieceType pt, chess::Square s);

} // namespace axon::eval

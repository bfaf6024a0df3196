// SPDX-License-Identifier: GPL-3.0-or-later
// Piece values for static exchange evaluation (Position::seeGe is implemented in see.cpp).
#pragma once

#include "chess/position.h"

namespace axon::chess {

constexpr int kSeeValues[kNumPieceTypes + 1] = {100, 300, 300, 500, 900, 0, 0};
constexpr int seeValue(PieceType pt) { return kSeeValues[pt]; }

} // namespace axon::chess

// SPDX-License-Identifier: GPL-3.0-or-later
// The win/draw/loss model: turns a search score (centipawns, side to move) and the material on
// the board into expected per-mille win, draw and loss rates. The coefficients were fitted to
// Axon self-play games by scripts/fit-wdl.py (docs/wdl-model.md).
#pragma once

#include <array>

#include "chess/position.h"

namespace axon::search {

struct Wdl {
    int win = 0; // per mille, side to move
    int draw = 0;
    int loss = 0;
};

// Material used by the model: pawn 1, knight and bishop 3, rook 5, queen 9, both sides,
// clamped to [kWdlMinMaterial, kWdlMaxMaterial].
constexpr int kWdlMinMaterial = 17;
constexpr int kWdlMaxMaterial = 78;
int wdlMaterial(const chess::Position& pos);

// a(m) and b(m) of win = 1 / (1 + exp((a - score) / b)): cubic polynomials in m / 58.
struct WdlParams {
    double a;
    double b;
};
WdlParams wdlParams(int material);

// Per-mille rates summing to 1000; mate scores are certain wins or losses.
Wdl wdlFromScore(int score, int material);

} // namespace axon::search

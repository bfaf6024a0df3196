// SPDX-License-Identifier: GPL-3.0-or-later
// How a game ends: checkmate, stalemate, the fifty-move rule, repetition and material.
#pragma once

#include "chess/position.h"

namespace axon::chess {

// Material that cannot mate.
//  - Dead: no sequence of legal moves can mate (K v K, K+minor v K, bishops all on one colour).
//    FIDE ends the game at once; Axon's game logic does too.
//  - DrawnByClaim: K+N+N v K. A mate exists only with the defender's help, so the position is
//    not dead under FIDE rules and a game goes on; but no mate can be forced, so the match
//    runner's adjudication and the search may score it as a draw.
enum class MaterialDraw { None, Dead, DrawnByClaim };
MaterialDraw insufficientMaterial(const Position& pos);

enum class GameStatus {
    Ongoing,
    Checkmate,
    Stalemate,
    FiftyMoveRule,
    ThreefoldRepetition,
    InsufficientMaterial, // dead position
};

// The status of the game at this position, by the rules a GUI or arbiter applies: a checkmate
// on the hundredth half-move wins, threefold and fifty moves are applied automatically.
GameStatus gameStatus(const Position& pos);
const char* toString(GameStatus status);

} // namespace axon::chess

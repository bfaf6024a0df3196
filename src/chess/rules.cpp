// SPDX-License-Identifier: GPL-3.0-or-later
// Game termination rules.
#include "chess/rules.h"

#include "chess/movegen.h"

namespace axon::chess {

namespace {
constexpr Bitboard kLightSquares = 0x55AA55AA55AA55AAULL;
}

MaterialDraw insufficientMaterial(const Position& pos) {
    if (pos.pieces(Pawn, Rook) || pos.pieces(Queen)) return MaterialDraw::None;
    const Bitboard knights = pos.pieces(Knight), bishops = pos.pieces(Bishop);
    if (!knights) {
        // Only bishops: mate needs bishops on both square colours.
        if (!(bishops & kLightSquares) || !(bishops & ~kLightSquares)) return MaterialDraw::Dead;
        return MaterialDraw::None;
    }
    if (!bishops && popcount(knights) == 1) return MaterialDraw::Dead;
    if (!bishops && popcount(knights) == 2 &&
        (!pos.pieces(White, Knight) || !pos.pieces(Black, Knight)))
        return MaterialDraw::DrawnByClaim;
    return MaterialDraw::None;
}

GameStatus gameStatus(const Position& pos) {
    if (countLegalMoves(pos) == 0)
        return pos.inCheck() ? GameStatus::Checkmate : GameStatus::Stalemate;
    if (pos.isFiftyMoveDraw()) return GameStatus::FiftyMoveRule;
    if (pos.repetitionCount() >= 2) return GameStatus::ThreefoldRepetition;
    if (insufficientMaterial(pos) == MaterialDraw::Dead) return GameStatus::InsufficientMaterial;
    return GameStatus::Ongoing;
}

const char* toString(GameStatus status) {
    switch (status) {
    case GameStatus::Ongoing: return "ongoing";
    case GameStatus::Checkmate: return "checkmate";
    case GameStatus::Stalemate: return "stalemate";
    case GameStatus::FiftyMoveRule: return "fifty-move rule";
    case GameStatus::ThreefoldRepetition: return "threefold repetition";
    case GameStatus::InsufficientMaterial: return "insufficient material";
    }
    return "unknown";
}

} // namespace axon::chess

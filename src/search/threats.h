// SPDX-License-Identifier: GPL-3.0-or-later
// What the side not to move attacks, by the value of the cheapest attacker: the squares where a
// piece of the side to move can be taken by a pawn, by a minor piece or pawn, or by a rook or
// anything cheaper, and every square it attacks at all. The move picker's quiet stage orders by
// it (movepick.cpp): a piece attacked by a lesser one moves away first, and a quiet move that
// puts a piece where a lesser one takes it goes last; the butterfly history is bucketed by
// whether the whole map holds a move's from and to squares (search/history.h). The search
// computes it once per node, before the move loop, and keeps it on its stack.
#pragma once

#include "chess/position.h"

namespace axon::search {

struct Threats {
    Threats() = default;
    chess::Bitboard byPawn = 0;  // attacked by a pawn of the opponent
    chess::Bitboard byMinor = 0; // ...or by a knight or bishop
    chess::Bitboard byRook = 0;  // ...or by a rook
    chess::Bitboard all = 0;     // ...or by anything: queens and the king as well
    // The side to move's pieces attacked by a cheaper one: queens on byRook, rooks on byMinor,
    // knights and bishops on byPawn. Pawns and the king are never counted.
    chess::Bitboard threatened = 0;

    explicit Threats(const chess::Position& pos) {
        using namespace chess;
        const Color us = pos.sideToMove(), them = ~us;
        const Bitboard occupied = pos.pieces();
        byPawn = pawnAttacksOf(them, pos.pieces(them, Pawn));
        byMinor = byPawn;
        for (Bitboard b = pos.pieces(them, Knight); b;) byMinor |= knightAttacks(popLsb(b));
        for (Bitboard b = pos.pieces(them, Bishop); b;)
            byMinor |= bishopAttacks(popLsb(b), occupied);
        byRook = byMinor;
        for (Bitboard b = pos.pieces(them, Rook); b;) byRook |= rookAttacks(popLsb(b), occupied);
        all = byRook | kingAttacks(pos.kingSquare(them));
        for (Bitboard b = pos.pieces(them, Queen); b;) all |= queenAttacks(popLsb(b), occupied);
        threatened = (pos.pieces(us, Queen) & byRook) | (pos.pieces(us, Rook) & byMinor) |
                     (pos.pieces(us, Knight, Bishop) & byPawn);
    }

    // The quiet stage's adjustment for a quiet move of a piece of type `moved`, from the attack
    // maps alone (no SEE). A threatened piece that moves gains `escape`: 10/3 of it for a queen
    // going where no rook, minor or pawn attacks, else 5/3 for a rook going where no minor or pawn
    // attacks, else 1 for any piece going where no pawn attacks (Stockfish 15.1's chain, so a
    // queen hit by a rook that flees to a square only a bishop attacks still gains 1). A piece
    // that is not threatened loses `enPrise` when it goes where a cheaper piece attacks it: 3 for
    // a queen, 5/3 for a rook, 1 for a knight or bishop. Pawns and the king get nothing.
    int orderingAdjustment(chess::PieceType moved, chess::Square from, chess::Square to, int escape,
                           int enPrise) const {
        using namespace chess;
        const Bitboard target = squareBB(to);
        if (threatened & squareBB(from)) {
            if (moved == Queen && !(byRook & target)) return escape * 10 / 3;
            if (moved == Rook && !(byMinor & target)) return escape * 5 / 3;
            return byPawn & target ? 0 : escape;
        }
        switch (moved) {
        case Queen: return byRook & target ? -enPrise * 3 : 0;
        case Rook: return byMinor & target ? -enPrise * 5 / 3 : 0;
        case Knight:
        case Bishop: return byPawn & target ? -enPrise : 0;
        default: return 0;
        }
    }
};

} // namespace axon::search

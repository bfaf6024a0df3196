// SPDX-License-Identifier: GPL-3.0-or-later
// Static exchange evaluation by the swap algorithm with a threshold, x-rays included.
#include "chess/see.h"

namespace axon::chess {

bool Position::seeGe(Move m, int threshold) const {
    if (m.type() == MoveType::Castling || m.type() == MoveType::Promotion) return 0 >= threshold;

    const Square from = m.from(), to = m.to();
    // `swap` is what the side to move is ahead by, relative to the threshold, if the opponent
    // stops exchanging; each recapture flips the question.
    int swap = seeValue(capturedType(m)) - threshold;
    if (swap < 0) return false;
    swap = seeValue(typeOf(pieceOn(from))) - swap;
    if (swap <= 0) return true;

    Bitboard occupied = pieces() ^ squareBB(from) ^ squareBB(to);
    if (m.type() == MoveType::EnPassant) occupied ^= squareBB(to - pawnPush(m_sideToMove));
    Color stm = m_sideToMove;
    Bitboard attackers = attackersTo(to, occupied);
    const Bitboard diagonal = pieces(Bishop, Queen), orthogonal = pieces(Rook, Queen);
    bool result = true;

    while (true) {
        stm = ~stm;
        attackers &= occupied;
        const Bitboard stmAttackers = attackers & pieces(stm);
        if (!stmAttackers) break;
        result = !result;

        // Recapture with the least valuable attacker, then reveal x-ray attackers behind it.
        PieceType pt = Pawn;
        Bitboard bb = 0;
        for (; pt <= King; pt = PieceType(pt + 1))
            if ((bb = stmAttackers & pieces(pt))) break;
        if (pt == King)
            // The king may only recapture if nothing defends the square any more.
            return (attackers & ~pieces(stm)) ? !result : result;

        if ((swap = seeValue(pt) - swap) < int(result)) break;
        occupied ^= squareBB(lsb(bb));
        if (pt == Pawn || pt == Bishop || pt == Queen)
            attackers |= bishopAttacks(to, occupied) & diagonal;
        if (pt == Rook || pt == Queen) attackers |= rookAttacks(to, occupied) & orthogonal;
    }
    return result;
}

} // namespace axon::chess

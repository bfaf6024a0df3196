// SPDX-License-Identifier: GPL-3.0-or-later
// Legal move generation with check and pin masks. One template serves listing and counting:
// the sink either writes moves or adds up popcounts of target sets (perft's bulk counting).
#include "chess/movegen.h"

namespace axon::chess {

namespace {

class ListSink {
  public:
    explicit ListSink(Move* list) : m_cursor(list) {}
    Move* end() const { return m_cursor; }

    void add(Move m) { *m_cursor++ = m; }
    void addTargets(Square from, Bitboard targets) {
        while (targets) *m_cursor++ = Move(from, popLsb(targets));
    }
    template <int Delta>
    void addPawnMoves(Bitboard targets) {
        while (targets) {
            const Square to = popLsb(targets);
            *m_cursor++ = Move(to - Delta, to);
        }
    }
    template <int Delta>
    void addPromotions(Bitboard targets) {
        while (targets) {
            const Square to = popLsb(targets);
            for (PieceType pt : {Queen, Knight, Rook, Bishop})
                *m_cursor++ = Move(to - Delta, to, MoveType::Promotion, pt);
        }
    }

  private:
    Move* m_cursor;
};

class CountSink {
  public:
    int count() const { return m_count; }

    void add(Move) { ++m_count; }
    void addTargets(Square, Bitboard targets) { m_count += popcount(targets); }
    template <int>
    void addPawnMoves(Bitboard targets) {
        m_count += popcount(targets);
    }
    template <int>
    void addPromotions(Bitboard targets) {
        m_count += 4 * popcount(targets);
    }

  private:
    int m_count = 0;
};

// Every square `by` attacks, with `occ` as blockers (the defending king removed by the caller,
// so it cannot hide behind itself along a slider's ray).
template <Color By>
Bitboard attackedSquares(const Position& pos, Bitboard occ) {
    Bitboard attacked = pawnAttacksOf(By, pos.pieces(By, Pawn));
    attacked |= kingAttacks(pos.kingSquare(By));
    for (Bitboard b = pos.pieces(By, Knight); b;) attacked |= knightAttacks(popLsb(b));
    for (Bitboard b = pos.pieces(By, Bishop, Queen); b;) attacked |= bishopAttacks(popLsb(b), occ);
    for (Bitboard b = pos.pieces(By, Rook, Queen); b;) attacked |= rookAttacks(popLsb(b), occ);
    return attacked;
}

} // namespace

Bitboard attackedBy(const Position& pos, Color by) {
    return by == White ? attackedSquares<White>(pos, pos.pieces())
                       : attackedSquares<Black>(pos, pos.pieces());
}

namespace {

template <Color Us, GenType Type, typename Sink>
void generatePawnMoves(const Position& pos, Sink& sink, Bitboard checkMask) {
    constexpr Color Them = ~Us;
    constexpr Direction Up = Us == White ? North : South;
    constexpr Direction UpLeft = Us == White ? NorthWest : SouthEast;
    constexpr Direction UpRight = Us == White ? NorthEast : SouthWest;
    constexpr Bitboard Rank7 = relativeRankBB(Us, 6);
    constexpr Bitboard Rank3 = relativeRankBB(Us, 2);

    const Bitboard pinOrth = pos.pinOrthogonal(), pinDiag = pos.pinDiagonal();
    const Bitboard empty = ~pos.pieces();
    const Bitboard enemies = pos.pieces(Them);
    const Bitboard pawns = pos.pieces(Us, Pawn);
    // A pawn pinned diagonally can never push; one pinned orthogonally can never capture.
    // Pinned pawns that can move must stay on their pin ray.
    const Bitboard pushers = pawns & ~pinDiag;
    const Bitboard capturers = pawns & ~pinOrth;

    auto pushTargets = [&](Bitboard from) {
        return ((shift<Up>(from & ~pinOrth) & empty) |
                (shift<Up>(from & pinOrth) & empty & pinOrth));
    };
    auto captureTargets = [&]<Direction D>(Bitboard from) {
        return ((shift<D>(from & ~pinDiag)) | (shift<D>(from & pinDiag) & pinDiag)) & enemies;
    };

    if constexpr (Type != GenType::Noisy) {
        const Bitboard single = pushTargets(pushers & ~Rank7);
        const Bitboard dbl = shift<Up>(single & Rank3) & empty;
        sink.template addPawnMoves<Up>(single & checkMask);
        sink.template addPawnMoves<2 * Up>(dbl & checkMask);
    }
    if constexpr (Type != GenType::Quiet) {
        const Bitboard left = captureTargets.template operator()<UpLeft>(capturers & ~Rank7);
        const Bitboard right = captureTargets.template operator()<UpRight>(capturers & ~Rank7);
        sink.template addPawnMoves<UpLeft>(left & checkMask);
        sink.template addPawnMoves<UpRight>(right & checkMask);

        if (const Bitboard promoters = pawns & Rank7) {
            sink.template addPromotions<Up>(pushTargets(promoters & pushers) & checkMask);
            sink.template addPromotions<UpLeft>(
                captureTargets.template operator()<UpLeft>(promoters & capturers) & checkMask);
            sink.template addPromotions<UpRight>(
                captureTargets.template operator()<UpRight>(promoters & capturers) & checkMask);
        }

        if (const Square ep = pos.epSquare(); ep != NoSquare) {
            // Rare enough to verify each capture exactly (pins through two vacated squares,
            // checks by the captured pawn).
            for (Bitboard b = pawnAttacks(Them, ep) & pawns; b;) {
                const Square from = popLsb(b);
                if (pos.isLegalEnPassant(from)) sink.add(Move(from, ep, MoveType::EnPassant));
            }
        }
    }
}

template <Color Us, GenType Type, typename Sink>
void generateAll(const Position& pos, Sink& sink) {
    constexpr Color Them = ~Us;
    const Bitboard occ = pos.pieces();
    const Bitboard ours = pos.pieces(Us);
    const Square ksq = pos.kingSquare(Us);
    const Bitboard checkers = pos.checkers();

    const Bitboard typeMask = Type == GenType::Noisy   ? pos.pieces(Them)
                              : Type == GenType::Quiet ? ~occ
                                                       : ~ours;
    const Bitboard danger = attackedSquares<Them>(pos, occ ^ squareBB(ksq));
    sink.addTargets(ksq, kingAttacks(ksq) & typeMask & ~danger);

    if (moreThanOne(checkers)) return;
    const Bitboard checkMask = checkers ? between(ksq, lsb(checkers)) | checkers : kAll;
    const Bitboard targets = typeMask & checkMask;
    const Bitboard pinOrth = pos.pinOrthogonal(), pinDiag = pos.pinDiagonal();
    const Bitboard unpinned = ~(pinOrth | pinDiag);

    generatePawnMoves<Us, Type>(pos, sink, checkMask);

    for (Bitboard b = pos.pieces(Us, Knight) & unpinned; b;) {
        const Square from = popLsb(b);
        sink.addTargets(from, knightAttacks(from) & targets);
    }
    const Bitboard diagonals = pos.pieces(Us, Bishop, Queen);
    for (Bitboard b = diagonals & unpinned; b;) {
        const Square from = popLsb(b);
        sink.addTargets(from, bishopAttacks(from, occ) & targets);
    }
    for (Bitboard b = diagonals & pinDiag; b;) {
        const Square from = popLsb(b);
        sink.addTargets(from, bishopAttacks(from, occ) & targets & pinDiag);
    }
    const Bitboard orthogonals = pos.pieces(Us, Rook, Queen);
    for (Bitboard b = orthogonals & unpinned; b;) {
        const Square from = popLsb(b);
        sink.addTargets(from, rookAttacks(from, occ) & targets);
    }
    for (Bitboard b = orthogonals & pinOrth; b;) {
        const Square from = popLsb(b);
        sink.addTargets(from, rookAttacks(from, occ) & targets & pinOrth);
    }

    if constexpr (Type != GenType::Noisy) {
        if (!checkers && pos.castlingRights()) {
            for (bool kingSide : {true, false}) {
                const CastlingRights right = castlingRight(Us, kingSide);
                if (!pos.canCastle(right)) continue;
                if ((occ & pos.castlingEmptySquares(right)) ||
                    (danger & pos.castlingKingPath(right)))
                    continue;
                const Square rook = pos.castlingRookSquare(right);
                // Chess960: the castling rook itself may have shielded the king's destination.
                const Square kingTo = castlingKingTarget(Us, kingSide);
                if (pos.isAttacked(kingTo, Them, occ ^ squareBB(ksq) ^ squareBB(rook))) continue;
                sink.add(Move(ksq, rook, MoveType::Castling));
            }
        }
    }
}

template <GenType Type, typename Sink>
void dispatch(const Position& pos, Sink& sink) {
    if (pos.sideToMove() == White)
        generateAll<White, Type>(pos, sink);
    else
        generateAll<Black, Type>(pos, sink);
}

} // namespace

template <GenType Type>
Move* generate(const Position& pos, Move* list) {
    ListSink sink(list);
    dispatch<Type>(pos, sink);
    return sink.end();
}

template Move* generate<GenType::Noisy>(const Position&, Move*);
template Move* generate<GenType::Quiet>(const Position&, Move*);
template Move* generate<GenType::All>(const Position&, Move*);

int countLegalMoves(const Position& pos) {
    CountSink sink;
    dispatch<GenType::All>(pos, sink);
    return sink.count();
}

} // namespace axon::chess

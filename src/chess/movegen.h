// SPDX-License-Identifier: GPL-3.0-or-later
// Legal move generation: all moves, or the noisy / quiet halves the search stages through,
// and bulk counting for perft. Generated moves are always legal; in check they are evasions.
#pragma once

#include "chess/position.h"

namespace axon::chess {

enum class GenType {
    Noisy, // captures (en passant included) and all promotions
    Quiet, // everything else, castling included
    All
};

template <GenType Type>
Move* generate(const Position& pos, Move* list);

// The number of legal moves, counted without listing them.
int countLegalMoves(const Position& pos);

// Every square the side `by` attacks, with the board's pieces as blockers.
Bitboard attackedBy(const Position& pos, Color by);

template <GenType Type = GenType::All>
class MoveList {
  public:
    explicit MoveList(const Position& pos) : m_end(generate<Type>(pos, m_moves)) {}
    const Move* begin() const { return m_moves; }
    const Move* end() const { return m_end; }
    int size() const { return int(m_end - m_moves); }
    bool empty() const { return m_end == m_moves; }
    bool contains(Move m) const {
        for (const Move* it = m_moves; it != m_end; ++it)
            if (*it == m) return true;
        return false;
    }
    Move operator[](int i) const { return m_moves[i]; }

  private:
    Move m_moves[kMaxMoves];
    Move* m_end;
};

} // namespace axon::chess

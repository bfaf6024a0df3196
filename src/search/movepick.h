// SPDX-License-Identifier: GPL-3.0-or-later
// The staged move picker: hash move, good captures, killers, counter move, quiets by history
// (plus a bonus for checks and for a threatened piece moving away, search/threats.h), bad
// captures. Moves come from the legal generator, so every move returned is legal.
#pragma once

#include "chess/movegen.h"
#include "search/history.h"
#include "search/threats.h"

namespace axon::search {

struct OrderingTables {
    const ButterflyHistory* butterfly;
    const CaptureHistory* captures;
    // Continuation histories of the moves 1, 2, 4 and 6 plies back (null when absent).
    const PieceToHistory* continuations[4];
    // What the side not to move attacks (search/threats.h): the quiet stage's threat terms and
    // the butterfly history's bucket. Read only by quiet moves, so it may be null for a picker
    // that never reaches them: quiescence out of check, and ProbCut.
    const Threats* threats = nullptr;
};

class MovePicker {
  public:
    // Added to the quiet stage's ordering score of a quiet move that gives check.
    static constexpr int kQuietCheckBonus = kHistoryMax;

    // Main search: all stages. Killers and counter move may be none.
    MovePicker(const chess::Position& pos, chess::Move ttMove, chess::Move killer1,
               chess::Move killer2, chess::Move counter, const OrderingTables& tables);
    // Quiescence: hash move and noisy moves only (all evasions when in check).
    MovePicker(const chess::Position& pos, chess::Move ttMove, const OrderingTables& tables);

    // The next move, or Move::none() when exhausted.
    chess::Move next(bool skipQuiets = false);
    // A quiet move's history score (butterfly plus continuations), the key of the quiet stage;
    // the search reduces by it, killers and counter move included.
    int quietScore(chess::Move m) const;

  private:
    enum class Stage {
        TTMove,
        GenerateNoisy,
        GoodNoisy,
        Killer1,
        Killer2,
        Counter,
        GenerateQuiet,
        Quiet,
        BadNoisy,
        Done,
        // Quiescence stages.
        QTTMove,
        QGenerateNoisy,
        QNoisy,
        QGenerateEvasionQuiets,
        QEvasionQuiets
    };
    struct ScoredMove {
        chess::Move move;
        int score;
    };

    bool usable(chess::Move m) const;
    bool isSpecial(chess::Move m) const;
    void scoreNoisy(ScoredMove* begin, ScoredMove* end);
    void scoreQuiet(ScoredMove* begin, ScoredMove* end);
    // Selection of the best remaining move by partial sort (lazy: most nodes cut early).
    ScoredMove* pickBest(ScoredMove* begin, ScoredMove* end);

    const chess::Position& m_pos;
    OrderingTables m_tables;
    chess::Move m_ttMove, m_killer1, m_killer2, m_counter;
    Stage m_stage;
    // Uninitialised storage: a picker is built at every node and usually stops after a few
    // moves, so zero-filling 256 entries would cost more than the search of most nodes.
    alignas(ScoredMove) unsigned char m_storage[sizeof(ScoredMove) * chess::kMaxMoves];
    ScoredMove* const m_moves = reinterpret_cast<ScoredMove*>(m_storage);
    ScoredMove* m_cursor = m_moves;
    ScoredMove* m_end = m_moves;
    ScoredMove* m_badEnd = m_moves; // bad captures are kept at the front of m_moves
};

} // namespace axon::search

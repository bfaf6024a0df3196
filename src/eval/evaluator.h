// SPDX-License-Identifier: GPL-3.0-or-later
// The evaluation a search thread drives: the network through an incrementally updated
// accumulator stack, or the hand-written evaluation when no network is set. The search calls
// push/pop beside every make/unmake so the network's accumulators follow the tree.
#pragma once

#include <memory>
#include <vector>

#include "chess/position.h"
#include "nn/accumulator.h"
#include "nn/network.h"

namespace axon::nn {
class FloatModel;
}

namespace axon::eval {

// Where evaluations come from, shared read-only by every thread: a network (incremental), a
// float model (recomputed per position: a slow baseline for comparisons), or neither (the
// hand-written evaluation).
struct EvalSource {
    std::shared_ptr<const nn::Network> network;
    std::shared_ptr<const nn::FloatModel> floatModel;
    bool operator==(const EvalSource&) const = default;
};

class Evaluator {
  public:
    void setSource(const EvalSource& source);
    const EvalSource& source() const { return m_source; }

    // Starts at `root` (the accumulators of the root are computed now).
    void reset(const chess::Position& root) {
        if (m_stack) m_stack->reset(root);
    }
    // Before `before.makeMove(m)`.
    void push(const chess::Position& before, chess::Move m) {
        if (m_stack) m_stack->push(before, m);
    }
    void pushNull() {
        if (m_stack) m_stack->pushNull();
    }
    // After the matching unmake.
    void pop() {
        if (m_stack) m_stack->pop();
    }
    // Centipawns from the side to move's view; `pos` is the position after the pushes so far.
    int evaluate(const chess::Position& pos);

    // For tests: every network evaluation is recomputed from scratch and a difference aborts
    // the process, so a push/pop the search forgot cannot go unnoticed.
    static void setVerification(bool on);

  private:
    EvalSource m_source;
    std::unique_ptr<nn::AccumulatorStack> m_stack;
};

// One evaluation of `pos` by `source`, without incremental state (the `eval` command, tools).
int evaluateOnce(const EvalSource& source, const chess::Position& pos);

// What each piece adds to the static evaluation of a position (the analysis heat map,
// docs/eval-pieces.md): the evaluation of the position minus the evaluation of the same position,
// same side to move, without that piece. Both are evaluateOnce's numbers (clamped alike), in
// centipawns from White's point of view, so a positive value is a piece that helps White.
struct PieceContribution {
    chess::Square square = chess::NoSquare;
    chess::Piece piece = chess::NoPiece;
    int cp = 0;
    bool operator==(const PieceContribution&) const = default;
};

struct PieceContributions {
    int base = 0; // evaluateOnce of the position, White's view
    // Every piece except the two kings, a1 to h8.
    std::vector<PieceContribution> pieces;
};

// Kings are never removed (a board without one has no evaluation). Removals are evaluated as
// the boards they leave, legal or not: the network's inputs are only the pieces and the side to
// move, so a pinned piece taken off (its king then capturable by the side to move) or a checker
// taken off still gets the static evaluation of what remains, and a position in check is
// evaluated as it stands, as the `eval` command does; nothing is searched. With a network this
// costs one refresh of each perspective plus one row subtraction and one output layer per
// piece (nn::evaluateRemovals); a float model or the hand-written evaluation evaluates each
// board from scratch.
PieceContributions pieceContributions(const EvalSource& source, const chess::Position& pos);

} // namespace axon::eval

// SPDX-License-Identifier: GPL-3.0-or-later
// The accumulator stack the search drives on make/unmake: push() records a move's piece
// changes, pop() discards them, and evaluate() materialises only the accumulators actually
// needed, from the nearest computed ancestor or, when a king changed bucket or mirror side,
// from scratch. Positions never evaluated cost one record each.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "chess/position.h"
#include "nn/network.h"
#include "nn/simd.h"

namespace axon::nn {

// The piece changes one move makes: at most two removals and two additions (castling moves
// king and rook; a capture removes the victim; a promotion adds another piece than it removes).
struct DirtyPieces {
    struct Change {
        chess::Piece piece = chess::NoPiece;
        chess::Square square = chess::NoSquare;
    };
    std::array<Change, 2> added{}, removed{};
    int numAdded = 0, numRemoved = 0;
};

// The changes move m makes in `before` (m must be legal there).
DirtyPieces dirtyPieces(const chess::Position& before, chess::Move m);

struct AccumulatorStats {
    std::uint64_t refreshes = 0;       // one perspective computed from scratch (reset)
    std::uint64_t cachedRefreshes = 0; // one perspective rebuilt from the refresh cache
    std::uint64_t updates = 0;         // one perspective derived from its parent
};

template <typename Backend>
class BasicAccumulatorStack {
  public:
    // The network must outlive the stack; a stack is used by one thread.
    explicit BasicAccumulatorStack(const Network& net);

    // Starts over at `pos` (the search root); both perspectives are computed now.
    void reset(const chess::Position& pos);
    // Records move m about to be made in `before`, the position at the top of the stack.
    void push(const chess::Position& before, chess::Move m);
    void pushNull();
    void pop();
    int size() const { return m_top + 1; }

    // Evaluation in centipawns from the side to move's view; `pos` is the position at the top.
    int evaluate(const chess::Position& pos);
    // The top's accumulator for one perspective, materialised.
    const std::int16_t* accumulator(const chess::Position& pos, chess::Color perspective);

    const AccumulatorStats& stats() const { return m_stats; }

  private:
    struct Entry {
        DirtyPieces dirty;
        std::array<Orientation, chess::kNumColors> orientation;
        std::array<bool, chess::kNumColors> computed{};
    };

    std::int16_t* values(int index, chess::Color c) {
        return m_values.data() + (std::size_t(index) * 2 + c) * std::size_t(m_net->arch.hidden);
    }
    void materialise(const chess::Position& pos, chess::Color c);
    void refresh(const chess::Position& pos, chess::Color c, const Orientation& o,
                 std::int16_t* out);
    void refreshFromCache(const chess::Position& pos, chess::Color c, const Orientation& o,
                          std::int16_t* out);
    void grow();

    // The refresh cache ("finny table"): per perspective and orientation (king bucket, mirror
    // side), the accumulator of the board last refreshed there and that board's pieces. A
    // king crossing a boundary then costs the differences from that board, usually a few
    // pieces, instead of every piece.
    struct CacheEntry {
        std::array<chess::Bitboard, chess::kNumPieces> pieces{};
    };
    std::vector<CacheEntry> m_cache;
    std::vector<std::int16_t> m_cacheValues;

    const Network* m_net;
    std::vector<Entry> m_entries;
    std::vector<std::int16_t> m_values;
    int m_top = 0;
    AccumulatorStats m_stats;
};

using AccumulatorStack = BasicAccumulatorStack<simd::Native>;

// The network's evaluation of `pos` and of `pos` with each piece other than the kings taken off
// the board in turn, the same side to move (castling rights, en passant and legality are no
// inputs of the network, so every removal has an evaluation, even one that leaves a king in
// check with the other side to move). No king moves, so each perspective keeps its king bucket
// and mirror side: a removal is one feature row subtracted from each of the two accumulators of
// `pos`, then the output layer of the bucket one piece lighter (no refresh per removal).
// Centipawns from the side to move's view, unclamped, equal to evaluateReference of each board.
struct RemovalEvaluations {
    int base = 0; // `pos` itself
    // `pos` without the piece on each square; set only where a piece other than a king stands.
    std::array<int, chess::kNumSquares> without{};
};

template <typename Backend>
RemovalEvaluations evaluateRemovals(const Network& net, const chess::Position& pos);

// Evaluation without any SIMD vocabulary or incremental state: features summed in 64 bits and
// wrapped where the kernels wrap. The reference the tests hold every back end to.
int evaluateReference(const Network& net, const chess::Position& pos);

} // namespace axon::nn

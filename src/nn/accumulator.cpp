// SPDX-License-Identifier: GPL-3.0-or-later
// The accumulator stack: move deltas, lazy materialisation, refreshes; and the plain reference
// evaluation.
#include "nn/accumulator.h"

#include <algorithm>

#include "nn/kernels.h"
#include "nn/layer_stack.h"

namespace axon::nn {

using namespace chess;

DirtyPieces dirtyPieces(const Position& before, Move m) {
    DirtyPieces d;
    const Color us = before.sideToMove();
    const Square from = m.from(), to = m.to();
    const Piece piece = before.pieceOn(from);
    auto remove = [&](Piece p, Square s) { d.removed[d.numRemoved++] = {p, s}; };
    auto add = [&](Piece p, Square s) { d.added[d.numAdded++] = {p, s}; };

    if (m.type() == MoveType::Castling) {
        // The king "captures" its own rook; in Chess960 either may land where the other stood
        // or stay put, which the remove-then-add pairs express without special cases.
        const bool kingSide = to > from;
        remove(piece, from);
        remove(before.pieceOn(to), to);
        add(piece, castlingKingTarget(us, kingSide));
        add(makePiece(us, Rook), castlingRookTarget(us, kingSide));
        return d;
    }
    remove(piece, from);
    add(m.type() == MoveType::Promotion ? makePiece(us, m.promotion()) : piece, to);
    if (m.type() == MoveType::EnPassant)
        remove(makePiece(~us, Pawn), to - pawnPush(us));
    else if (!before.isEmpty(to))
        remove(before.pieceOn(to), to);
    return d;
}

namespace {

// out = the biases plus the rows of every piece of `pos` for perspective c seen as `o`, in one
// pass over the hidden units per batch (at most 32 pieces on a legal board; batches keep any
// board within the pointer array).
template <typename B>
void sumPieceRows(const Network& net, const Position& pos, Color c, const Orientation& o,
                  std::int16_t* out) {
    constexpr int kBatch = 32;
    const std::int16_t* rows[kBatch];
    const std::int16_t* src = net.ftBiases.data();
    int n = 0;
    for (Bitboard b = pos.pieces(); b; b &= b - 1) {
        const Square s = lsb(b);
        rows[n++] = net.ftRow(featureIndex(o, c, pos.pieceOn(s), s));
        if (n == kBatch) {
            kernels::updateRows<B>(out, src, rows, n, nullptr, 0, net.arch.hidden);
            src = out;
            n = 0;
        }
    }
    kernels::updateRows<B>(out, src, rows, n, nullptr, 0, net.arch.hidden);
}

// The output layer over the side to move's and the other side's accumulators, for a board of
// `pieceCount` pieces (which picks the output bucket).
template <typename B>
int outputOf(const Network& net, const std::int16_t* ours, const std::int16_t* theirs,
             int pieceCount) {
    const Architecture& a = net.arch;
    const int bucket = outputBucket(a, pieceCount);
    if (a.layered()) return layerStackOutput<B>(net, ours, theirs, bucket);
    const std::int16_t* w = net.outRow(bucket);
    const auto qa = std::int16_t(a.qa);
    const std::uint32_t sum =
        std::uint32_t(kernels::screluDot<B>(ours, w, a.hidden, qa)) +
        std::uint32_t(kernels::screluDot<B>(theirs, w + a.hidden, a.hidden, qa));
    return kernels::finishOutput(a, std::int32_t(sum), net.outBiases[bucket]);
}

} // namespace

template <typename B>
BasicAccumulatorStack<B>::BasicAccumulatorStack(const Network& net) : m_net(&net) {
    m_entries.resize(kMaxPly + 8);
    const auto hidden = std::size_t(net.arch.hidden);
    m_values.resize(m_entries.size() * 2 * hidden);
    // Every cache entry starts as the empty board: the biases.
    m_cache.resize(std::size_t(kNumColors) * std::size_t(net.arch.inputBuckets) * 2);
    m_cacheValues.resize(m_cache.size() * hidden);
    for (std::size_t i = 0; i < m_cache.size(); ++i)
        std::copy(net.ftBiases.begin(), net.ftBiases.end(), m_cacheValues.begin() + i * hidden);
}

template <typename B>
void BasicAccumulatorStack<B>::grow() {
    m_entries.resize(m_entries.size() * 2);
    m_values.resize(m_entries.size() * 2 * std::size_t(m_net->arch.hidden));
}

template <typename B>
void BasicAccumulatorStack<B>::refresh(const Position& pos, Color c, const Orientation& o,
                                       std::int16_t* out) {
    sumPieceRows<B>(*m_net, pos, c, o, out);
    ++m_stats.refreshes;
}

template <typename B>
void BasicAccumulatorStack<B>::refreshFromCache(const Position& pos, Color c, const Orientation& o,
                                                std::int16_t* out) {
    const int hidden = m_net->arch.hidden;
    const bool mirrored = (o.squareXor & 7) != 0;
    const std::size_t index =
        (std::size_t(c) * std::size_t(m_net->arch.inputBuckets) + std::size_t(o.bucket)) * 2 +
        mirrored;
    CacheEntry& entry = m_cache[index];
    std::int16_t* acc = m_cacheValues.data() + index * std::size_t(hidden);
    constexpr int kBatch = 32;
    const std::int16_t* adds[kBatch];
    const std::int16_t* subs[kBatch];
    int numAdds = 0, numSubs = 0;
    auto flush = [&] {
        kernels::updateRows<B>(acc, acc, adds, numAdds, subs, numSubs, hidden);
        numAdds = numSubs = 0;
    };
    for (int p = 0; p < kNumPieces; ++p) {
        const Piece piece = Piece(p);
        const Bitboard now = pos.pieces(colorOf(piece), typeOf(piece));
        for (Bitboard b = entry.pieces[p] & ~now; b; b &= b - 1) {
            subs[numSubs++] = m_net->ftRow(featureIndex(o, c, piece, lsb(b)));
            if (numSubs == kBatch) flush();
        }
        for (Bitboard b = now & ~entry.pieces[p]; b; b &= b - 1) {
            adds[numAdds++] = m_net->ftRow(featureIndex(o, c, piece, lsb(b)));
            if (numAdds == kBatch) flush();
        }
        entry.pieces[p] = now;
    }
    if (numAdds || numSubs) flush();
    std::copy(acc, acc + hidden, out);
    ++m_stats.cachedRefreshes;
}

template <typename B>
void BasicAccumulatorStack<B>::reset(const Position& pos) {
    m_top = 0;
    Entry& e = m_entries[0];
    e.dirty = {};
    for (const Color c : {White, Black}) {
        e.orientation[c] = orientation(m_net->arch, c, pos.kingSquare(c));
        refresh(pos, c, e.orientation[c], values(0, c));
        e.computed[c] = true;
    }
}

template <typename B>
void BasicAccumulatorStack<B>::push(const Position& before, Move m) {
    if (m_top + 1 == int(m_entries.size())) grow();
    const Entry& parent = m_entries[m_top];
    Entry& e = m_entries[++m_top];
    e.dirty = dirtyPieces(before, m);
    e.orientation = parent.orientation;
    e.computed = {false, false};
    const Color us = before.sideToMove();
    if (typeOf(before.movedPiece(m)) == King) {
        const Square kingTo =
            m.type() == MoveType::Castling ? castlingKingTarget(us, m.to() > m.from()) : m.to();
        e.orientation[us] = orientation(m_net->arch, us, kingTo);
    }
}

template <typename B>
void BasicAccumulatorStack<B>::pushNull() {
    if (m_top + 1 == int(m_entries.size())) grow();
    const Entry& parent = m_entries[m_top];
    Entry& e = m_entries[++m_top];
    e.dirty = {};
    e.orientation = parent.orientation;
    e.computed = {false, false};
}

template <typename B>
void BasicAccumulatorStack<B>::pop() {
    if (m_top > 0) --m_top;
}

template <typename B>
void BasicAccumulatorStack<B>::materialise(const Position& pos, Color c) {
    if (m_entries[m_top].computed[c]) return;
    const Orientation& o = m_entries[m_top].orientation[c];
    // The nearest computed ancestor reachable without crossing an orientation change: deltas
    // apply only between accumulators seen from the same king bucket and mirror side.
    int i = m_top;
    while (i > 0 && !m_entries[i].computed[c] && m_entries[i].orientation[c] == o) --i;
    if (!m_entries[i].computed[c] || !(m_entries[i].orientation[c] == o)) {
        refreshFromCache(pos, c, o, values(m_top, c));
        m_entries[m_top].computed[c] = true;
        return;
    }
    const int hidden = m_net->arch.hidden;
    for (int j = i + 1; j <= m_top; ++j) {
        const DirtyPieces& d = m_entries[j].dirty;
        const std::int16_t* adds[2];
        const std::int16_t* subs[2];
        for (int k = 0; k < d.numAdded; ++k)
            adds[k] = m_net->ftRow(featureIndex(o, c, d.added[k].piece, d.added[k].square));
        for (int k = 0; k < d.numRemoved; ++k)
            subs[k] = m_net->ftRow(featureIndex(o, c, d.removed[k].piece, d.removed[k].square));
        kernels::updateRows<B>(values(j, c), values(j - 1, c), adds, d.numAdded, subs, d.numRemoved,
                               hidden);
        m_entries[j].computed[c] = true;
        ++m_stats.updates;
    }
}

template <typename B>
const std::int16_t* BasicAccumulatorStack<B>::accumulator(const Position& pos, Color c) {
    materialise(pos, c);
    return values(m_top, c);
}

template <typename B>
int BasicAccumulatorStack<B>::evaluate(const Position& pos) {
    const Color us = pos.sideToMove();
    const std::int16_t* ours = accumulator(pos, us);
    const std::int16_t* theirs = accumulator(pos, ~us);
    return outputOf<B>(*m_net, ours, theirs, popcount(pos.pieces()));
}

template <typename B>
RemovalEvaluations evaluateRemovals(const Network& net, const Position& pos) {
    const auto hidden = std::size_t(net.arch.hidden);
    // Per colour: the accumulator of `pos`, and the one of the board without the current piece.
    std::vector<std::int16_t> buffer(4 * hidden);
    std::int16_t* full[kNumColors] = {buffer.data(), buffer.data() + hidden};
    std::int16_t* cut[kNumColors] = {buffer.data() + 2 * hidden, buffer.data() + 3 * hidden};
    Orientation o[kNumColors];
    for (const Color c : {White, Black}) {
        o[c] = orientation(net.arch, c, pos.kingSquare(c));
        sumPieceRows<B>(net, pos, c, o[c], full[c]);
    }
    const Color us = pos.sideToMove();
    const int pieceCount = popcount(pos.pieces());
    RemovalEvaluations out;
    out.base = outputOf<B>(net, full[us], full[~us], pieceCount);
    for (Bitboard b = pos.pieces() & ~pos.pieces(King); b; b &= b - 1) {
        const Square s = lsb(b);
        const Piece p = pos.pieceOn(s);
        for (const Color c : {White, Black}) {
            const std::int16_t* row = net.ftRow(featureIndex(o[c], c, p, s));
            kernels::updateRows<B>(cut[c], full[c], nullptr, 0, &row, 1, net.arch.hidden);
        }
        out.without[s] = outputOf<B>(net, cut[us], cut[~us], pieceCount - 1);
    }
    return out;
}

#define AXON_NN_INSTANTIATE(B)                                                                     \
    template class BasicAccumulatorStack<B>;                                                       \
    template RemovalEvaluations evaluateRemovals<B>(const Network&, const Position&);
AXON_NN_INSTANTIATE(simd::Scalar)
#if defined(AXON_NN_HAS_AVX512)
AXON_NN_INSTANTIATE(simd::Avx512)
#endif
#if defined(AXON_NN_HAS_AVX2)
AXON_NN_INSTANTIATE(simd::Avx2)
#endif
#if defined(AXON_NN_HAS_SSE41)
AXON_NN_INSTANTIATE(simd::Sse41)
#endif
#if defined(AXON_NN_HAS_NEON)
AXON_NN_INSTANTIATE(simd::Neon)
#endif
#if defined(AXON_NN_HAS_SIMD128)
AXON_NN_INSTANTIATE(simd::Simd128)
#endif
#undef AXON_NN_INSTANTIATE

int evaluateReference(const Network& net, const Position& pos) {
    const Architecture& a = net.arch;
    const Color stm = pos.sideToMove();
    const int bucket = outputBucket(a, popcount(pos.pieces()));
    if (a.layered()) {
        std::vector<std::int16_t> acc[kNumColors];
        for (const Color c : {White, Black}) {
            const Orientation o = orientation(a, c, pos.kingSquare(c));
            acc[c].resize(std::size_t(a.hidden));
            for (int h = 0; h < a.hidden; ++h) {
                std::int64_t v = net.ftBiases[std::size_t(h)];
                for (Bitboard b = pos.pieces(); b; b &= b - 1) {
                    const Square s = lsb(b);
                    v += net.ftRow(featureIndex(o, c, pos.pieceOn(s), s))[h];
                }
                acc[c][std::size_t(h)] = std::int16_t(std::uint16_t(v)); // int16 accumulator
            }
        }
        return layerStackReference(net, acc[stm].data(), acc[~stm].data(), bucket);
    }
    std::uint64_t sum = 0; // wrapped to 32 bits at the end, as the kernels wrap
    for (const Color c : {stm, ~stm}) {
        const Orientation o = orientation(a, c, pos.kingSquare(c));
        const std::size_t offset = c == stm ? 0 : std::size_t(a.hidden);
        for (int h = 0; h < a.hidden; ++h) {
            std::int64_t acc = net.ftBiases[h];
            for (Bitboard b = pos.pieces(); b; b &= b - 1) {
                const Square s = lsb(b);
                acc += net.ftRow(featureIndex(o, c, pos.pieceOn(s), s))[h];
            }
            const auto wrapped = std::int16_t(std::uint16_t(acc)); // int16 accumulator
            const std::int64_t v = wrapped < 0 ? 0 : wrapped > a.qa ? a.qa : wrapped;
            sum += std::uint64_t(v * v * net.outRow(bucket)[offset + std::size_t(h)]);
        }
    }
    return kernels::finishOutput(a, std::int32_t(std::uint32_t(sum)), net.outBiases[bucket]);
}

} // namespace axon::nn

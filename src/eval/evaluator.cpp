// SPDX-License-Identifier: GPL-3.0-or-later
// Choosing between the network and the hand-written evaluation per search thread.
#include "eval/evaluator.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "chess/fen.h"
#include "eval/evaluate.h"
#include "nn/float_model.h"

namespace axon::eval {

namespace {

// A static evaluation must stay clear of the search's mate scores (above 30000) whatever a
// network outputs.
constexpr int kMaxEval = 29000;
int clampEval(int cp) { return std::clamp(cp, -kMaxEval, kMaxEval); }

std::atomic<bool> g_verify{false};

void verifyIncremental(const nn::Network& net, const chess::Position& pos, int incremental) {
    const int reference = nn::evaluateReference(net, pos);
    if (reference == incremental) return;
    std::fprintf(stderr, "axon: incremental evaluation %d differs from the reference %d at %s\n",
                 incremental, reference, chess::toFen(pos).c_str());
    std::abort();
}

} // namespace

void Evaluator::setSource(const EvalSource& source) {
    if (source == m_source && (m_stack || !source.network)) return;
    m_source = source;
    m_stack = source.network ? std::make_unique<nn::AccumulatorStack>(*source.network) : nullptr;
}

void Evaluator::setVerification(bool on) { g_verify.store(on); }

int Evaluator::evaluate(const chess::Position& pos) {
    if (!m_stack) return evaluateOnce(m_source, pos);
    const int cp = m_stack->evaluate(pos);
    if (g_verify.load(std::memory_order_relaxed)) verifyIncremental(*m_source.network, pos, cp);
    return clampEval(cp);
}

int evaluateOnce(const EvalSource& source, const chess::Position& pos) {
    if (source.floatModel) return clampEval(int(source.floatModel->evaluate(pos)));
    if (!source.network) return eval::evaluate(pos);
    nn::AccumulatorStack stack(*source.network);
    stack.reset(pos);
    return clampEval(stack.evaluate(pos));
}

namespace {

// The board of `pos` without the piece on `s`, the same side to move (castling rights and en
// passant dropped: no evaluation reads them).
chess::Position withoutPiece(const chess::Position& pos, chess::Square s) {
    chess::Position out;
    out.clear();
    for (chess::Bitboard b = pos.pieces() & ~chess::squareBB(s); b; b &= b - 1) {
        const chess::Square from = chess::lsb(b);
        out.putPiece(pos.pieceOn(from), from);
    }
    out.setSideToMove(pos.sideToMove());
    out.finishSetup();
    return out;
}

} // namespace

PieceContributions pieceContributions(const EvalSource& source, const chess::Position& pos) {
    const int sign = pos.sideToMove() == chess::White ? 1 : -1;
    PieceContributions out;
    const chess::Bitboard removable = pos.pieces() & ~pos.pieces(chess::King);
    out.pieces.reserve(std::size_t(chess::popcount(removable)));
    if (source.network && !source.floatModel) {
        const nn::RemovalEvaluations r =
            nn::evaluateRemovals<nn::simd::Native>(*source.network, pos);
        out.base = sign * clampEval(r.base);
        for (chess::Bitboard b = removable; b; b &= b - 1) {
            const chess::Square s = chess::lsb(b);
            out.pieces.push_back({s, pos.pieceOn(s), out.base - sign * clampEval(r.without[s])});
        }
        return out;
    }
    out.base = sign * evaluateOnce(source, pos);
    for (chess::Bitboard b = removable; b; b &= b - 1) {
        const chess::Square s = chess::lsb(b);
        const int without = sign * evaluateOnce(source, withoutPiece(pos, s));
        out.pieces.push_back({s, pos.pieceOn(s), out.base - without});
    }
    return out;
}

} // namespace axon::eval

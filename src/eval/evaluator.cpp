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

} // namespace axon::eval

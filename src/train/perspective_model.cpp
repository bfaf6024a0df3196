// SPDX-License-Identifier: GPL-3.0-or-later
// Forward and backward passes of the perspective network for training. Only the rows of the
// active features are read and written; loops over the hidden layer are written so the
// compiler vectorises them (dot products keep kLanes partial sums, since float addition may
// not be reordered otherwise).
#include "train/perspective_model.h"

#include <algorithm>
#include <cmath>

#include "util/prng.h"

namespace axon::train {

namespace {

constexpr int kLanes = 16;
static_assert(nn::kHiddenMultiple % kLanes == 0);

inline void addRow(float* __restrict acc, const float* __restrict row, int h) {
    for (int i = 0; i < h; ++i) acc[i] += row[i];
}

// One perspective's output-weight gradient and the gradient reaching its accumulator:
// d screlu(a) / da = 2a inside (0, 1) and zero where clipped (x = clamp(a, 0, 1) is zero below,
// so only the upper clip needs a test). Separate pointers, so the compiler can vectorise.
inline void backwardHidden(float d, const float* __restrict acc, const float* __restrict w,
                           float* __restrict gw, float* __restrict dAcc, int h) {
    for (int i = 0; i < h; ++i) {
        const float x = std::clamp(acc[i], 0.0f, 1.0f);
        gw[i] += d * x * x;
        dAcc[i] = acc[i] < 1.0f ? 2.0f * d * w[i] * x : 0.0f;
    }
}

float uniform(util::Prng& rng, float bound) {
    const double u = double(rng.next() >> 11) * 0x1.0p-53; // [0, 1)
    return float((2.0 * u - 1.0) * bound);
}

} // namespace

PerspectiveModel::PerspectiveModel(const nn::Architecture& arch, float clip) : m_arch(arch) {
    const float ftClip = std::min(clip, nn::maxFeatureWeight(arch));
    const float outClip = std::min(clip, nn::maxOutputWeight(arch));
    const std::size_t h = std::size_t(arch.hidden);
    const auto ob = std::size_t(arch.outputBuckets);
    m_layout.add("ft.weights", arch.inputCount(), h, ftClip, true);
    m_layout.add("ft.biases", 1, h, ftClip);
    if (!arch.layered()) {
        m_layout.add("out.weights", ob, 2 * h, outClip);
        // The output bias is quantised to 32 bits: no practical limit.
        m_layout.add("out.biases", 1, ob, 0.0f);
        return;
    }
    // The stack's first-layer weights are 8-bit at 1/64, the later ones 16-bit at 1/1024
    // (nn/layer_stack.h), and every unit's sums must fit in 32 bits
    // (nn::checkLayerStackBounds): the first layer's weights are clipped like the feature
    // transformer's (1.98, within 127/64); a later unit's weights to 60/inputs each and its
    // bias to 3.5, so |weights| summed plus |bias| stays below 64.
    const auto l1 = std::size_t(arch.l1), l2 = std::size_t(arch.l2);
    auto laterClip = [&](std::size_t fanIn) {
        return std::min({clip, nn::maxLayerWeight(), 60.0f / float(fanIn)});
    };
    m_layout.add("out.weights", ob, l2, laterClip(l2));
    m_layout.add("out.biases", 1, ob, 3.5f);
    m_layout.add("l1.weights", ob * l1, h, std::min(clip, nn::maxL1Weight()));
    m_layout.add("l1.biases", ob, l1, 64.0f);
    m_layout.add("l2.weights", ob * l2, l1, laterClip(l1));
    m_layout.add("l2.biases", ob, l2, 3.5f);
}

std::size_t PerspectiveModel::scratchFloats() const {
    const std::size_t h = std::size_t(m_arch.hidden);
    if (!m_arch.layered()) return 4 * h;
    return 4 * h + StackActivations::floatsNeeded(stackShape()) +
           std::size_t(m_arch.l1 + m_arch.l2);
}

template <typename T>
StackSlices<T> PerspectiveModel::stackSlices(T* base, int bucket) const {
    const auto b = std::size_t(bucket), h = std::size_t(m_arch.hidden);
    const auto l1 = std::size_t(m_arch.l1), l2 = std::size_t(m_arch.l2);
    auto seg = [&](std::size_t i) { return base + m_layout.segments[i].offset; };
    return {seg(kL1Weights) + b * l1 * h, seg(kL1Biases) + b * l1,   seg(kL2Weights) + b * l2 * l1,
            seg(kL2Biases) + b * l2,      seg(kOutWeights) + b * l2, seg(kOutBiases) + b};
}

// After the two accumulators and their two gradients (4 x hidden floats).
StackActivations PerspectiveModel::stackActivations(float* scratch) const {
    const auto h = std::size_t(m_arch.hidden), l1 = std::size_t(m_arch.l1),
               l2 = std::size_t(m_arch.l2);
    float* x = scratch + 4 * h;
    return {x, x + h, x + h + l1, x + h + 2 * l1, x + h + 2 * l1 + l2};
}

void PerspectiveModel::initialise(std::span<float> params, std::uint64_t seed) const {
    util::Prng rng(seed ^ 0x3C6EF372FE94F82BULL);
    std::fill(params.begin(), params.end(), 0.0f);
    // About kMaxActive features are active: their sum then has a spread of order one, the
    // range where SCReLU is neither flat nor clipped.
    const Segment& ft = m_layout.segments[kFtWeights];
    const float ftBound = 1.0f / std::sqrt(float(kMaxActive));
    for (std::size_t i = 0; i < ft.size(); ++i) params[ft.offset + i] = uniform(rng, ftBound);
    // Each dense layer uniform in +-1/sqrt(its inputs), as PyTorch's and bullet's defaults.
    auto dense = [&](std::size_t segment, int inputs) {
        const Segment& seg = m_layout.segments[segment];
        const float bound = 1.0f / std::sqrt(float(inputs));
        for (std::size_t i = 0; i < seg.size(); ++i) params[seg.offset + i] = uniform(rng, bound);
    };
    if (!m_arch.layered()) {
        dense(kOutWeights, 2 * m_arch.hidden);
        return;
    }
    dense(kL1Weights, m_arch.hidden);
    dense(kL2Weights, m_arch.l1);
    dense(kOutWeights, m_arch.l2);
}

float PerspectiveModel::forward(const Sample& s, const float* params, float* scratch) const {
    const int h = m_arch.hidden;
    float* accUs = scratch;
    float* accThem = scratch + h;
    const float* ft = params + m_layout.segments[kFtWeights].offset;
    const float* bias = params + m_layout.segments[kFtBiases].offset;
    // Row by row into the accumulators (in L1): the same additions in the same order as a
    // register-blocked loop, and GCC vectorises this form where it left the blocked one scalar
    // (58 % of a training profile in scalar vaddss before, 2026-12-07).
    std::copy_n(bias, h, accUs);
    std::copy_n(bias, h, accThem);
    for (int k = 0; k < s.count; ++k) {
        addRow(accUs, ft + std::size_t(s.features[0][k]) * std::size_t(h), h);
        addRow(accThem, ft + std::size_t(s.features[1][k]) * std::size_t(h), h);
    }
    if (m_arch.layered()) {
        StackActivations act = stackActivations(scratch);
        return stackForward(stackShape(), stackSlices(params, s.bucket), accUs, accThem, act);
    }
    const float* w =
        params + m_layout.segments[kOutWeights].offset + std::size_t(s.bucket) * 2 * std::size_t(h);
    float lanes[kLanes] = {};
    for (int i = 0; i < h; i += kLanes)
        for (int j = 0; j < kLanes; ++j) {
            const float x = std::clamp(accUs[i + j], 0.0f, 1.0f);
            const float y = std::clamp(accThem[i + j], 0.0f, 1.0f);
            lanes[j] += x * x * w[i + j] + y * y * w[h + i + j];
        }
    float out = params[m_layout.segments[kOutBiases].offset + s.bucket];
    for (int j = 0; j < kLanes; ++j) out += lanes[j];
    return out;
}

float PerspectiveModel::output(const Sample& sample, const float* params,
                               std::vector<float>& scratch) const {
    if (scratch.size() < scratchFloats()) scratch.resize(scratchFloats());
    return forward(sample, params, scratch.data());
}

double PerspectiveModel::accumulate(std::span<const Sample> samples, const float* params,
                                    Gradients& grad, const LossConfig& loss, float gradScale,
                                    std::vector<float>& scratch) const {
    const int h = m_arch.hidden;
    const std::size_t hs = std::size_t(h);
    if (scratch.size() < scratchFloats()) scratch.resize(scratchFloats());
    float* __restrict accUs = scratch.data();
    float* __restrict accThem = accUs + hs;
    float* __restrict dUs = accThem + hs;
    float* __restrict dThem = dUs + hs;
    float* g = grad.values.data();
    float* gFt = g + m_layout.segments[kFtWeights].offset;
    float* __restrict gBias = g + m_layout.segments[kFtBiases].offset;
    std::uint8_t* touched = grad.touched.data();
    double lossSum = 0;
    for (const Sample& s : samples) {
        const float out = forward(s, params, scratch.data());
        const LossValue lv = lossAndGradient(loss, out, lossTarget(loss, s.score, s.result));
        lossSum += lv.loss;
        const float d = lv.gradient * gradScale;
        if (m_arch.layered()) {
            StackGrads sg = stackSlices(g, s.bucket);
            const StackActivations act = stackActivations(scratch.data());
            stackBackward(stackShape(), stackSlices(params, s.bucket), accUs, accThem, act, d, sg,
                          dUs, dThem, act.y2 + m_arch.l2);
        } else {
            g[m_layout.segments[kOutBiases].offset + s.bucket] += d;
            const std::size_t wOffset = std::size_t(s.bucket) * 2 * hs;
            const float* __restrict w = params + m_layout.segments[kOutWeights].offset + wOffset;
            float* __restrict gw = g + m_layout.segments[kOutWeights].offset + wOffset;
            backwardHidden(d, accUs, w, gw, dUs, h);
            backwardHidden(d, accThem, w + h, gw + h, dThem, h);
        }
        addRow(gBias, dUs, h);
        addRow(gBias, dThem, h);
        for (int k = 0; k < s.count; ++k) {
            const std::uint16_t fu = s.features[0][k], ft = s.features[1][k];
            addRow(gFt + std::size_t(fu) * hs, dUs, h);
            addRow(gFt + std::size_t(ft) * hs, dThem, h);
            touched[fu] = 1;
            touched[ft] = 1;
        }
    }
    return lossSum;
}

nn::FloatNetwork PerspectiveModel::toFloatNetwork(std::span<const float> params) const {
    nn::FloatNetwork net = nn::FloatNetwork::zeros(m_arch);
    auto copy = [&](std::size_t seg, std::vector<float>& to) {
        const Segment& s = m_layout.segments[seg];
        std::copy_n(params.begin() + std::ptrdiff_t(s.offset), s.size(), to.begin());
    };
    copy(kFtWeights, net.ftWeights);
    copy(kFtBiases, net.ftBiases);
    copy(kOutWeights, net.outWeights);
    copy(kOutBiases, net.outBiases);
    if (m_arch.layered()) {
        copy(kL1Weights, net.l1Weights);
        copy(kL1Biases, net.l1Biases);
        copy(kL2Weights, net.l2Weights);
        copy(kL2Biases, net.l2Biases);
    }
    return net;
}

void PerspectiveModel::fromFloatNetwork(const nn::FloatNetwork& net,
                                        std::span<float> params) const {
    auto copy = [&](std::size_t seg, const std::vector<float>& from) {
        std::copy(from.begin(), from.end(),
                  params.begin() + std::ptrdiff_t(m_layout.segments[seg].offset));
    };
    copy(kFtWeights, net.ftWeights);
    copy(kFtBiases, net.ftBiases);
    copy(kOutWeights, net.outWeights);
    copy(kOutBiases, net.outBiases);
    if (m_arch.layered()) {
        copy(kL1Weights, net.l1Weights);
        copy(kL1Biases, net.l1Biases);
        copy(kL2Weights, net.l2Weights);
        copy(kL2Biases, net.l2Biases);
    }
}

} // namespace axon::train

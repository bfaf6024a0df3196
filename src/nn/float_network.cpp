// SPDX-License-Identifier: GPL-3.0-or-later
// Quantisation between the float and integer perspective networks, and a float evaluator.
#include "nn/float_network.h"

#include <algorithm>
#include <cmath>

#include "nn/layer_stack.h"

namespace axon::nn {

using namespace chess;

FloatNetwork FloatNetwork::zeros(const Architecture& arch) {
    FloatNetwork f;
    f.arch = arch;
    f.ftWeights.assign(arch.ftWeightCount(), 0.0f);
    f.ftBiases.assign(std::size_t(arch.hidden), 0.0f);
    f.outWeights.assign(arch.outWeightCount(), 0.0f);
    f.outBiases.assign(std::size_t(arch.outputBuckets), 0.0f);
    f.l1Weights.assign(arch.l1WeightCount(), 0.0f);
    f.l1Biases.assign(arch.l1BiasCount(), 0.0f);
    f.l2Weights.assign(arch.l2WeightCount(), 0.0f);
    f.l2Biases.assign(arch.l2BiasCount(), 0.0f);
    return f;
}

bool FloatNetwork::sizesMatch() const {
    return ftWeights.size() == arch.ftWeightCount() &&
           ftBiases.size() == std::size_t(arch.hidden) &&
           outWeights.size() == arch.outWeightCount() &&
           outBiases.size() == std::size_t(arch.outputBuckets) &&
           l1Weights.size() == arch.l1WeightCount() && l1Biases.size() == arch.l1BiasCount() &&
           l2Weights.size() == arch.l2WeightCount() && l2Biases.size() == arch.l2BiasCount();
}

float maxFeatureWeight(const Architecture& arch) { return 32767.0f / float(arch.qa); }

float maxOutputWeight(const Architecture& arch) { return float(32767 / arch.qa) / float(arch.qb); }

float maxLayerWeight() { return 32767.0f / float(kLayerWeightScale); }

float maxL1Weight() { return 127.0f / float(kL1WeightScale); }

namespace {

template <typename Int>
Int roundClamped(float x, double scale, double limit) {
    const double v = std::clamp(std::nearbyint(double(x) * scale), -limit, limit);
    return Int(v);
}

template <typename Int>
std::vector<Int> quantised(const std::vector<float>& from, double scale, double limit) {
    std::vector<Int> to(from.size());
    for (std::size_t i = 0; i < from.size(); ++i) to[i] = roundClamped<Int>(from[i], scale, limit);
    return to;
}

template <typename Int>
std::vector<float> dequantised(const std::vector<Int>& from, double scale) {
    std::vector<float> to(from.size());
    for (std::size_t i = 0; i < from.size(); ++i) to[i] = float(double(from[i]) / scale);
    return to;
}

// Calls f(index in FloatNetwork's unit-row layout, index in Network's quad-interleaved one) for
// every first-layer weight.
template <typename F>
void forEachL1Weight(const Architecture& a, F f) {
    std::size_t natural = 0;
    for (int b = 0; b < a.outputBuckets; ++b)
        for (int j = 0; j < a.l1; ++j)
            for (int i = 0; i < a.hidden; ++i) f(natural++, l1WeightIndex(a, b, j, i));
}

// The stack's units (layer_stack.h): weights; the second layer's and the output's biases.
constexpr double kW = kLayerWeightScale;
constexpr double kL1W = kL1WeightScale;
constexpr double kUnit = double(kLayerActivationScale);

} // namespace

Network quantise(const FloatNetwork& f) {
    const Architecture& a = f.arch;
    Network n;
    n.arch = a;
    const float qa = float(a.qa), qb = float(a.qb);
    const double outLimit = double(32767 / a.qa);
    n.ftWeights.resize(f.ftWeights.size());
    for (std::size_t i = 0; i < f.ftWeights.size(); ++i)
        n.ftWeights[i] = roundClamped<std::int16_t>(f.ftWeights[i], qa, 32767);
    n.ftBiases.resize(f.ftBiases.size());
    for (std::size_t i = 0; i < f.ftBiases.size(); ++i)
        n.ftBiases[i] = roundClamped<std::int16_t>(f.ftBiases[i], qa, 32767);
    n.outWeights.resize(f.outWeights.size());
    for (std::size_t i = 0; i < f.outWeights.size(); ++i)
        n.outWeights[i] = roundClamped<std::int16_t>(f.outWeights[i], qb, outLimit);
    n.outBiases.resize(f.outBiases.size());
    for (std::size_t i = 0; i < f.outBiases.size(); ++i)
        n.outBiases[i] = roundClamped<std::int32_t>(f.outBiases[i], qa * qb, 2.0e9);
    if (a.layered()) {
        // Rows per unit here, interleaved by input quad there (layer_stack.h).
        const std::vector<std::int8_t> rows = quantised<std::int8_t>(f.l1Weights, kL1W, 127);
        n.l1Weights.resize(rows.size());
        forEachL1Weight(a, [&](std::size_t natural, std::size_t packed) {
            n.l1Weights[packed] = rows[natural];
        });
        n.l1Biases = quantised<std::int32_t>(f.l1Biases, layerStackL1Scale(a), 2.0e9);
        // Input-major here, pair-interleaved there (layer_stack.h).
        const std::vector<std::int16_t> l2 = quantised<std::int16_t>(f.l2Weights, kW, 32767);
        n.l2Weights.resize(l2.size());
        forEachL2Weight(
            a, [&](std::size_t natural, std::size_t packed) { n.l2Weights[packed] = l2[natural]; });
        n.l2Biases = quantised<std::int32_t>(f.l2Biases, kUnit, 2.0e9);
        n.outWeights = quantised<std::int16_t>(f.outWeights, kW, 32767);
        n.outBiases = quantised<std::int32_t>(f.outBiases, kUnit, 2.0e9);
    }
    return n;
}

FloatNetwork dequantise(const Network& n) {
    const Architecture& a = n.arch;
    FloatNetwork f;
    f.arch = a;
    const float qa = float(a.qa), qb = float(a.qb);
    f.ftWeights.resize(n.ftWeights.size());
    for (std::size_t i = 0; i < n.ftWeights.size(); ++i) f.ftWeights[i] = n.ftWeights[i] / qa;
    f.ftBiases.resize(n.ftBiases.size());
    for (std::size_t i = 0; i < n.ftBiases.size(); ++i) f.ftBiases[i] = n.ftBiases[i] / qa;
    f.outWeights.resize(n.outWeights.size());
    for (std::size_t i = 0; i < n.outWeights.size(); ++i) f.outWeights[i] = n.outWeights[i] / qb;
    f.outBiases.resize(n.outBiases.size());
    for (std::size_t i = 0; i < n.outBiases.size(); ++i)
        f.outBiases[i] = float(double(n.outBiases[i]) / (double(qa) * qb));
    if (a.layered()) {
        const std::vector<float> packed = dequantised(n.l1Weights, kL1W);
        f.l1Weights.resize(packed.size());
        forEachL1Weight(
            a, [&](std::size_t natural, std::size_t p) { f.l1Weights[natural] = packed[p]; });
        f.l1Biases = dequantised(n.l1Biases, layerStackL1Scale(a));
        const std::vector<float> l2 = dequantised(n.l2Weights, kW);
        f.l2Weights.resize(l2.size());
        forEachL2Weight(a,
                        [&](std::size_t natural, std::size_t p) { f.l2Weights[natural] = l2[p]; });
        f.l2Biases = dequantised(n.l2Biases, kUnit);
        f.outWeights = dequantised(n.outWeights, kW);
        f.outBiases = dequantised(n.outBiases, kUnit);
    }
    return f;
}

float evaluateFloatStack(const FloatNetwork& f, const float* ours, const float* theirs,
                         int bucket) {
    const Architecture& a = f.arch;
    const auto h = std::size_t(a.hidden), half = h / 2, b = std::size_t(bucket);
    const auto l1 = std::size_t(a.l1), l2 = std::size_t(a.l2);
    auto clip = [](double x) { return std::clamp(x, 0.0, 1.0); };
    std::vector<double> x(h);
    for (std::size_t i = 0; i < half; ++i) {
        x[i] = clip(ours[i]) * clip(ours[i + half]);
        x[half + i] = clip(theirs[i]) * clip(theirs[i + half]);
    }
    std::vector<double> y1(l1), y2(l2);
    for (std::size_t j = 0; j < l1; ++j) {
        double s = f.l1Biases[b * l1 + j];
        for (std::size_t i = 0; i < h; ++i) s += f.l1Weights[(b * l1 + j) * h + i] * x[i];
        y1[j] = clip(s);
    }
    for (std::size_t k = 0; k < l2; ++k) {
        double s = f.l2Biases[b * l2 + k];
        for (std::size_t j = 0; j < l1; ++j) s += f.l2Weights[(b * l1 + j) * l2 + k] * y1[j];
        y2[k] = clip(s);
    }
    double out = f.outBiases[b];
    for (std::size_t k = 0; k < l2; ++k) out += f.outWeights[b * l2 + k] * y2[k];
    return float(out * a.scale);
}

float evaluateFloat(const FloatNetwork& f, const Position& pos) {
    const Architecture& a = f.arch;
    const int h = a.hidden;
    std::vector<float> acc[2];
    for (Color c : {White, Black}) {
        acc[c] = f.ftBiases;
        const Orientation o = orientation(a, c, pos.kingSquare(c));
        for (Bitboard b = pos.pieces(); b; b &= b - 1) {
            const Square s = Square(__builtin_ctzll(b));
            const float* row = f.ftWeights.data() +
                               std::size_t(featureIndex(o, c, pos.pieceOn(s), s)) * std::size_t(h);
            for (int i = 0; i < h; ++i) acc[c][std::size_t(i)] += row[i];
        }
    }
    const int bucket = outputBucket(a, __builtin_popcountll(pos.pieces()));
    const Color us = pos.sideToMove();
    if (a.layered()) return evaluateFloatStack(f, acc[us].data(), acc[~us].data(), bucket);
    const float* w = f.outWeights.data() + std::size_t(bucket) * 2 * std::size_t(h);
    double out = f.outBiases[std::size_t(bucket)];
    for (int i = 0; i < h; ++i) {
        const float x = std::clamp(acc[us][std::size_t(i)], 0.0f, 1.0f);
        const float y = std::clamp(acc[~us][std::size_t(i)], 0.0f, 1.0f);
        out += double(x * x * w[i]) + double(y * y * w[h + i]);
    }
    return float(out * a.scale);
}

} // namespace axon::nn

// SPDX-License-Identifier: GPL-3.0-or-later
// Quantisation between the float and int16 perspective networks, and a float evaluator.
#include "nn/float_network.h"

#include <algorithm>
#include <cmath>

namespace axon::nn {

using namespace chess;

FloatNetwork FloatNetwork::zeros(const Architecture& arch) {
    FloatNetwork f;
    f.arch = arch;
    f.ftWeights.assign(arch.ftWeightCount(), 0.0f);
    f.ftBiases.assign(std::size_t(arch.hidden), 0.0f);
    f.outWeights.assign(arch.outWeightCount(), 0.0f);
    f.outBiases.assign(std::size_t(arch.outputBuckets), 0.0f);
    return f;
}

bool FloatNetwork::sizesMatch() const {
    return ftWeights.size() == arch.ftWeightCount() &&
           ftBiases.size() == std::size_t(arch.hidden) &&
           outWeights.size() == arch.outWeightCount() &&
           outBiases.size() == std::size_t(arch.outputBuckets);
}

float maxFeatureWeight(const Architecture& arch) { return 32767.0f / float(arch.qa); }

float maxOutputWeight(const Architecture& arch) { return float(32767 / arch.qa) / float(arch.qb); }

namespace {

template <typename Int>
Int roundClamped(float x, float scale, double limit) {
    const double v = std::clamp(std::nearbyint(double(x) * scale), -limit, limit);
    return Int(v);
}

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
    return f;
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
    const float* w = f.outWeights.data() + std::size_t(bucket) * 2 * std::size_t(h);
    const Color us = pos.sideToMove();
    double out = f.outBiases[std::size_t(bucket)];
    for (int i = 0; i < h; ++i) {
        const float x = std::clamp(acc[us][std::size_t(i)], 0.0f, 1.0f);
        const float y = std::clamp(acc[~us][std::size_t(i)], 0.0f, 1.0f);
        out += double(x * x * w[i]) + double(y * y * w[h + i]);
    }
    return float(out * a.scale);
}

} // namespace axon::nn

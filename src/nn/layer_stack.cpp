// SPDX-License-Identifier: GPL-3.0-or-later
// The layer stack's integer tail (after the first layer's sums) and its plain reference.
#include "nn/layer_stack.h"

#include <algorithm>

namespace axon::nn {

namespace {

// clamp(x, 0, top) rescaled from units 1/top to 1/QH (top < 2^31, so the product fits).
inline std::int64_t clipped(std::int64_t x, std::int64_t top) {
    return std::clamp<std::int64_t>(x, 0, top) * kLayerActivationScale / top;
}

} // namespace

int finishLayerStack(const Network& net, const std::int32_t* l1Sums, int bucket) {
    const Architecture& a = net.arch;
    const std::int64_t s1 = layerStackL1Scale(a);
    const auto b = std::size_t(bucket);
    std::int64_t y1[kMaxL1];
    for (int j = 0; j < a.l1; ++j) {
        // The sum wrapped in 32 bits like the SIMD one; the bias is added after, in 64.
        const std::int64_t h =
            std::int64_t(l1Sums[j]) + net.l1Biases[b * std::size_t(a.l1) + std::size_t(j)];
        y1[j] = clipped(h, s1);
    }
    std::int64_t y2[kMaxL2];
    const std::int16_t* w2 = net.l2Weights.data() + b * std::size_t(a.l2) * std::size_t(a.l1);
    for (int k = 0; k < a.l2; ++k) {
        std::int64_t h =
            std::int64_t(net.l2Biases[b * std::size_t(a.l2) + std::size_t(k)]) * kLayerWeightScale;
        for (int j = 0; j < a.l1; ++j)
            h += y1[j] * w2[std::size_t(k) * std::size_t(a.l1) + std::size_t(j)];
        y2[k] = clipped(h, kLayerActivationUnit);
    }
    const std::int16_t* w3 = net.outRow(bucket);
    std::int64_t out = std::int64_t(net.outBiases[b]) * kLayerWeightScale;
    for (int k = 0; k < a.l2; ++k) out += y2[k] * w3[k];
    return int(out * a.scale / kLayerActivationUnit);
}

int layerStackReference(const Network& net, const std::int16_t* ours, const std::int16_t* theirs,
                        int bucket) {
    const Architecture& a = net.arch;
    const int half = a.hidden / 2;
    std::vector<std::int64_t> input(std::size_t(a.hidden));
    for (int side = 0; side < 2; ++side) {
        const std::int16_t* acc = side == 0 ? ours : theirs;
        for (int i = 0; i < half; ++i) {
            const std::int64_t u = std::clamp<std::int64_t>(acc[i], 0, a.qa);
            const std::int64_t v = std::clamp<std::int64_t>(acc[i + half], 0, a.qa);
            input[std::size_t(side * half + i)] = (u * v) >> kPairwiseShift;
        }
    }
    std::int32_t sums[kMaxL1];
    const std::int16_t* w =
        net.l1Weights.data() + std::size_t(bucket) * std::size_t(a.l1) * std::size_t(a.hidden);
    for (int j = 0; j < a.l1; ++j) {
        std::uint64_t sum = 0; // wrapped to 32 bits, as the kernels wrap
        for (int i = 0; i < a.hidden; ++i)
            sum += std::uint64_t(input[std::size_t(i)] *
                                 w[std::size_t(j) * std::size_t(a.hidden) + std::size_t(i)]);
        sums[j] = std::int32_t(std::uint32_t(sum));
    }
    return finishLayerStack(net, sums, bucket);
}

} // namespace axon::nn

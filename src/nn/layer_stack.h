// SPDX-License-Identifier: GPL-3.0-or-later
// The layer stack after the accumulators (arch.layered()): its fixed-point units, the SIMD
// first layer, and the integer tail shared by every back end. Per output bucket:
//
//   float:      x = [pw(us), pw(them)],  pw(a)_i = clamp(a_i, 0, 1) * clamp(a_{i+H/2}, 0, 1)
//               h1 = W1 x + b1,  y1 = clamp(h1, 0, 1)
//               h2 = W2 y1 + b2, y2 = clamp(h2, 0, 1)
//               out = w3 . y2 + b3,  centipawns = out * scale
//   quantised:  v = clamp(acc, 0, QA) (int16); pw = (v_i * v_{i+H/2}) >> 9 in 1/(QA^2/512)
//               h1 in 1/S1 (S1 = QA^2 * 1024 / 512), int32 sums of 16-bit products, wrapping
//               y1, y2 in 1/QH (QH = 65536); h2 and out in 1/(QH * 1024); int64 from there on
//               b2 and b3 stored in 1/QH (so a float holds them exactly), added times 1024
//
// The first layer is the only wide one (hidden inputs per unit); it runs on the SIMD
// vocabulary and wraps modulo 2^32 as every back end does. The layers after it are a few
// hundred multiplies: plain int64 code, identical on every back end and platform (no float, so
// no contraction or reordering can change a result).
#pragma once

#include <cstdint>

#include "nn/kernels.h"
#include "nn/network.h"

namespace axon::nn {

constexpr std::int64_t kLayerActivationScale = 65536;
constexpr std::int64_t kLayerActivationUnit = kLayerActivationScale * kLayerWeightScale;

// Units of the first layer's sums: 1/S1.
constexpr std::int64_t layerStackL1Scale(const Architecture& a) {
    return (std::int64_t(a.qa) * a.qa * kLayerWeightScale) >> kPairwiseShift;
}

// Centipawns from the first layer's l1 sums (bias not yet added) of output bucket `bucket`.
int finishLayerStack(const Network& net, const std::int32_t* l1Sums, int bucket);

// The stack's centipawns from the side to move's and the other side's accumulators.
template <typename B>
int layerStackOutput(const Network& net, const std::int16_t* ours, const std::int16_t* theirs,
                     int bucket) {
    const Architecture& a = net.arch;
    const int half = a.hidden / 2;
    // Pairwise products of both perspectives: the first layer's input, hidden values.
    alignas(64) std::int16_t input[kMaxHidden];
    kernels::pairwiseProducts<B>(ours, input, half, std::int16_t(a.qa));
    kernels::pairwiseProducts<B>(theirs, input + half, half, std::int16_t(a.qa));
    std::int32_t sums[kMaxL1];
    const std::int16_t* w =
        net.l1Weights.data() + std::size_t(bucket) * std::size_t(a.l1) * std::size_t(a.hidden);
    for (int j = 0; j < a.l1; ++j)
        sums[j] = kernels::dot16<B>(input, w + std::size_t(j) * std::size_t(a.hidden), a.hidden);
    return finishLayerStack(net, sums, bucket);
}

// The same without the SIMD vocabulary: the reference the tests hold every back end to
// (accumulators as plain int16 values).
int layerStackReference(const Network& net, const std::int16_t* ours, const std::int16_t* theirs,
                        int bucket);

} // namespace axon::nn

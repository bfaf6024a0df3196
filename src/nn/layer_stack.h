// SPDX-License-Identifier: GPL-3.0-or-later
// The layer stack after the accumulators (arch.layered()): its fixed-point units, the SIMD
// first layer, and the integer tail shared by every back end. Per output bucket:
//
//   float:      x = [pw(us), pw(them)],  pw(a)_i = clamp(a_i, 0, 1) * clamp(a_{i+H/2}, 0, 1)
//               h1 = W1 x + b1,  y1 = clamp(h1, 0, 1)
//               h2 = W2 y1 + b2, y2 = clamp(h2, 0, 1)
//               out = w3 . y2 + b3,  centipawns = out * scale
//   quantised:  v = clamp(acc, 0, QA) (int16); pw = (v_i * v_{i+H/2}) >> 9, a byte 0..127 in
//               1/(QA^2/512); W1 int8 in 1/64, so h1 in 1/S1 with S1 = QA^2 * 64 / 512 =
//               65025/8 (not a whole number: b1 is stored rounded in the same unit), int32
//               sums of byte products, wrapping
//               y1, y2 in 1/QH (QH = 32768), y1 int16 so at most 32767 (a unit saturates at
//               1 - 1/32768); W2, w3 int16 in 1/1024; h2 and out in 1/(QH * 1024), int32;
//               b2 and b3 stored in 1/QH (so a float holds them exactly), added times 1024
// Network::validate bounds each unit's weights so that no sum can leave int32: |h1| and the
// first layer's partial sums stay below 2^31, |h2| and |out| below 64 output units.
//
// The first layer is the only wide one (hidden inputs per unit); it runs on the SIMD
// vocabulary with 8-bit weights (half the bytes and twice the products per instruction of
// 16-bit ones, as Stockfish's and most NNUE engines' first hidden layer). The second layer runs
// on it too: y1 as int16 pairs against pair-interleaved W2, one pmaddwd (vpdpwssd) per pair of
// inputs and register of outputs, a quarter of the instructions of int32 multiplies; the rest
// is plain integer code. All of it is integer arithmetic without rounding choices, so every back
// end and platform gives the same result.
#pragma once

#include <cstdint>
#include <numeric>
#include <optional>
#include <string>

#include "nn/kernels.h"
#include "nn/network.h"

namespace axon::nn {

constexpr std::int64_t kLayerActivationScale = 32768;
constexpr std::int64_t kLayerActivationUnit = kLayerActivationScale * kLayerWeightScale;

// Units of the first layer's sums: 1/S1 with S1 = kL1SumNumerator / kL1SumDenominator
// (QA^2 * 64 / 512 reduced: 65025/8 at QA = 255). A layered network has QA = kLayeredQa, so
// S1 is a constant and the tail divides by constants only.
constexpr std::int64_t kL1SumUnreduced = std::int64_t(kLayeredQa) * kLayeredQa * kL1WeightScale;
constexpr std::int64_t kL1SumGcd = std::gcd(kL1SumUnreduced, std::int64_t(1) << kPairwiseShift);
constexpr std::int64_t kL1SumNumerator = kL1SumUnreduced / kL1SumGcd;
constexpr std::int64_t kL1SumDenominator = (std::int64_t(1) << kPairwiseShift) / kL1SumGcd;
// S1 as a real number: the trainer's and dequantisation's scale of the first layer's biases.
constexpr double layerStackL1Scale(const Architecture&) {
    return double(kL1SumNumerator) / double(kL1SumDenominator);
}

// Where unit j's weight of first-layer input i (of `bucket`) is in Network::l1Weights: per
// bucket, per input quad (4q .. 4q + 3), each unit's four weights side by side, as a byte dot
// product reads them against a broadcast quad of inputs (kernels::l1Layer).
constexpr std::size_t l1WeightIndex(const Architecture& a, int bucket, int j, int i) {
    return ((std::size_t(bucket) * std::size_t(a.hidden / 4) + std::size_t(i / 4)) *
                std::size_t(a.l1) +
            std::size_t(j)) *
               4 +
           std::size_t(i & 3);
}

// Where the second-layer weight from first-layer unit j to second-layer unit k (of `bucket`)
// is in Network::l2Weights: per bucket, per pair of inputs (2p, 2p + 1), each output's two
// weights side by side, as an adjacent-pair product sum reads them against a broadcast pair of
// activations (kernels::l2Layer). The file and the float network keep them input-major
// ((bucket * l1 + j) * l2 + k); the file reader and writer convert.
constexpr std::size_t l2WeightIndex(const Architecture& a, int bucket, int j, int k) {
    return ((std::size_t(bucket) * std::size_t(a.l1 / 2) + std::size_t(j / 2)) * std::size_t(a.l2) +
            std::size_t(k)) *
               2 +
           std::size_t(j & 1);
}
// The input-major position of the same weight.
constexpr std::size_t l2WeightNaturalIndex(const Architecture& a, int bucket, int j, int k) {
    return (std::size_t(bucket) * std::size_t(a.l1) + std::size_t(j)) * std::size_t(a.l2) +
           std::size_t(k);
}
// Calls f(input-major index, l2WeightIndex) for every second-layer weight: the one conversion
// between the order of the file and the float network and Network's.
template <typename F>
void forEachL2Weight(const Architecture& a, F f) {
    for (int b = 0; b < a.outputBuckets; ++b)
        for (int j = 0; j < a.l1; ++j)
            for (int k = 0; k < a.l2; ++k)
                f(l2WeightNaturalIndex(a, b, j, k), l2WeightIndex(a, b, j, k));
}

// Why a network's stack could overflow int32 somewhere (layer_stack.h), or nothing.
std::optional<std::string> checkLayerStackBounds(const Network& net);

// The tail's steps around the second layer (layer_stack.cpp): the first layer's activations
// from its sums (bias not yet added), and the centipawns from the second layer's sums (bias
// not yet added).
void layerStackActivations(const Network& net, const std::int32_t* l1Sums, int bucket,
                           std::int16_t* y1);
int layerStackFinalOutput(const Network& net, const std::int32_t* h2, int bucket);
// The second layer without the SIMD vocabulary, for any l2.
void l2LayerPlain(const Network& net, const std::int16_t* y1, int bucket, std::int32_t* h2);

// Centipawns from the first layer's l1 sums (bias not yet added) of output bucket `bucket`.
template <typename B>
int finishLayerStack(const Network& net, const std::int32_t* l1Sums, int bucket) {
    const Architecture& a = net.arch;
    alignas(64) std::int16_t y1[kMaxL1];
    layerStackActivations(net, l1Sums, bucket, y1);
    alignas(64) std::int32_t h2[kMaxL2];
    if (a.l2 % (B::kLanes16 / 2) == 0)
        kernels::l2Layer<B>(y1,
                            net.l2Weights.data() + std::size_t(bucket) * std::size_t(a.l1 * a.l2),
                            a.l1, a.l2, h2);
    else
        l2LayerPlain(net, y1, bucket, h2);
    return layerStackFinalOutput(net, h2, bucket);
}

// The stack's centipawns from the side to move's and the other side's accumulators.
template <typename B>
int layerStackOutput(const Network& net, const std::int16_t* ours, const std::int16_t* theirs,
                     int bucket) {
    const Architecture& a = net.arch;
    const int half = a.hidden / 2;
    // Pairwise products of both perspectives: the first layer's input, hidden bytes.
    alignas(64) std::uint8_t input[kMaxHidden];
    kernels::pairwiseProducts<B>(ours, input, half, std::int16_t(a.qa));
    kernels::pairwiseProducts<B>(theirs, input + half, half, std::int16_t(a.qa));
    alignas(64) std::int32_t sums[kMaxL1];
    kernels::l1Layer<B>(input,
                        net.l1Weights.data() +
                            std::size_t(bucket) * std::size_t(a.l1) * std::size_t(a.hidden),
                        a.hidden, a.l1, sums);
    return finishLayerStack<B>(net, sums, bucket);
}

// The same without the SIMD back ends: the reference the tests hold every back end to
// (accumulators as plain int16 values, the first layer in plain loops, the tail on the scalar
// back end, which LayerStackTail holds to the documented arithmetic).
int layerStackReference(const Network& net, const std::int16_t* ours, const std::int16_t* theirs,
                        int bucket);

} // namespace axon::nn

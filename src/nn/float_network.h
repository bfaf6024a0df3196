// SPDX-License-Identifier: GPL-3.0-or-later
// A perspective network's parameters in floating point, laid out like Network (network.h):
// what the trainer learns and safetensors files carry. Quantising gives the engine's int16
// network; dequantising gives back floats that quantise to the same network.
//
// Float semantics, which the quantised kernels reproduce up to rounding:
//   acc[p]   = ftBiases + sum of ftWeights rows of p's active features   (p = us, them)
//   output   = sum_i screlu(acc[us][i]) * outW[b][i] + screlu(acc[them][i]) * outW[b][H + i]
//              + outBiases[b],   screlu(x) = clamp(x, 0, 1)^2,  b = output bucket
//   centipawns = output * scale
// With a layer stack (arch.layered()) the output is the stack's instead (layer_stack.h).
#pragma once

#include <vector>

#include "chess/position.h"
#include "nn/arch.h"
#include "nn/network.h"

namespace axon::nn {

struct FloatNetwork {
    Architecture arch;
    std::vector<float> ftWeights;  // inputCount x hidden, row per feature
    std::vector<float> ftBiases;   // hidden
    std::vector<float> outWeights; // outputBuckets x 2 x hidden
    std::vector<float> outBiases;  // outputBuckets
    // The layer stack (empty without one), laid out like Network's except the first layer:
    // one row of `hidden` weights per unit here (what trainers use), interleaved by input
    // pair in Network.
    std::vector<float> l1Weights; // outputBuckets x l1 x hidden
    std::vector<float> l1Biases;  // outputBuckets x l1
    std::vector<float> l2Weights; // outputBuckets x l1 x l2 (input-major)
    std::vector<float> l2Biases;  // outputBuckets x l2

    // Zero-filled parameters of the right sizes for `arch`.
    static FloatNetwork zeros(const Architecture& arch);
    bool sizesMatch() const;
};

// The largest magnitudes quantisation can represent: feature weights and biases in int16 at
// QA, output weights such that |w| * QB * QA fits in int16 (Network::validate). The trainer
// clips to these.
float maxFeatureWeight(const Architecture& arch);
float maxOutputWeight(const Architecture& arch);
// The stack's later weights (out.weight of a layered network included), int16 in
// 1/kLayerWeightScale; its first layer's, int8 in 1/kL1WeightScale (127/64).
float maxLayerWeight();
float maxL1Weight();

// Rounds to the nearest representable value, clamping to the limits above.
Network quantise(const FloatNetwork& net);
FloatNetwork dequantise(const Network& net);

// The float network's evaluation in centipawns from the side to move's view (a reference for
// tests and the trainer; not fast).
float evaluateFloat(const FloatNetwork& net, const chess::Position& pos);
// The layer stack's centipawns from the two accumulators (float units) of output bucket `bucket`.
float evaluateFloatStack(const FloatNetwork& net, const float* ours, const float* theirs,
                         int bucket);

} // namespace axon::nn

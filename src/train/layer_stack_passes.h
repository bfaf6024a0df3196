// SPDX-License-Identifier: GPL-3.0-or-later
// The layer stack's float forward and backward passes for training (nn/layer_stack.h gives
// the semantics): from both accumulators to the output, and back from d(loss)/d(output) to
// the gradients of the stack's parameters and of both accumulators. One output bucket's slice
// of each parameter array is passed in; the caller owns the scratch buffers.
#pragma once

#include <cstddef>

namespace axon::train {

struct StackShape {
    int hidden = 0, l1 = 0, l2 = 0;
};

// One bucket's parameters (float units) or their gradients, the same layout as nn::Network's.
template <typename T>
struct StackSlices {
    T* l1w; // l1 x hidden
    T* l1b; // l1
    T* l2w; // l1 x l2 (input-major)
    T* l2b; // l2
    T* w3;  // l2
    T* b3;  // 1
};
using StackParams = StackSlices<const float>;
using StackGrads = StackSlices<float>;

// What the backward pass needs of the forward one: hidden + 2 x l1 + 2 x l2 floats.
struct StackActivations {
    float* x;  // hidden: the pairwise products of both perspectives
    float* h1; // l1 pre-activations
    float* y1; // l1
    float* h2; // l2
    float* y2; // l2
    static std::size_t floatsNeeded(const StackShape& s) {
        return std::size_t(s.hidden + 2 * s.l1 + 2 * s.l2);
    }
};

float stackForward(const StackShape& s, const StackParams& p, const float* ours,
                   const float* theirs, StackActivations& act);

// Adds d * d(output)/d(parameter) to `g`, and writes d * d(output)/d(accumulator) into dOurs
// and dTheirs (hidden each); `scratch` holds l1 + l2 floats.
void stackBackward(const StackShape& s, const StackParams& p, const float* ours,
                   const float* theirs, const StackActivations& act, float d, StackGrads& g,
                   float* dOurs, float* dTheirs, float* scratch);

} // namespace axon::train

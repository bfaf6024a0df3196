// SPDX-License-Identifier: GPL-3.0-or-later
// Float forward and backward passes of the layer stack. The first layer (hidden inputs per
// unit) dominates: its loops run over contiguous rows with kLanes partial sums so the compiler
// vectorises them without reordering float additions.
#include "train/layer_stack_passes.h"

#include <algorithm>

namespace axon::train {

namespace {

constexpr int kLanes = 16;

inline float clip01(float x) { return std::clamp(x, 0.0f, 1.0f); }

inline float dot(const float* __restrict a, const float* __restrict b, int n) {
    float lanes[kLanes] = {};
    for (int i = 0; i < n; i += kLanes)
        for (int j = 0; j < kLanes; ++j) lanes[j] += a[i + j] * b[i + j];
    float s = 0;
    for (float l : lanes) s += l;
    return s;
}

} // namespace

float stackForward(const StackShape& s, const StackParams& p, const float* ours,
                   const float* theirs, StackActivations& act) {
    const int half = s.hidden / 2;
    float* __restrict x = act.x;
    for (int i = 0; i < half; ++i) {
        x[i] = clip01(ours[i]) * clip01(ours[i + half]);
        x[half + i] = clip01(theirs[i]) * clip01(theirs[i + half]);
    }
    for (int j = 0; j < s.l1; ++j) {
        const float h = p.l1b[j] + dot(p.l1w + std::size_t(j) * std::size_t(s.hidden), x, s.hidden);
        act.h1[j] = h;
        act.y1[j] = clip01(h);
    }
    // Input-major second-layer weights: a sum of scaled rows.
    for (int k = 0; k < s.l2; ++k) act.h2[k] = p.l2b[k];
    for (int j = 0; j < s.l1; ++j) {
        const float y = act.y1[j];
        const float* __restrict row = p.l2w + std::size_t(j) * std::size_t(s.l2);
        for (int k = 0; k < s.l2; ++k) act.h2[k] += y * row[k];
    }
    for (int k = 0; k < s.l2; ++k) act.y2[k] = clip01(act.h2[k]);
    float out = p.b3[0];
    for (int k = 0; k < s.l2; ++k) out += p.w3[k] * act.y2[k];
    return out;
}

void stackBackward(const StackShape& s, const StackParams& p, const float* ours,
                   const float* theirs, const StackActivations& act, float d, StackGrads& g,
                   float* dOurs, float* dTheirs, float* scratch) {
    const int half = s.hidden / 2;
    float* dh1 = scratch;        // l1
    float* dh2 = scratch + s.l1; // l2
    // Output layer and the second hidden layer: d clamp(h, 0, 1) / dh = 1 inside (0, 1), zero
    // where clipped.
    g.b3[0] += d;
    for (int k = 0; k < s.l2; ++k) {
        g.w3[k] += d * act.y2[k];
        const float h = act.h2[k];
        dh2[k] = h > 0.0f && h < 1.0f ? d * p.w3[k] : 0.0f;
    }
    for (int k = 0; k < s.l2; ++k) g.l2b[k] += dh2[k];
    for (int j = 0; j < s.l1; ++j) {
        const std::size_t row = std::size_t(j) * std::size_t(s.l2);
        const float y = act.y1[j];
        float back = 0.0f;
        for (int k = 0; k < s.l2; ++k) {
            g.l2w[row + std::size_t(k)] += dh2[k] * y;
            back += dh2[k] * p.l2w[row + std::size_t(k)];
        }
        dh1[j] = back;
    }
    for (int j = 0; j < s.l1; ++j) {
        const float h = act.h1[j];
        dh1[j] = h > 0.0f && h < 1.0f ? dh1[j] : 0.0f;
    }
    // First layer: weight gradients, and the gradient reaching each perspective's pairwise
    // products, which dOurs[0, half) and dTheirs[0, half) hold until the last step.
    float* __restrict dxOurs = dOurs;
    float* __restrict dxTheirs = dTheirs;
    std::fill(dOurs, dOurs + s.hidden, 0.0f);
    std::fill(dTheirs, dTheirs + s.hidden, 0.0f);
    for (int j = 0; j < s.l1; ++j) {
        const float dj = dh1[j];
        if (dj == 0.0f) continue;
        g.l1b[j] += dj;
        const std::size_t row = std::size_t(j) * std::size_t(s.hidden);
        float* __restrict gw = g.l1w + row;
        const float* __restrict w = p.l1w + row;
        const float* __restrict x = act.x;
        for (int i = 0; i < s.hidden; ++i) gw[i] += dj * x[i];
        for (int i = 0; i < half; ++i) {
            dxOurs[i] += dj * w[i];
            dxTheirs[i] += dj * w[half + i];
        }
    }
    // Through the pairwise products: x_i = c(a_i) c(a_{i+half}); c' = 1 inside (0, 1).
    auto throughPairs = [half](const float* acc, float* grad) {
        for (int i = 0; i < half; ++i) {
            const float u = acc[i], v = acc[i + half], dxi = grad[i];
            grad[i] = u > 0.0f && u < 1.0f ? dxi * clip01(v) : 0.0f;
            grad[i + half] = v > 0.0f && v < 1.0f ? dxi * clip01(u) : 0.0f;
        }
    };
    throughPairs(ours, dOurs);
    throughPairs(theirs, dTheirs);
}

} // namespace axon::train

// SPDX-License-Identifier: GPL-3.0-or-later
// The fused AdamW step.
#include "train/optimiser.h"

#include <algorithm>
#include <cmath>

#include "util/parallel.h"

namespace axon::train {

using util::parallelFor;
using util::partBegin;

AdamW::AdamW(const ParameterLayout& layout, const AdamWConfig& config)
    : m_layout(layout), m_config(config), m_m(layout.total, 0.0f), m_v(layout.total, 0.0f) {}

namespace {

struct StepConstants {
    float beta1, beta2, epsilon, decay, stepSize, secondCorrection, clip;
};

// One row: the update is exact dense AdamW (moments decay even where the gradient is zero).
inline void updateRow(const StepConstants& k, float* __restrict p, float* __restrict m,
                      float* __restrict v, const float* __restrict g, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        m[i] = k.beta1 * m[i] + (1.0f - k.beta1) * g[i];
        v[i] = k.beta2 * v[i] + (1.0f - k.beta2) * g[i] * g[i];
        const float denom = std::sqrt(v[i] * k.secondCorrection) + k.epsilon;
        float x = p[i] * k.decay - k.stepSize * m[i] / denom;
        if (k.clip > 0) x = std::clamp(x, -k.clip, k.clip);
        p[i] = x;
    }
}

} // namespace

void AdamW::step(std::span<float> params, std::span<Gradients> grads, float lr, int threads) {
    ++m_steps;
    const double t = double(m_steps);
    StepConstants k{};
    k.beta1 = m_config.beta1;
    k.beta2 = m_config.beta2;
    k.epsilon = m_config.epsilon;
    k.decay = 1.0f - lr * m_config.weightDecay;
    // Bias corrections folded in: m_hat = m / c1, sqrt(v_hat) = sqrt(v / c2).
    k.stepSize = float(lr / (1.0 - std::pow(double(m_config.beta1), t)));
    k.secondCorrection = float(1.0 / (1.0 - std::pow(double(m_config.beta2), t)));

    parallelFor(threads, [&](int thread) {
        std::vector<float> sum;
        for (const Segment& seg : m_layout.segments) {
            StepConstants sk = k;
            sk.clip = seg.clip;
            const std::size_t rowBegin = partBegin(seg.rows, threads, thread);
            const std::size_t rowEnd = partBegin(seg.rows, threads, thread + 1);
            const std::size_t n = seg.rowSize;
            sum.assign(n, 0.0f);
            for (std::size_t r = rowBegin; r < rowEnd; ++r) {
                const std::size_t off = seg.offset + r * n;
                std::fill(sum.begin(), sum.end(), 0.0f);
                for (Gradients& g : grads) {
                    if (seg.rowSparse) {
                        if (!g.touched[r]) continue;
                        g.touched[r] = 0;
                    }
                    float* __restrict src = g.values.data() + off;
                    float* __restrict dst = sum.data();
                    for (std::size_t i = 0; i < n; ++i) {
                        dst[i] += src[i];
                        src[i] = 0.0f;
                    }
                }
                updateRow(sk, params.data() + off, m_m.data() + off, m_v.data() + off, sum.data(),
                          n);
            }
        }
    });
}

} // namespace axon::train

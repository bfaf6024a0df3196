// SPDX-License-Identifier: GPL-3.0-or-later
// AdamW over the flat parameter array, fused with the reduction of the threads' gradients,
// the weight clipping and the clearing of the gradient buffers: one pass over the parameters
// per step, split between the threads by rows.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "train/parameters.h"

namespace axon::train {

struct AdamWConfig {
    float beta1 = 0.9f, beta2 = 0.999f, epsilon = 1e-8f;
    float weightDecay = 0.01f;
};

class AdamW {
  public:
    AdamW(const ParameterLayout& layout, const AdamWConfig& config);

    // params -= lr * (adam direction + weightDecay * params), with the gradient summed over
    // `grads` in their order (so the result depends on the thread count, not on timing);
    // then every segment is clipped to its limit and the gradients are zeroed.
    void step(std::span<float> params, std::span<Gradients> grads, float lr, int threads);

    std::uint64_t steps() const { return m_steps; }
    std::vector<float>& firstMoments() { return m_m; }
    std::vector<float>& secondMoments() { return m_v; }
    void setSteps(std::uint64_t steps) { m_steps = steps; }

  private:
    const ParameterLayout& m_layout;
    AdamWConfig m_config;
    std::vector<float> m_m, m_v;
    std::uint64_t m_steps = 0;
};

} // namespace axon::train

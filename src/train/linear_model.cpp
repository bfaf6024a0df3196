// SPDX-License-Identifier: GPL-3.0-or-later
// The linear piece-square model's passes: a sum of the side to move's feature weights.
#include "train/linear_model.h"

#include <algorithm>

namespace axon::train {

LinearModel::LinearModel() {
    m_arch.inputBuckets = 1;
    m_arch.outputBuckets = 1;
    m_arch.mirror = false;
    m_layout.add("pst", std::size_t(nn::kFeaturesPerBucket), 1, 0.0f);
    m_layout.add("bias", 1, 1, 0.0f);
}

void LinearModel::initialise(std::span<float> params, std::uint64_t) const {
    std::fill(params.begin(), params.end(), 0.0f);
}

float LinearModel::output(const Sample& s, const float* params, std::vector<float>&) const {
    float out = params[m_layout.segments[kBias].offset];
    for (int k = 0; k < s.count; ++k) out += params[s.features[0][k]];
    return out;
}

double LinearModel::accumulate(std::span<const Sample> samples, const float* params,
                               Gradients& grad, const LossConfig& loss, float gradScale,
                               std::vector<float>& scratch) const {
    double lossSum = 0;
    float* g = grad.values.data();
    const std::size_t bias = m_layout.segments[kBias].offset;
    for (const Sample& s : samples) {
        const float out = output(s, params, scratch);
        const LossValue lv = lossAndGradient(loss, out, lossTarget(loss, s.score, s.result));
        lossSum += lv.loss;
        const float d = lv.gradient * gradScale;
        g[bias] += d;
        for (int k = 0; k < s.count; ++k) g[s.features[0][k]] += d;
    }
    return lossSum;
}

} // namespace axon::train

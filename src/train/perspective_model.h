// SPDX-License-Identifier: GPL-3.0-or-later
// The perspective network (nn/float_network.h) as a trainable model: sparse forward and
// backward passes over the active features only, and conversion to and from FloatNetwork.
#pragma once

#include "nn/float_network.h"
#include "train/layer_stack_passes.h"
#include "train/model.h"

namespace axon::train {

class PerspectiveModel final : public Model {
  public:
    // `clip` bounds every weight and feature bias (never beyond quantisation's limits).
    PerspectiveModel(const nn::Architecture& arch, float clip);

    const ParameterLayout& layout() const override { return m_layout; }
    const nn::Architecture& featureArch() const override { return m_arch; }
    void initialise(std::span<float> params, std::uint64_t seed) const override;
    double accumulate(std::span<const Sample> samples, const float* params, Gradients& grad,
                      const LossConfig& loss, float gradScale,
                      std::vector<float>& scratch) const override;
    float output(const Sample& sample, const float* params,
                 std::vector<float>& scratch) const override;

    nn::FloatNetwork toFloatNetwork(std::span<const float> params) const;
    void fromFloatNetwork(const nn::FloatNetwork& net, std::span<float> params) const;

    // Segment indices in layout(); the layer stack's only with arch.layered().
    static constexpr std::size_t kFtWeights = 0, kFtBiases = 1, kOutWeights = 2, kOutBiases = 3;
    static constexpr std::size_t kL1Weights = 4, kL1Biases = 5, kL2Weights = 6, kL2Biases = 7;

  private:
    // scratch: both accumulators, then (layered) the stack's activations.
    float forward(const Sample& s, const float* params, float* scratch) const;
    // One bucket's slices of the stack's segments in `base` (parameters or gradients).
    template <typename T>
    StackSlices<T> stackSlices(T* base, int bucket) const;
    StackActivations stackActivations(float* scratch) const;
    StackShape stackShape() const { return {m_arch.hidden, m_arch.l1, m_arch.l2}; }
    std::size_t scratchFloats() const;

    nn::Architecture m_arch;
    ParameterLayout m_layout;
};

} // namespace axon::train

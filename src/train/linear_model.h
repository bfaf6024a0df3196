// SPDX-License-Identifier: GPL-3.0-or-later
// The linear piece-square model (768 -> 1): one weight per (own/their piece type, square) from
// the side to move's view (the board flipped for Black), plus a bias. Output units are those
// of the network (centipawns / scale), so a weight times the scale is a PST entry in
// centipawns.
#pragma once

#include "train/model.h"

namespace axon::train {

class LinearModel final : public Model {
  public:
    LinearModel();

    const ParameterLayout& layout() const override { return m_layout; }
    const nn::Architecture& featureArch() const override { return m_arch; }
    // All zeros: the loss is convex in the weights, so no symmetry needs breaking.
    void initialise(std::span<float> params, std::uint64_t seed) const override;
    double accumulate(std::span<const Sample> samples, const float* params, Gradients& grad,
                      const LossConfig& loss, float gradScale,
                      std::vector<float>& scratch) const override;
    float output(const Sample& sample, const float* params,
                 std::vector<float>& scratch) const override;

    static constexpr std::size_t kWeights = 0, kBias = 1;

  private:
    nn::Architecture m_arch; // no mirroring, one bucket: features are (side, type, square)
    ParameterLayout m_layout;
};

} // namespace axon::train

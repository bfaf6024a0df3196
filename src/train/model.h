// SPDX-License-Identifier: GPL-3.0-or-later
// What the trainer asks of a model: its parameter layout, a seeded initialisation, the
// features it reads, the summed loss and gradient over some samples, and its output for one.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "nn/arch.h"
#include "train/config.h"
#include "train/features.h"
#include "train/loss.h"
#include "train/parameters.h"

namespace axon::train {

class Model {
  public:
    virtual ~Model() = default;
    virtual const ParameterLayout& layout() const = 0;
    // How samples are extracted for this model (extractSample's architecture).
    virtual const nn::Architecture& featureArch() const = 0;
    virtual void initialise(std::span<float> params, std::uint64_t seed) const = 0;
    // Adds gradScale * d(loss)/d(params) over `samples` to `grad`; returns the summed loss.
    // `scratch` is the calling thread's, of any size (the model grows it).
    virtual double accumulate(std::span<const Sample> samples, const float* params, Gradients& grad,
                              const LossConfig& loss, float gradScale,
                              std::vector<float>& scratch) const = 0;
    // The model's output (network units: centipawns / scale) for one sample.
    virtual float output(const Sample& sample, const float* params,
                         std::vector<float>& scratch) const = 0;
};

std::unique_ptr<Model> makeModel(const TrainConfig& config);

} // namespace axon::train

// SPDX-License-Identifier: GPL-3.0-or-later
// Dense (fully connected) layers with their activations, and the MLP float model: a board
// encoding fed through a stack of dense layers down to one output. The CNN reuses the layers.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nn/board_encoding.h"
#include "nn/float_model.h"
#include "util/result.h"

namespace axon::nn {

enum class FloatActivation : std::uint8_t { None, ReLU, CReLU, SCReLU, Tanh, Sigmoid };

// "none", "relu", "crelu" (clamp to [0, 1]), "screlu" (clamp to [0, 1], squared), "tanh",
// "sigmoid".
std::string_view activationName(FloatActivation a);
std::optional<FloatActivation> parseActivation(std::string_view name);
void applyActivation(FloatActivation a, std::span<float> values);

struct DenseLayer {
    int inputs = 0;
    int outputs = 0;
    // inputs x outputs: row i holds input i's weight to every output. The transpose of
    // PyTorch's nn.Linear.weight [outputs, inputs], so that the forward pass adds whole
    // contiguous rows and skips inputs that are zero (most of a board encoding, and whatever
    // a ReLU cut off).
    std::vector<float> weights;
    std::vector<float> biases; // outputs
    FloatActivation activation = FloatActivation::None;

    // From PyTorch's layout; the spans must hold outputs * inputs and outputs values.
    static DenseLayer fromOutIn(int outputs, int inputs, std::span<const float> weightOutIn,
                                std::span<const float> bias, FloatActivation activation);

    // out[0..outputs) = activation(bias + W x); `in` and `out` must not overlap.
    void forward(const float* in, float* out) const;
};

// What is wrong with a layer stack fed `inputs` values, or nothing: sizes must chain, end in
// one output, and parameter counts must match.
std::optional<std::string> validateDenseLayers(std::span<const DenseLayer> layers, int inputs);

// Runs the layers on `input`; returns the single output. `a` and `b` are scratch, resized.
float forwardDense(std::span<const DenseLayer> layers, std::span<const float> input,
                   std::vector<float>& a, std::vector<float>& b);

// "902 -> 451 (relu) -> ... -> 1 (none)".
std::string describeDense(std::span<const DenseLayer> layers, int inputs);

class DenseMlp final : public FloatModel {
  public:
    static util::Result<DenseMlp> create(BoardEncoding encoding, std::vector<DenseLayer> layers,
                                         OutputHead head);

    float evaluate(const chess::Position& pos) const override;
    std::string describe() const override;

    // The last layer's output (before scaling) for an already encoded input.
    float forward(std::span<const float> input) const;

    BoardEncoding encoding() const { return m_encoding; }
    const std::vector<DenseLayer>& layers() const { return m_layers; }
    const OutputHead& head() const { return m_head; }

  private:
    DenseMlp() = default;
    BoardEncoding m_encoding = BoardEncoding::OneHot768Plus;
    std::vector<DenseLayer> m_layers;
    OutputHead m_head;
};

// Dense layers with random weights (uniform, scaled by 1/sqrt(inputs)), for benchmarks and
// tests: sizes[0] inputs through each later size; `hidden` on all but the last layer.
std::vector<DenseLayer> makeRandomDenseLayers(std::span<const int> sizes, FloatActivation hidden,
                                              std::uint64_t seed);

} // namespace axon::nn

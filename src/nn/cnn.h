// SPDX-License-Identifier: GPL-3.0-or-later
// A small convolutional float model: 3x3 convolutions (stride 1, zero padding 1) over the
// encoding's 8x8 planes, each followed by its activation, then the last convolution's output
// flattened channel by channel (c * 64 + square, PyTorch's flatten of [C, 8, 8]) with the
// encoding's scalar features appended, through dense layers to one output.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "nn/dense_mlp.h"

namespace axon::nn {

constexpr int kConvKernel = 3;

struct ConvLayer {
    int inChannels = 0;
    int outChannels = 0;
    // PyTorch's nn.Conv2d.weight layout: [out][in][ky][kx], ky along ranks, kx along files.
    std::vector<float> weights;
    std::vector<float> biases; // outChannels
    FloatActivation activation = FloatActivation::ReLU;

    // out[o][y][x] = activation(bias[o] + sum over i, ky, kx of
    //                weight[o][i][ky][kx] * in[i][y + ky - 1][x + kx - 1]), zero outside.
    // `in` holds inChannels planes of 64 values, `out` outChannels planes.
    void forward(const float* in, float* out) const;
};

class Cnn final : public FloatModel {
  public:
    static util::Result<Cnn> create(BoardEncoding encoding, std::vector<ConvLayer> convs,
                                    std::vector<DenseLayer> dense, OutputHead head);

    float evaluate(const chess::Position& pos) const override;
    std::string describe() const override;
    // The last layer's output (before scaling) for an already encoded input.
    float forward(std::span<const float> input) const;

    // Inputs of the first dense layer: last channels * 64 + the encoding's scalars.
    int flattenedSize() const;

  private:
    Cnn() = default;
    BoardEncoding m_encoding = BoardEncoding::Planes14Plus6;
    std::vector<ConvLayer> m_convs;
    std::vector<DenseLayer> m_dense;
    OutputHead m_head;
};

// What is wrong with a convolution stack over `planes` input planes, or nothing.
std::optional<std::string> validateConvLayers(std::span<const ConvLayer> convs, int planes);

// Random convolutions (channels[0] = the encoding's planes), for benchmarks and tests.
std::vector<ConvLayer> makeRandomConvLayers(std::span<const int> channels,
                                            FloatActivation activation, std::uint64_t seed);

} // namespace axon::nn

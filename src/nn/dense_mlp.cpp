// SPDX-License-Identifier: GPL-3.0-or-later
// Dense layers, activations and the MLP float model.
#include "nn/dense_mlp.h"

#include <algorithm>
#include <cmath>

#include "util/prng.h"

namespace axon::nn {
namespace {

constexpr FloatActivation kActivations[] = {FloatActivation::None,  FloatActivation::ReLU,
                                            FloatActivation::CReLU, FloatActivation::SCReLU,
                                            FloatActivation::Tanh,  FloatActivation::Sigmoid};

} // namespace

std::string_view activationName(FloatActivation a) {
    switch (a) {
    case FloatActivation::None: return "none";
    case FloatActivation::ReLU: return "relu";
    case FloatActivation::CReLU: return "crelu";
    case FloatActivation::SCReLU: return "screlu";
    case FloatActivation::Tanh: return "tanh";
    case FloatActivation::Sigmoid: return "sigmoid";
    }
    return "?";
}

std::optional<FloatActivation> parseActivation(std::string_view name) {
    for (FloatActivation a : kActivations)
        if (activationName(a) == name) return a;
    return std::nullopt;
}

void applyActivation(FloatActivation a, std::span<float> v) {
    switch (a) {
    case FloatActivation::None: break;
    case FloatActivation::ReLU:
        for (float& x : v) x = std::max(x, 0.0f);
        break;
    case FloatActivation::CReLU:
        for (float& x : v) x = std::clamp(x, 0.0f, 1.0f);
        break;
    case FloatActivation::SCReLU:
        for (float& x : v) {
            const float c = std::clamp(x, 0.0f, 1.0f);
            x = c * c;
        }
        break;
    case FloatActivation::Tanh:
        for (float& x : v) x = std::tanh(x);
        break;
    case FloatActivation::Sigmoid:
        for (float& x : v) x = 1.0f / (1.0f + std::exp(-x));
        break;
    }
}

DenseLayer DenseLayer::fromOutIn(int outputs, int inputs, std::span<const float> w,
                                 std::span<const float> bias, FloatActivation activation) {
    DenseLayer l;
    l.inputs = inputs;
    l.outputs = outputs;
    l.activation = activation;
    l.weights.resize(std::size_t(inputs) * std::size_t(outputs));
    for (int o = 0; o < outputs; ++o)
        for (int i = 0; i < inputs; ++i)
            l.weights[std::size_t(i) * std::size_t(outputs) + std::size_t(o)] =
                w[std::size_t(o) * std::size_t(inputs) + std::size_t(i)];
    l.biases.assign(bias.begin(), bias.end());
    return l;
}

void DenseLayer::forward(const float* __restrict in, float* __restrict out) const {
    const std::size_t n = std::size_t(outputs);
    std::copy(biases.begin(), biases.end(), out);
    const float* __restrict w = weights.data();
    for (int i = 0; i < inputs; ++i) {
        const float x = in[i];
        if (x == 0.0f) continue;
        // Input i's whole row, contiguous and streamed once: the first layer's weights
        // outgrow L2, and this order measured twice as fast as holding blocks of outputs in
        // registers across all inputs. Independent lanes vectorise without fast-math.
        const float* __restrict row = w + std::size_t(i) * n;
        for (std::size_t o = 0; o < n; ++o) out[o] += x * row[o];
    }
    applyActivation(activation, {out, n});
}

std::optional<std::string> validateDenseLayers(std::span<const DenseLayer> layers, int inputs) {
    if (layers.empty()) return std::string("no dense layers");
    int width = inputs;
    for (std::size_t k = 0; k < layers.size(); ++k) {
        const DenseLayer& l = layers[k];
        const std::string which = "dense layer " + std::to_string(k);
        if (l.inputs != width)
            return which + " takes " + std::to_string(l.inputs) + " inputs but receives " +
                   std::to_string(width);
        if (l.outputs < 1) return which + " has no outputs";
        if (l.weights.size() != std::size_t(l.inputs) * std::size_t(l.outputs) ||
            l.biases.size() != std::size_t(l.outputs))
            return which + ": parameter counts do not match " + std::to_string(l.inputs) + " x " +
                   std::to_string(l.outputs);
        width = l.outputs;
    }
    if (width != 1)
        return "the last dense layer has " + std::to_string(width) + " outputs, expected 1";
    return std::nullopt;
}

float forwardDense(std::span<const DenseLayer> layers, std::span<const float> input,
                   std::vector<float>& a, std::vector<float>& b) {
    const float* in = input.data();
    std::vector<float>* bufs[2] = {&a, &b};
    for (std::size_t k = 0; k < layers.size(); ++k) {
        std::vector<float>& out = *bufs[k % 2];
        if (out.size() < std::size_t(layers[k].outputs)) out.resize(std::size_t(layers[k].outputs));
        layers[k].forward(in, out.data());
        in = out.data();
    }
    return in[0];
}

std::string describeDense(std::span<const DenseLayer> layers, int inputs) {
    std::string s = std::to_string(inputs);
    for (const DenseLayer& l : layers)
        s += " -> " + std::to_string(l.outputs) + " (" + std::string(activationName(l.activation)) +
             ")";
    return s;
}

util::Result<DenseMlp> DenseMlp::create(BoardEncoding encoding, std::vector<DenseLayer> layers,
                                        OutputHead head) {
    if (auto e = validateDenseLayers(layers, encodingShape(encoding).size()))
        return util::makeError(*e);
    DenseMlp m;
    m.m_encoding = encoding;
    m.m_layers = std::move(layers);
    m.m_head = head;
    return m;
}

float DenseMlp::forward(std::span<const float> input) const {
    thread_local std::vector<float> a, b;
    return forwardDense(m_layers, input, a, b);
}

float DenseMlp::evaluate(const chess::Position& pos) const {
    thread_local std::vector<float> input;
    input.resize(std::size_t(encodingShape(m_encoding).size()));
    encodeBoard(m_encoding, pos, input);
    return m_head.centipawns(forward(input), pos.sideToMove());
}

std::string DenseMlp::describe() const {
    return "mlp over " + std::string(encodingName(m_encoding)) + ": " +
           describeDense(m_layers, encodingShape(m_encoding).size()) + ", " + describeHead(m_head);
}

std::vector<DenseLayer> makeRandomDenseLayers(std::span<const int> sizes, FloatActivation hidden,
                                              std::uint64_t seed) {
    util::Prng rng(seed);
    auto uniform = [&](float r) { return r * (float(rng.next() >> 40) / float(1 << 23) - 1.0f); };
    std::vector<DenseLayer> layers;
    for (std::size_t k = 1; k < sizes.size(); ++k) {
        DenseLayer l;
        l.inputs = sizes[k - 1];
        l.outputs = sizes[k];
        l.activation = k + 1 < sizes.size() ? hidden : FloatActivation::None;
        const float r = 1.0f / std::sqrt(float(l.inputs));
        l.weights.resize(std::size_t(l.inputs) * std::size_t(l.outputs));
        for (float& w : l.weights) w = uniform(r);
        l.biases.resize(std::size_t(l.outputs));
        for (float& x : l.biases) x = uniform(r);
        layers.push_back(std::move(l));
    }
    return layers;
}

} // namespace axon::nn

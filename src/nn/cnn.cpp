// SPDX-License-Identifier: GPL-3.0-or-later
// The convolutional float model: padded 3x3 convolutions, flatten, dense layers.
#include "nn/cnn.h"

#include <algorithm>
#include <cmath>

#include "nn/float_lanes.h"
#include "util/prng.h"

namespace axon::nn {
namespace {

constexpr int kBoard = 8;
constexpr int kPlane = kBoard * kBoard;
constexpr int kTaps = kConvKernel * kConvKernel;

} // namespace

void ConvLayer::forward(const float* in, float* out) const {
    // Unrolled patches ("im2col"): row k = (channel, ky, kx) holds, for each of the 64 output
    // squares, the input value that tap reads (zero off the board). An output plane is then
    // the sum of these rows weighted by the filter, a fixed 64-wide loop whose accumulators
    // stay in registers; the weight layout [out][in][ky][kx] is already row k's order.
    const int taps = inChannels * kTaps;
    thread_local std::vector<float> patches;
    patches.assign(std::size_t(taps) * kPlane, 0.0f);
    for (int i = 0; i < inChannels; ++i)
        for (int ky = 0; ky < kConvKernel; ++ky)
            for (int kx = 0; kx < kConvKernel; ++kx) {
                float* row =
                    patches.data() + std::size_t((i * kTaps + ky * kConvKernel + kx) * kPlane);
                for (int y = 0; y < kBoard; ++y) {
                    const int sy = y + ky - 1;
                    if (sy < 0 || sy >= kBoard) continue;
                    for (int x = 0; x < kBoard; ++x) {
                        const int sx = x + kx - 1;
                        if (sx >= 0 && sx < kBoard)
                            row[y * kBoard + x] = in[i * kPlane + sy * kBoard + sx];
                    }
                }
            }
    constexpr int kVectors = kPlane / kLanes;
    for (int o = 0; o < outChannels; ++o) {
        Lanes acc[kVectors];
        for (Lanes& a : acc) a = broadcast(biases[std::size_t(o)]);
        const float* w = weights.data() + std::size_t(o) * std::size_t(taps);
        for (int k = 0; k < taps; ++k) {
            const Lanes wk = broadcast(w[k]);
            const float* row = patches.data() + std::size_t(k) * kPlane;
            for (int v = 0; v < kVectors; ++v) acc[v] += wk * loadLanes(row + v * kLanes);
        }
        float* plane = out + o * kPlane;
        for (int v = 0; v < kVectors; ++v) storeLanes(plane + v * kLanes, acc[v]);
        applyActivation(activation, {plane, std::size_t(kPlane)});
    }
}

std::optional<std::string> validateConvLayers(std::span<const ConvLayer> convs, int planes) {
    if (convs.empty()) return std::string("no convolution layers");
    int channels = planes;
    for (std::size_t k = 0; k < convs.size(); ++k) {
        const ConvLayer& c = convs[k];
        const std::string which = "convolution " + std::to_string(k);
        if (c.inChannels != channels)
            return which + " takes " + std::to_string(c.inChannels) + " channels but receives " +
                   std::to_string(channels);
        if (c.outChannels < 1) return which + " has no output channels";
        if (c.weights.size() != std::size_t(c.outChannels) * std::size_t(c.inChannels) * kTaps ||
            c.biases.size() != std::size_t(c.outChannels))
            return which + ": parameter counts do not match " + std::to_string(c.outChannels) +
                   " x " + std::to_string(c.inChannels) + " x 3 x 3";
        channels = c.outChannels;
    }
    return std::nullopt;
}

util::Result<Cnn> Cnn::create(BoardEncoding encoding, std::vector<ConvLayer> convs,
                              std::vector<DenseLayer> dense, OutputHead head) {
    const EncodingShape shape = encodingShape(encoding);
    if (auto e = validateConvLayers(convs, shape.planes)) return util::makeError(*e);
    const int flattened = convs.back().outChannels * kPlane + shape.scalars;
    if (auto e = validateDenseLayers(dense, flattened))
        return util::makeError(
            *e + " (the flattened convolution output: " + std::to_string(convs.back().outChannels) +
            " channels x 64 + " + std::to_string(shape.scalars) +
            " scalar features = " + std::to_string(flattened) + ")");
    Cnn m;
    m.m_encoding = encoding;
    m.m_convs = std::move(convs);
    m.m_dense = std::move(dense);
    m.m_head = head;
    return m;
}

int Cnn::flattenedSize() const {
    return m_convs.back().outChannels * kPlane + encodingShape(m_encoding).scalars;
}

float Cnn::forward(std::span<const float> input) const {
    thread_local std::vector<float> a, b;
    const EncodingShape shape = encodingShape(m_encoding);
    const float* in = input.data();
    std::vector<float>* bufs[2] = {&a, &b};
    for (std::size_t k = 0; k < m_convs.size(); ++k) {
        std::vector<float>& out = *bufs[k % 2];
        // Room for the scalar features behind the last convolution's planes.
        out.resize(std::size_t(m_convs[k].outChannels) * kPlane + std::size_t(shape.scalars));
        m_convs[k].forward(in, out.data());
        in = out.data();
    }
    std::vector<float>& flat = *bufs[(m_convs.size() - 1) % 2];
    const int planeValues = m_convs.back().outChannels * kPlane;
    std::copy_n(input.data() + shape.planeValues(), shape.scalars, flat.data() + planeValues);
    thread_local std::vector<float> c, d;
    return forwardDense(m_dense, {flat.data(), std::size_t(flattenedSize())}, c, d);
}

float Cnn::evaluate(const chess::Position& pos) const {
    thread_local std::vector<float> input;
    input.resize(std::size_t(encodingShape(m_encoding).size()));
    encodeBoard(m_encoding, pos, input);
    return m_head.centipawns(forward(input), pos.sideToMove());
}

std::string Cnn::describe() const {
    std::string s = "cnn over " + std::string(encodingName(m_encoding)) + ": " +
                    std::to_string(encodingShape(m_encoding).planes) + " planes";
    for (const ConvLayer& c : m_convs)
        s += " -> conv3x3 " + std::to_string(c.outChannels) + " (" +
             std::string(activationName(c.activation)) + ")";
    return s + ", flatten -> " + describeDense(m_dense, flattenedSize()) + ", " +
           describeHead(m_head);
}

std::vector<ConvLayer> makeRandomConvLayers(std::span<const int> channels,
                                            FloatActivation activation, std::uint64_t seed) {
    util::Prng rng(seed);
    auto uniform = [&](float r) { return r * (float(rng.next() >> 40) / float(1 << 23) - 1.0f); };
    std::vector<ConvLayer> convs;
    for (std::size_t k = 1; k < channels.size(); ++k) {
        ConvLayer c;
        c.inChannels = channels[k - 1];
        c.outChannels = channels[k];
        c.activation = activation;
        const float r = 1.0f / std::sqrt(float(c.inChannels * kTaps));
        c.weights.resize(std::size_t(c.outChannels) * std::size_t(c.inChannels) * kTaps);
        for (float& w : c.weights) w = uniform(r);
        c.biases.resize(std::size_t(c.outChannels));
        for (float& x : c.biases) x = uniform(r);
        convs.push_back(std::move(c));
    }
    return convs;
}

} // namespace axon::nn

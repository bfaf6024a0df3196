// SPDX-License-Identifier: GPL-3.0-or-later
// Network validation and deterministic random networks.
#include "nn/network.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "nn/layer_stack.h"

#include "util/prng.h"

namespace axon::nn {

std::optional<std::string> validateArchitecture(const Architecture& a) {
    if (a.hidden < kHiddenMultiple || a.hidden > kMaxHidden || a.hidden % kHiddenMultiple != 0)
        return "hidden size " + std::to_string(a.hidden) + " is not a multiple of " +
               std::to_string(kHiddenMultiple) + " in [" + std::to_string(kHiddenMultiple) + ", " +
               std::to_string(kMaxHidden) + "]";
    if (a.activation != Activation::SCReLU)
        return "unknown activation " + std::to_string(int(a.activation));
    if (a.inputBuckets < 1 || a.inputBuckets > kMaxInputBuckets)
        return "input bucket count " + std::to_string(a.inputBuckets) + " is not in [1, " +
               std::to_string(kMaxInputBuckets) + "]";
    for (int s = 0; s < chess::kNumSquares; ++s)
        if (a.bucketMap[s] >= a.inputBuckets)
            return "king bucket map entry " + std::to_string(s) + " is " +
                   std::to_string(a.bucketMap[s]) + ", not below the bucket count " +
                   std::to_string(a.inputBuckets);
    if (a.outputBuckets < 1 || a.outputBuckets > kMaxOutputBuckets)
        return "output bucket count " + std::to_string(a.outputBuckets) + " is not in [1, " +
               std::to_string(kMaxOutputBuckets) + "]";
    // QA bounds the activation's inputs, which are squared in 32 bits; QB and scale only need
    // to be positive.
    if (a.qa < 1 || a.qa > 1023) return "QA " + std::to_string(a.qa) + " is not in [1, 1023]";
    if (a.qb < 1 || a.qb > 32767) return "QB " + std::to_string(a.qb) + " is not in [1, 32767]";
    if (a.scale < 1 || a.scale > 1'000'000)
        return "scale " + std::to_string(a.scale) + " is not in [1, 1000000]";
    if (a.l1 == 0 && a.l2 != 0) return "an L2 size without an L1 layer";
    if (a.layered()) {
        if (a.hidden % kLayeredHiddenMultiple != 0)
            return "hidden size " + std::to_string(a.hidden) +
                   " of a layered network is not a multiple of " +
                   std::to_string(kLayeredHiddenMultiple);
        if (a.l1 < kL1Multiple || a.l1 > kMaxL1 || a.l1 % kL1Multiple != 0)
            return "L1 size " + std::to_string(a.l1) + " is not a multiple of " +
                   std::to_string(kL1Multiple) + " in [" + std::to_string(kL1Multiple) + ", " +
                   std::to_string(kMaxL1) + "]";
        // The pairwise product shifts clamp(x, 0, QA) left by 7 in 16 bits (kernels.h), and the
        // stack's units are constants (layer_stack.h).
        if (a.qa != kLayeredQa)
            return "QA " + std::to_string(a.qa) + " of a layered network is not " +
                   std::to_string(kLayeredQa);
        if (a.l2 < 1 || a.l2 > kMaxL2)
            return "L2 size " + std::to_string(a.l2) + " is not in [1, " + std::to_string(kMaxL2) +
                   "]";
    }
    return std::nullopt;
}

std::optional<std::string> Network::validate() const {
    if (auto e = validateArchitecture(arch)) return e;
    if (ftWeights.size() != arch.ftWeightCount() || ftBiases.size() != std::size_t(arch.hidden) ||
        outWeights.size() != arch.outWeightCount() ||
        outBiases.size() != std::size_t(arch.outputBuckets) ||
        l1Weights.size() != arch.l1WeightCount() || l1Biases.size() != arch.l1BiasCount() ||
        l2Weights.size() != arch.l2WeightCount() || l2Biases.size() != arch.l2BiasCount())
        return std::string("parameter counts do not match the architecture");
    // The stack's sums must fit in 32 bits (layer_stack.h); its output layer has no 16-bit
    // product to bound.
    if (arch.layered()) return checkLayerStackBounds(*this);
    // The activation multiplies clamp(x, 0, QA) by an output weight in 16 bits before squaring
    // completes in 32 (kernels.h), so |weight| * QA must fit in int16.
    for (std::size_t i = 0; i < outWeights.size(); ++i)
        if (std::abs(int(outWeights[i])) * arch.qa > 32767)
            return "output weight " + std::to_string(i) + " (" + std::to_string(outWeights[i]) +
                   ") times QA " + std::to_string(arch.qa) + " does not fit in 16 bits";
    return std::nullopt;
}

Network makeRandomNetwork(const Architecture& arch, std::uint64_t seed) {
    util::Prng rng(seed);
    // Uniform in [-r, r].
    auto uniform = [&](int r) { return int(rng.below(std::uint64_t(2 * r + 1))) - r; };
    Network net;
    net.arch = arch;
    // Magnitudes like a trained net's: feature weights about QA/4 (so sums of ~30 active
    // features span the activation's range), output weights within the 16-bit product bound.
    const int ftRange = arch.qa / 4 + 1;
    const int outRange = 32767 / arch.qa < arch.qb ? 32767 / arch.qa : arch.qb;
    net.ftWeights.resize(arch.ftWeightCount());
    for (auto& w : net.ftWeights) w = std::int16_t(uniform(ftRange));
    net.ftBiases.resize(std::size_t(arch.hidden));
    for (auto& b : net.ftBiases) b = std::int16_t(uniform(ftRange));
    net.outWeights.resize(arch.outWeightCount());
    for (auto& w : net.outWeights) w = std::int16_t(uniform(outRange));
    net.outBiases.resize(std::size_t(arch.outputBuckets));
    for (auto& b : net.outBiases) b = uniform(arch.qa * arch.qb);
    if (arch.layered()) {
        // Float magnitudes of a trained stack: layer weights about 1/sqrt(inputs), so each
        // layer's outputs span the activation's range rather than sitting clipped at 0 or 1;
        // biases a little positive so about half the units are active.
        auto layerWeight = [&](int fanIn) {
            const int r = int(2.0 * kLayerWeightScale / std::sqrt(double(fanIn))) + 1;
            return std::int16_t(uniform(r));
        };
        // The first layer's in 1/kL1WeightScale, bytes.
        const int l1Range =
            std::min(127, int(2.0 * kL1WeightScale / std::sqrt(double(arch.hidden / 4))) + 1);
        const double s1 = layerStackL1Scale(arch);
        net.l1Weights.resize(arch.l1WeightCount());
        for (auto& w : net.l1Weights) w = std::int8_t(uniform(l1Range));
        net.l1Biases.resize(arch.l1BiasCount());
        for (auto& b : net.l1Biases) b = std::int32_t(uniform(int(s1 / 2)));
        net.l2Weights.resize(arch.l2WeightCount());
        for (auto& w : net.l2Weights) w = layerWeight(arch.l1);
        net.l2Biases.resize(arch.l2BiasCount());
        for (auto& b : net.l2Biases) b = std::int32_t(uniform(int(kLayerActivationScale / 2)));
        net.outWeights.resize(arch.outWeightCount());
        for (auto& w : net.outWeights) w = layerWeight(arch.l2);
        for (auto& b : net.outBiases) b = std::int32_t(uniform(int(kLayerActivationScale / 4)));
    }
    return net;
}

} // namespace axon::nn

// SPDX-License-Identifier: GPL-3.0-or-later
// Network validation and deterministic random networks.
#include "nn/network.h"

#include <cstdlib>

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
    return std::nullopt;
}

std::optional<std::string> Network::validate() const {
    if (auto e = validateArchitecture(arch)) return e;
    if (ftWeights.size() != arch.ftWeightCount() || ftBiases.size() != std::size_t(arch.hidden) ||
        outWeights.size() != arch.outWeightCount() ||
        outBiases.size() != std::size_t(arch.outputBuckets))
        return std::string("parameter counts do not match the architecture");
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
    return net;
}

} // namespace axon::nn

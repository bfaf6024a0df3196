// SPDX-License-Identifier: GPL-3.0-or-later
// A network's quantised parameters, laid out as the file stores them, and the output layer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nn/arch.h"

namespace axon::nn {

struct Network {
    Architecture arch;
    // Feature transformer: row f (hidden values) of feature f, then one bias per hidden unit.
    std::vector<std::int16_t> ftWeights;
    std::vector<std::int16_t> ftBiases;
    // Output layer per output bucket: hidden weights for the side to move's accumulator, then
    // hidden weights for the other side's; one bias per bucket in units of 1/(QA*QB).
    std::vector<std::int16_t> outWeights;
    std::vector<std::int32_t> outBiases;
    // The layer stack (arch.layered(), layer_stack.h for the units), per output bucket:
    // l1 units' 8-bit weights of `hidden` inputs (the side to move's pairwise products, then the
    // other side's), interleaved by input quad (l1WeightIndex in layer_stack.h), and l1 biases; l1
    // rows of l2 weights (input-major: row j holds input j's weight into every L2 unit, so the
    // layer is a sum of scaled rows) and l2 biases. The output layer above is then l2 weights and
    // one bias per bucket (in 1/QH, layer_stack.h). Empty for a network without the stack.
    std::vector<std::int8_t> l1Weights;
    std::vector<std::int32_t> l1Biases;
    std::vector<std::int16_t> l2Weights;
    std::vector<std::int32_t> l2Biases;

    bool operator==(const Network&) const = default;

    const std::int16_t* ftRow(int feature) const {
        return ftWeights.data() + std::size_t(feature) * std::size_t(arch.hidden);
    }
    const std::int16_t* outRow(int bucket) const {
        return outWeights.data() +
               std::size_t(bucket) * std::size_t(arch.layered() ? arch.l2 : 2 * arch.hidden);
    }

    // What makes this network unusable, or nothing: architecture limits, parameter counts,
    // and output weights small enough for the activation's 16-bit products (see kernels.h).
    std::optional<std::string> validate() const;
};

// Checks only the architecture (shared with the file header reader).
std::optional<std::string> validateArchitecture(const Architecture& arch);

// A deterministic network with random parameters in ranges a trained network has, for tests
// and benchmarks until a trained network exists.
Network makeRandomNetwork(const Architecture& arch, std::uint64_t seed);

} // namespace axon::nn

// SPDX-License-Identifier: GPL-3.0-or-later
// Loading the starting network of `axon train --init`.
#include "train/initial_network.h"

#include "nn/network_file.h"
#include "nn/safetensors_network.h"

namespace axon::train {

util::Result<nn::FloatNetwork> readInitialNetwork(const std::string& path) {
    if (path.ends_with(".safetensors")) {
        auto net = nn::readFloatNetworkSafetensors(path);
        if (!net) return util::makeError("--init " + path + ": " + net.error());
        return std::move(*net);
    }
    auto net = nn::readNetworkFile(path);
    if (!net) return util::makeError("--init " + path + ": " + net.error());
    return nn::dequantise(*net);
}

std::string describeArchitecture(const nn::Architecture& arch) {
    return "hidden " + std::to_string(arch.hidden) + (arch.mirror ? ", mirrored, " : ", ") +
           std::to_string(arch.inputBuckets) + " input bucket(s), " +
           std::to_string(arch.outputBuckets) + " output bucket(s), QA " + std::to_string(arch.qa) +
           ", QB " + std::to_string(arch.qb) + ", scale " + std::to_string(arch.scale) +
           (arch.layered()
                ? ", layers " + std::to_string(arch.l1) + " -> " + std::to_string(arch.l2)
                : "");
}

} // namespace axon::train

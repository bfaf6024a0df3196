// SPDX-License-Identifier: GPL-3.0-or-later
// Resolving EvalFile values; the embedded network is parsed on first use.
#include "engine/eval_file.h"

#include <cstdio>

#include "nn/embedded_net.h"
#include "nn/float_model.h"
#include "nn/network_file.h"

namespace axon::engine {

std::shared_ptr<const nn::Network> embeddedNetwork() {
    static const std::shared_ptr<const nn::Network> net =
        []() -> std::shared_ptr<const nn::Network> {
        const auto bytes = nn::embeddedNetworkBytes();
        if (bytes.empty()) return nullptr;
        auto parsed = nn::readNetwork(bytes);
        if (!parsed) {
            // Only a broken build gets here (the build embeds the file as it is); play on with
            // the hand-written evaluation rather than not at all.
            std::fprintf(stderr, "axon: the embedded network is invalid: %s\n",
                         parsed.error().c_str());
            return nullptr;
        }
        return std::make_shared<const nn::Network>(std::move(*parsed));
    }();
    return net;
}

namespace {

FloatModelLoader& floatModelLoader() {
    static FloatModelLoader loader;
    return loader;
}

} // namespace

void setFloatModelLoader(FloatModelLoader loader) { floatModelLoader() = std::move(loader); }

util::Result<eval::EvalSource> loadEvalSource(const std::string& value) {
    if (value.empty() || value == kEmbeddedEvalName) return eval::EvalSource{embeddedNetwork(), {}};
    if (value == kHandWrittenEvalName) return eval::EvalSource{};
    if (value.ends_with(".safetensors")) {
        if (!floatModelLoader())
            return util::makeError("this build cannot load float models (.safetensors)");
        auto model = floatModelLoader()(value);
        if (!model) return util::makeError(model.error());
        return eval::EvalSource{nullptr, std::move(*model)};
    }
    auto net = nn::readNetworkFile(value);
    if (!net) return util::makeError(net.error());
    return eval::EvalSource{std::make_shared<const nn::Network>(std::move(*net)), {}};
}

std::string describeEvalSource(const eval::EvalSource& source) {
    if (source.floatModel) return "float model: " + source.floatModel->describe();
    if (!source.network) return "hand-written evaluation";
    const nn::Architecture& a = source.network->arch;
    std::string s = "network (" + std::to_string(nn::kFeaturesPerBucket * a.inputBuckets) + "->" +
                    std::to_string(a.hidden) + ")x2->" + std::to_string(a.outputBuckets);
    if (a.mirror) s += ", mirrored";
    if (source.network == embeddedNetwork()) s = "embedded " + s;
    return s;
}

} // namespace axon::engine

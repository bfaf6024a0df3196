// SPDX-License-Identifier: GPL-3.0-or-later
// Writing and reading the perspective network as safetensors, metadata included.
#include "nn/safetensors_network.h"

#include "util/atomic_file.h"

#include <charconv>
#include <cmath>

#include "nn/network.h"

namespace axon::nn {
namespace {

constexpr const char* kActivationName = "screlu";

util::Result<long long> metadataInt(const std::map<std::string, std::string>& meta,
                                    const std::string& key) {
    const auto it = meta.find(key);
    if (it == meta.end()) return util::makeError("metadata lacks '" + key + "'");
    long long v = 0;
    const std::string& s = it->second;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
        return util::makeError("metadata '" + key + "' is '" + s + "', not an integer");
    return v;
}

util::Result<int> metadataIntIn(const std::map<std::string, std::string>& meta,
                                const std::string& key, long long lo, long long hi) {
    auto v = metadataInt(meta, key);
    if (!v) return util::makeError(v.error());
    if (*v < lo || *v > hi)
        return util::makeError("metadata '" + key + "' is " + std::to_string(*v) + ", not in [" +
                               std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return int(*v);
}

util::Result<std::array<std::uint8_t, chess::kNumSquares>>
parseBucketMap(const std::map<std::string, std::string>& meta) {
    const auto it = meta.find("bucket_map");
    if (it == meta.end()) return util::makeError("metadata lacks 'bucket_map'");
    std::array<std::uint8_t, chess::kNumSquares> map{};
    const std::string& s = it->second;
    const char* p = s.data();
    const char* end = s.data() + s.size();
    for (int sq = 0; sq < chess::kNumSquares; ++sq) {
        if (sq > 0) {
            if (p == end || *p != ',')
                return util::makeError("metadata 'bucket_map' has " + std::to_string(sq) +
                                       " entries, expected 64 comma-separated bucket numbers");
            ++p;
        }
        unsigned v = 0;
        const auto [next, ec] = std::from_chars(p, end, v);
        if (ec != std::errc() || v > 255)
            return util::makeError("metadata 'bucket_map' entry " + std::to_string(sq) +
                                   " is not a bucket number");
        map[std::size_t(sq)] = std::uint8_t(v);
        p = next;
    }
    if (p != end) return util::makeError("metadata 'bucket_map' has more than 64 entries");
    return map;
}

} // namespace

std::map<std::string, std::string> perspectiveMetadata(const Architecture& a) {
    std::string map;
    for (int s = 0; s < chess::kNumSquares; ++s)
        map += (s ? "," : "") + std::to_string(a.bucketMap[std::size_t(s)]);
    std::map<std::string, std::string> meta = {
        {"format", kPerspectiveFormat},
        {"version", std::to_string(kPerspectiveFormatVersion)},
        {"inputs", std::to_string(a.inputCount())},
        {"hidden", std::to_string(a.hidden)},
        {"activation", kActivationName},
        {"mirror", a.mirror ? "true" : "false"},
        {"input_buckets", std::to_string(a.inputBuckets)},
        {"bucket_map", map},
        {"output_buckets", std::to_string(a.outputBuckets)},
        {"qa", std::to_string(a.qa)},
        {"qb", std::to_string(a.qb)},
        {"scale", std::to_string(a.scale)},
    };
    if (a.layered()) {
        meta["l1"] = std::to_string(a.l1);
        meta["l2"] = std::to_string(a.l2);
    }
    return meta;
}

bool isPerspectiveNetwork(const Safetensors& file) {
    const auto it = file.metadata().find("format");
    return it != file.metadata().end() && it->second == kPerspectiveFormat;
}

util::Result<FloatNetwork> parseFloatNetwork(const Safetensors& file) {
    const auto& meta = file.metadata();
    if (!isPerspectiveNetwork(file))
        return util::makeError(std::string("metadata 'format' is not '") + kPerspectiveFormat +
                               "'");
    auto version = metadataInt(meta, "version");
    if (!version) return util::makeError(version.error());
    if (*version != kPerspectiveFormatVersion)
        return util::makeError("format version " + std::to_string(*version) +
                               " is not supported (this build reads " +
                               std::to_string(kPerspectiveFormatVersion) + ")");
    const auto activation = meta.find("activation");
    if (activation == meta.end() || activation->second != kActivationName)
        return util::makeError(std::string("metadata 'activation' must be '") + kActivationName +
                               "'");
    const auto mirror = meta.find("mirror");
    if (mirror == meta.end() || (mirror->second != "true" && mirror->second != "false"))
        return util::makeError("metadata 'mirror' must be 'true' or 'false'");

    Architecture a;
    a.mirror = mirror->second == "true";
    // Wide ranges here; validateArchitecture applies the real limits with its own messages.
    const std::pair<const char*, int*> ints[] = {{"hidden", &a.hidden},
                                                 {"input_buckets", &a.inputBuckets},
                                                 {"output_buckets", &a.outputBuckets},
                                                 {"qa", &a.qa},
                                                 {"qb", &a.qb},
                                                 {"scale", &a.scale}};
    for (const auto& [key, target] : ints) {
        auto v = metadataIntIn(meta, key, 0, 1 << 30);
        if (!v) return util::makeError(v.error());
        *target = *v;
    }
    // The layer stack: both sizes or neither (a file from before the stack has neither).
    if (meta.contains("l1") || meta.contains("l2")) {
        for (const auto& [key, target] : {std::pair{"l1", &a.l1}, std::pair{"l2", &a.l2}}) {
            auto v = metadataIntIn(meta, key, 1, 1 << 30);
            if (!v) return util::makeError(v.error());
            *target = *v;
        }
    }
    auto map = parseBucketMap(meta);
    if (!map) return util::makeError(map.error());
    a.bucketMap = *map;
    if (auto e = validateArchitecture(a)) return util::makeError(*e);
    if (meta.contains("inputs")) {
        auto inputs = metadataInt(meta, "inputs");
        if (!inputs) return util::makeError(inputs.error());
        if (std::uint64_t(*inputs) != a.inputCount())
            return util::makeError("metadata 'inputs' is " + std::to_string(*inputs) +
                                   " but the architecture has " + std::to_string(a.inputCount()));
    }

    FloatNetwork net;
    net.arch = a;
    const std::uint64_t h = std::uint64_t(a.hidden), ob = std::uint64_t(a.outputBuckets);
    const std::uint64_t l1 = std::uint64_t(a.l1), l2 = std::uint64_t(a.l2);
    std::vector<std::pair<const char*, std::vector<float>*>> tensors = {
        {"ft.weight", &net.ftWeights},
        {"ft.bias", &net.ftBiases},
        {"out.weight", &net.outWeights},
        {"out.bias", &net.outBiases}};
    std::vector<std::vector<std::uint64_t>> shapes = {
        {a.inputCount(), h}, {h}, {ob, a.layered() ? l2 : 2 * h}, {ob}};
    if (a.layered()) {
        tensors.insert(tensors.end(), {{"l1.weight", &net.l1Weights},
                                       {"l1.bias", &net.l1Biases},
                                       {"l2.weight", &net.l2Weights},
                                       {"l2.bias", &net.l2Biases}});
        shapes.insert(shapes.end(), {{ob, l1, h}, {ob, l1}, {ob, l1, l2}, {ob, l2}});
    }
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        auto values = file.finiteFloats(tensors[i].first, shapes[i]);
        if (!values) return util::makeError(values.error());
        *tensors[i].second = std::move(*values);
    }
    return net;
}

util::Result<std::vector<std::uint8_t>> serializeFloatNetworkSafetensors(const FloatNetwork& net) {
    if (!net.sizesMatch())
        return util::makeError("float network parameter counts do not match its architecture");
    const Architecture& a = net.arch;
    const std::uint64_t h = std::uint64_t(a.hidden), ob = std::uint64_t(a.outputBuckets);
    const std::uint64_t l1 = std::uint64_t(a.l1), l2 = std::uint64_t(a.l2);
    std::vector<TensorToWrite> tensors = {
        {"ft.weight", {a.inputCount(), h}, net.ftWeights},
        {"ft.bias", {h}, net.ftBiases},
        {"out.weight", {ob, a.layered() ? l2 : 2 * h}, net.outWeights},
        {"out.bias", {ob}, net.outBiases},
    };
    if (a.layered()) {
        tensors.push_back({"l1.weight", {ob, l1, h}, net.l1Weights});
        tensors.push_back({"l1.bias", {ob, l1}, net.l1Biases});
        tensors.push_back({"l2.weight", {ob, l1, l2}, net.l2Weights});
        tensors.push_back({"l2.bias", {ob, l2}, net.l2Biases});
    }
    return serializeSafetensors(tensors, perspectiveMetadata(a));
}

std::optional<std::string> writeFloatNetworkSafetensors(const FloatNetwork& net,
                                                        const std::string& path) {
    auto bytes = serializeFloatNetworkSafetensors(net);
    if (!bytes) return bytes.error();
    return util::writeFileAtomically(path, *bytes);
}

util::Result<FloatNetwork> readFloatNetworkSafetensors(const std::string& path) {
    auto file = readSafetensorsFile(path);
    if (!file) return util::makeError(file.error());
    auto net = parseFloatNetwork(*file);
    if (!net) return util::makeError(path + ": " + net.error());
    return net;
}

} // namespace axon::nn

// SPDX-License-Identifier: GPL-3.0-or-later
// The perspective network through safetensors: export then import gives the identical network
// file and the same evaluations; damaged metadata or tensors are refused with a message.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "chess/fen.h"
#include "nn/accumulator.h"
#include "nn/float_model.h"
#include "nn/network_file.h"
#include "nn/safetensors_network.h"
#include "nn_test_helpers.h"

using namespace axon;

namespace {

nn::Safetensors parsed(const std::vector<std::uint8_t>& bytes) {
    auto st = nn::parseSafetensors(bytes);
    EXPECT_TRUE(st.ok()) << (st ? "" : st.error());
    return std::move(*st);
}

// A file with the network's tensors and the given metadata, one tensor optionally replaced.
std::vector<std::uint8_t> withChanges(const nn::FloatNetwork& f,
                                      std::map<std::string, std::string> metadata,
                                      const std::string& replaceName = "",
                                      std::vector<std::uint64_t> replaceShape = {},
                                      std::span<const float> replaceData = {}) {
    const std::uint64_t h = std::uint64_t(f.arch.hidden), ob = std::uint64_t(f.arch.outputBuckets);
    std::vector<nn::TensorToWrite> tensors = {
        {"ft.weight", {f.arch.inputCount(), h}, f.ftWeights},
        {"ft.bias", {h}, f.ftBiases},
        {"out.weight", {ob, 2 * h}, f.outWeights},
        {"out.bias", {ob}, f.outBiases},
    };
    for (auto& t : tensors)
        if (t.name == replaceName) t = {t.name, replaceShape, replaceData};
    auto bytes = nn::serializeSafetensors(tensors, metadata);
    EXPECT_TRUE(bytes.ok());
    return *bytes;
}

} // namespace

TEST(SafetensorsNetwork, ExportImportIsByteIdenticalAndEvaluatesTheSame) {
    const auto positions = test::playPositions();
    ASSERT_GT(positions.size(), 10u);
    for (const test::NetVariant& v : test::netVariants()) {
        SCOPED_TRACE(v.name);
        const nn::Network net = nn::makeRandomNetwork(test::makeArch(v), 31);
        const auto original = nn::serializeNetwork(net);
        auto exported = nn::serializeFloatNetworkSafetensors(nn::dequantise(net));
        ASSERT_TRUE(exported.ok()) << exported.error();
        auto imported = nn::parseFloatNetwork(parsed(*exported));
        ASSERT_TRUE(imported.ok()) << imported.error();
        EXPECT_EQ(imported->arch, net.arch);
        const nn::Network back = nn::quantise(*imported);
        EXPECT_EQ(nn::serializeNetwork(back), original);
        for (const chess::Position& pos : positions)
            ASSERT_EQ(nn::evaluateReference(back, pos), nn::evaluateReference(net, pos))
                << chess::toFen(pos);
    }
}

TEST(SafetensorsNetwork, FileFunctionsRoundTrip) {
    nn::Architecture arch = test::makeArch({"h64", 64, 4, true, 8});
    const nn::Network net = nn::makeRandomNetwork(arch, 5);
    const std::string path = ::testing::TempDir() + "axon_float_network.safetensors";
    ASSERT_EQ(nn::writeFloatNetworkSafetensors(nn::dequantise(net), path), std::nullopt);
    auto f = nn::readFloatNetworkSafetensors(path);
    ASSERT_TRUE(f.ok()) << f.error();
    EXPECT_EQ(nn::quantise(*f), net);
    // The float-model loader also takes a perspective network and evaluates it in float.
    auto model = nn::loadFloatModel(path);
    ASSERT_TRUE(model.ok()) << model.error();
    const chess::Position start =
        test::fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    EXPECT_EQ((*model)->evaluate(start), nn::evaluateFloat(*f, start));
    EXPECT_NE((*model)->describe().find("perspective network"), std::string::npos);
    std::remove(path.c_str());
    EXPECT_FALSE(nn::readFloatNetworkSafetensors(path).ok());
}

TEST(SafetensorsNetwork, RefusesInconsistentFiles) {
    nn::Architecture arch;
    arch.hidden = 32;
    arch.outputBuckets = 2;
    const nn::FloatNetwork f = nn::dequantise(nn::makeRandomNetwork(arch, 3));
    const auto meta = nn::perspectiveMetadata(arch);
    auto errorOf = [](const std::vector<std::uint8_t>& bytes) {
        auto st = nn::parseSafetensors(bytes);
        if (!st) return "file: " + st.error();
        auto net = nn::parseFloatNetwork(*st);
        return net ? std::string("(accepted)") : net.error();
    };
    auto changed = [&](const std::string& key, const std::string& value) {
        auto m = meta;
        if (value.empty())
            m.erase(key);
        else
            m[key] = value;
        return withChanges(f, m);
    };
    EXPECT_EQ(errorOf(withChanges(f, meta)), "(accepted)");
    EXPECT_NE(errorOf(changed("format", "other")).find("is not 'axon-perspective'"),
              std::string::npos);
    EXPECT_NE(errorOf(changed("version", "2")).find("version 2 is not supported"),
              std::string::npos);
    EXPECT_NE(errorOf(changed("hidden", "")).find("lacks 'hidden'"), std::string::npos);
    EXPECT_NE(errorOf(changed("hidden", "3x")).find("not an integer"), std::string::npos);
    EXPECT_NE(errorOf(changed("hidden", "48")).find("not a multiple of"), std::string::npos);
    EXPECT_NE(errorOf(changed("mirror", "yes")).find("'mirror' must be"), std::string::npos);
    EXPECT_NE(errorOf(changed("activation", "relu")).find("'activation' must be"),
              std::string::npos);
    EXPECT_NE(errorOf(changed("bucket_map", "0,0")).find("has 2 entries"), std::string::npos);
    EXPECT_NE(errorOf(changed("bucket_map", "")).find("lacks 'bucket_map'"), std::string::npos);
    EXPECT_NE(errorOf(changed("inputs", "99")).find("metadata 'inputs' is 99"), std::string::npos);
    // hidden 64 in the metadata, tensors still for 32.
    EXPECT_NE(errorOf(changed("hidden", "64")).find("has shape [768, 32], expected [768, 64]"),
              std::string::npos);
    std::vector<float> shortBias(16, 0.0f);
    EXPECT_NE(errorOf(withChanges(f, meta, "ft.bias", {16}, shortBias))
                  .find("'ft.bias' has shape [16], expected [32]"),
              std::string::npos);
    std::vector<float> nanBias = f.ftBiases;
    nanBias[5] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_NE(errorOf(withChanges(f, meta, "ft.bias", {32}, nanBias))
                  .find("non-finite value at "
                        "index 5"),
              std::string::npos);
}

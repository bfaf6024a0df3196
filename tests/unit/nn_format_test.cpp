// SPDX-License-Identifier: GPL-3.0-or-later
// The network file: round trips, and every kind of damaged file rejected with a message while
// the previously loaded network stays.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "nn/layer_stack.h"
#include "nn/network_file.h"
#include "nn_test_helpers.h"
#include "util/prng.h"

namespace axon::test {
namespace {

using nn::Network;

std::string tempPath(const std::string& name) {
    return (std::filesystem::temp_directory_path() /
            ("axon-nn-" + std::to_string(::getpid()) + "-" + name))
        .string();
}

void writeBytes(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// Expects the bytes to be rejected with a message containing `what` (any message when empty).
void expectRejected(const std::vector<std::uint8_t>& bytes, const std::string& what,
                    const std::string& context) {
    auto net = nn::readNetwork(bytes);
    ASSERT_FALSE(net.ok()) << context;
    EXPECT_FALSE(net.error().empty()) << context;
    if (!what.empty()) {
        EXPECT_NE(net.error().find(what), std::string::npos) << context << ": " << net.error();
    }
}

Network smallNet(std::uint64_t seed = 1) {
    return nn::makeRandomNetwork(makeArch({"t", 32, 4, true, 8}), seed);
}

TEST(NnFormat, RoundTripEveryVariant) {
    for (const NetVariant& v : netVariants()) {
        const Network net = nn::makeRandomNetwork(makeArch(v), 42);
        ASSERT_FALSE(net.validate()) << v.name;
        const auto bytes = nn::serializeNetwork(net);
        auto back = nn::readNetwork(bytes);
        ASSERT_TRUE(back.ok()) << v.name << ": " << back.error();
        EXPECT_TRUE(*back == net) << v.name;
        EXPECT_EQ(nn::serializeNetwork(*back), bytes) << v.name;

        const std::string path = tempPath(v.name);
        ASSERT_FALSE(nn::writeNetworkFile(net, path));
        auto fromFile = nn::readNetworkFile(path);
        ASSERT_TRUE(fromFile.ok()) << fromFile.error();
        EXPECT_TRUE(*fromFile == net) << v.name;
        auto header = nn::readNetHeader(bytes);
        ASSERT_TRUE(header.ok());
        EXPECT_EQ(header->arch, net.arch);
        EXPECT_EQ(header->hash, nn::contentHash(bytes));
        EXPECT_EQ(header->payloadBytes + nn::kNetHeaderSize, bytes.size());
        std::filesystem::remove(path);
    }
}

TEST(NnFormat, RandomNetworksAreSeeded) {
    EXPECT_TRUE(smallNet(7) == smallNet(7));
    EXPECT_FALSE(smallNet(7) == smallNet(8));
}

// The header is little-endian at fixed offsets (docs/nnue-format.md): pin a few of them so a
// change of layout cannot pass unnoticed.
TEST(NnFormat, HeaderLayout) {
    const auto bytes = nn::serializeNetwork(smallNet());
    EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "AXONNNUE");
    EXPECT_EQ(bytes[8], nn::kNetFormatVersionPlain); // no layer stack: version 1
    EXPECT_EQ(bytes[12], nn::kNetHeaderSize);
    EXPECT_EQ(bytes[16] | bytes[17] << 8, 32);  // hidden
    EXPECT_EQ(bytes[19], 1);                    // flags: mirrored
    EXPECT_EQ(bytes[20], 4);                    // input buckets
    EXPECT_EQ(bytes[21], 8);                    // output buckets
    EXPECT_EQ(bytes[24] | bytes[25] << 8, 255); // QA
    EXPECT_EQ(bytes[26] | bytes[27] << 8, 64);  // QB
    EXPECT_EQ(bytes[28] | bytes[29] << 8, 400); // scale
    EXPECT_EQ(bytes[32 + 63], 3);               // bucket of h8
    const std::size_t payload = 2 * (4 * 768 * 32 + 32 + 8 * 64) + 4 * 8;
    EXPECT_EQ(bytes.size(), nn::kNetHeaderSize + payload);
}

Network layeredNet(std::uint64_t seed = 1) {
    return nn::makeRandomNetwork(makeArch({"t", 128, 4, true, 8, 16, 32}), seed);
}

TEST(NnFormat, LayeredHeaderLayout) {
    const auto bytes = nn::serializeNetwork(layeredNet());
    EXPECT_EQ(bytes[8], nn::kNetFormatVersion);
    EXPECT_EQ(bytes[112] | bytes[113] << 8, 16); // L1
    EXPECT_EQ(bytes[114] | bytes[115] << 8, 32); // L2
    // The first layer's weights are bytes, the rest as in version 1.
    const std::size_t payload =
        8 * 16 * 128 + 2 * (4 * 768 * 128 + 128 + 8 * 32 * 16 + 8 * 32) + 4 * (8 * 16 + 8 * 32 + 8);
    EXPECT_EQ(bytes.size(), nn::kNetHeaderSize + payload);
}

// The file keeps the second layer's weights input-major (bucket, input, output), as version 3
// has always stored them; only Network's memory holds them pair-interleaved for the kernel.
TEST(NnFormat, LayeredFileKeepsSecondLayerInputMajor) {
    const Network net = layeredNet();
    const nn::Architecture& a = net.arch;
    const auto bytes = nn::serializeNetwork(net);
    // After the header: ft weights and biases (int16), l1 weights (int8), l1 biases (int32).
    const std::size_t l2Offset = nn::kNetHeaderSize +
                                 2 * (a.ftWeightCount() + std::size_t(a.hidden)) +
                                 a.l1WeightCount() + 4 * a.l1BiasCount();
    int checked = 0;
    for (int b = 0; b < a.outputBuckets; ++b)
        for (int j = 0; j < a.l1; ++j)
            for (int k = 0; k < a.l2; ++k) {
                const std::size_t at =
                    l2Offset +
                    2 * ((std::size_t(b) * std::size_t(a.l1) + std::size_t(j)) * std::size_t(a.l2) +
                         std::size_t(k));
                const auto stored = std::int16_t(bytes[at] | bytes[at + 1] << 8);
                ASSERT_EQ(stored, net.l2Weights[nn::l2WeightIndex(a, b, j, k)])
                    << "bucket " << b << " input " << j << " output " << k;
                ++checked;
            }
    EXPECT_EQ(checked, 8 * 16 * 32);
}

TEST(NnFormat, LayeredHeaderChecksNameTheField) {
    const auto good = nn::serializeNetwork(layeredNet());
    auto edit = [&](std::size_t offset, std::initializer_list<std::uint8_t> values) {
        auto b = good;
        std::size_t i = offset;
        for (const auto v : values) b[i++] = v;
        const std::uint64_t h = nn::contentHash(b);
        for (int k = 0; k < 8; ++k) b[nn::kNetHashOffset + k] = std::uint8_t(h >> (8 * k));
        return b;
    };
    expectRejected(edit(112, {0, 0}), "without an L1 layer", "L1 zero");
    expectRejected(edit(112, {24, 0}), "L1 size", "L1 not a multiple of 16");
    expectRejected(edit(112, {0, 1}), "L1 size", "L1 too large");
    expectRejected(edit(114, {0, 0}), "L2 size", "L2 zero");
    expectRejected(edit(114, {129, 0}), "L2 size", "L2 too large");
    expectRejected(edit(16, {96, 0}), "layered network", "hidden not a multiple of 64");
    expectRejected(edit(24, {0, 1}), "QA", "QA above 255");
    expectRejected(edit(24, {254, 0}), "QA", "QA not 255");
    expectRejected(edit(116, {1}), "reserved", "reserved 116");
    expectRejected(edit(114, {16, 0}), "parameter bytes", "L2 changed");
    // Every byte of the file's parameters is covered by the hash.
    for (std::size_t i = nn::kNetHeaderSize; i < good.size(); i += 997) {
        auto bad = good;
        bad[i] ^= 0x10;
        expectRejected(bad, "hash", "parameter byte " + std::to_string(i));
    }
}

// Every single header byte changed in three ways: each file is rejected, by a specific check
// or at the latest by the content hash.
TEST(NnFormat, EveryHeaderCorruptionRejected) {
    const auto good = nn::serializeNetwork(smallNet());
    for (std::size_t i = 0; i < nn::kNetHeaderSize; ++i) {
        for (const int flip : {0x01, 0x80, 0xFF}) {
            auto bad = good;
            bad[i] = std::uint8_t(bad[i] ^ flip);
            expectRejected(bad, "", "byte " + std::to_string(i) + " ^ " + std::to_string(flip));
        }
    }
}

// Each header field's own check names the field (the hash is recomputed so it cannot be what
// catches the damage).
TEST(NnFormat, HeaderFieldChecksNameTheField) {
    const auto good = nn::serializeNetwork(smallNet());
    auto edit = [&](std::size_t offset, std::initializer_list<std::uint8_t> values) {
        auto b = good;
        std::size_t i = offset;
        for (const auto v : values) b[i++] = v;
        const std::uint64_t h = nn::contentHash(b);
        for (int k = 0; k < 8; ++k) b[nn::kNetHashOffset + k] = std::uint8_t(h >> (8 * k));
        return b;
    };
    expectRejected(edit(0, {'X'}), "magic", "magic");
    expectRejected(edit(8, {4}), "version", "version");
    expectRejected(edit(8, {3}), "without an L1 layer", "version 3 without a stack");
    expectRejected(edit(8, {2}), "version 2 (a layer stack with 16-bit",
                   "version 2, no longer read");
    expectRejected(edit(112, {16}), "reserved", "version 1 with an L1 size");
    expectRejected(edit(12, {64}), "header size", "header size");
    expectRejected(edit(16, {100, 0}), "hidden size", "hidden not a multiple");
    expectRejected(edit(16, {0, 0}), "hidden size", "hidden zero");
    expectRejected(edit(16, {0, 0x20}), "hidden size", "hidden too large");
    expectRejected(edit(18, {1}), "activation", "activation");
    expectRejected(edit(19, {2}), "flags", "flags");
    expectRejected(edit(20, {0}), "input bucket count", "no input buckets");
    expectRejected(edit(20, {65}), "input bucket count", "too many input buckets");
    expectRejected(edit(32 + 10, {4}), "bucket map entry 10", "bucket map");
    expectRejected(edit(21, {0}), "output bucket count", "no output buckets");
    expectRejected(edit(21, {33}), "output bucket count", "too many output buckets");
    expectRejected(edit(24, {0, 0}), "QA", "QA zero");
    expectRejected(edit(26, {0, 0}), "QB", "QB zero");
    expectRejected(edit(28, {0, 0, 0, 0}), "scale", "scale zero");
    expectRejected(edit(22, {1}), "reserved", "reserved 22");
    expectRejected(edit(127, {1}), "reserved", "reserved 127");
    expectRejected(edit(96, {1}), "parameter bytes", "payload size");
    // A changed output bucket count also changes the parameter size the header must announce.
    expectRejected(edit(21, {4}), "parameter bytes", "output buckets changed");
}

TEST(NnFormat, PayloadCorruptionRejectedByHash) {
    const auto good = nn::serializeNetwork(smallNet());
    auto badHash = good;
    badHash[nn::kNetHashOffset + 3] ^= 1;
    expectRejected(badHash, "hash mismatch", "hash field itself");
    util::Prng rng(3);
    for (int i = 0; i < 200; ++i) {
        auto bad = good;
        const std::size_t at = nn::kNetHeaderSize + rng.below(good.size() - nn::kNetHeaderSize);
        bad[at] ^= std::uint8_t(1 + rng.below(255));
        expectRejected(bad, "hash mismatch", "payload byte " + std::to_string(at));
    }
}

TEST(NnFormat, TruncationAndTrailingDataRejected) {
    const auto good = nn::serializeNetwork(smallNet());
    // Every cut inside the header and just after it, then a sample through the parameters and
    // every cut in the last bytes.
    std::vector<std::size_t> cuts;
    for (std::size_t n = 0; n <= nn::kNetHeaderSize + 64; ++n) cuts.push_back(n);
    for (std::size_t n = nn::kNetHeaderSize; n < good.size(); n += 997) cuts.push_back(n);
    for (std::size_t n = good.size() - 64; n < good.size(); ++n) cuts.push_back(n);
    for (const std::size_t n : cuts) {
        const std::vector<std::uint8_t> cut(good.begin(), good.begin() + std::ptrdiff_t(n));
        expectRejected(cut, "truncated", "cut at " + std::to_string(n));
    }
    auto longer = good;
    longer.push_back(0);
    expectRejected(longer, "trailing", "one byte more");
}

// A network whose output weights break the 16-bit activation product is refused even when
// the file is otherwise intact; writing it is refused too.
TEST(NnFormat, OutOfRangeOutputWeightRejected) {
    Network net = smallNet();
    net.outWeights[5] = 200; // 200 * QA 255 > 32767
    expectRejected(nn::serializeNetwork(net), "output weight 5", "output weight");
    const std::string path = tempPath("bad-weight");
    EXPECT_TRUE(nn::writeNetworkFile(net, path).has_value());
    std::filesystem::remove(path);
}

TEST(NnFormat, FailedLoadKeepsPreviousNetwork) {
    const Network first = smallNet(1);
    const std::string goodPath = tempPath("good"), badPath = tempPath("bad");
    ASSERT_FALSE(nn::writeNetworkFile(first, goodPath));
    Network current;
    ASSERT_FALSE(nn::loadNetworkFile(goodPath, current));
    ASSERT_TRUE(current == first);

    auto bytes = nn::serializeNetwork(smallNet(2));
    const std::vector<std::vector<std::uint8_t>> broken = {
        std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 1000), // truncated
        [&] {
            auto b = bytes;
            b[3] = 'x';
            return b;
        }(), // bad magic
        [&] {
            auto b = bytes;
            b[bytes.size() / 2] ^= 1;
            return b;
        }(), // corrupt parameters
        {},  // empty
    };
    for (std::size_t i = 0; i < broken.size(); ++i) {
        writeBytes(badPath, broken[i]);
        const auto error = nn::loadNetworkFile(badPath, current);
        ASSERT_TRUE(error.has_value()) << "case " << i;
        EXPECT_NE(error->find(badPath), std::string::npos) << *error;
        EXPECT_TRUE(current == first) << "case " << i;
    }
    const auto missing = nn::loadNetworkFile(tempPath("does-not-exist"), current);
    ASSERT_TRUE(missing.has_value());
    EXPECT_NE(missing->find("cannot open"), std::string::npos);
    EXPECT_TRUE(current == first);
    std::filesystem::remove(goodPath);
    std::filesystem::remove(badPath);
}

} // namespace
} // namespace axon::test

// SPDX-License-Identifier: GPL-3.0-or-later
// The safetensors reader and writer: round trips, dtype conversion, and refusal of every kind
// of damaged header (including every truncation and random corruption of a good file).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "nn/safetensors.h"
#include "util/prng.h"

using namespace axon;

namespace {

// A file from a header text and data bytes, as another writer might produce it.
std::vector<std::uint8_t> rawFile(const std::string& header, std::vector<std::uint8_t> data = {}) {
    // Sized once and filled by memcpy (GCC 12 misreads vector inserts here as out of bounds).
    std::vector<std::uint8_t> f(8 + header.size() + data.size());
    const std::uint64_t n = header.size();
    std::memcpy(f.data(), &n, 8);
    if (!header.empty()) std::memcpy(f.data() + 8, header.data(), header.size());
    if (!data.empty()) std::memcpy(f.data() + 8 + header.size(), data.data(), data.size());
    return f;
}

template <typename T>
std::vector<std::uint8_t> bytesOf(std::initializer_list<T> values) {
    std::vector<std::uint8_t> out(values.size() * sizeof(T));
    std::memcpy(out.data(), std::data(values), out.size());
    return out;
}

std::string parseError(std::vector<std::uint8_t> file) {
    auto st = nn::parseSafetensors(std::move(file));
    return st ? std::string("(accepted)") : st.error();
}

std::vector<std::uint8_t> goodFile() {
    static const std::vector<float> a = {1.0f, -2.5f, 3.25f, 0.0f, 1e-3f, 7.0f};
    static const std::vector<float> b = {42.0f};
    const nn::TensorToWrite tensors[] = {{"layer.weight", {2, 3}, a}, {"layer.bias", {1}, b}};
    auto bytes = nn::serializeSafetensors(tensors, {{"format", "test"}, {"note", "héllo"}});
    EXPECT_TRUE(bytes.ok());
    return *bytes;
}

} // namespace

TEST(Safetensors, RoundTripKeepsTensorsAndMetadata) {
    const auto bytes = goodFile();
    std::uint64_t headerSize = 0;
    std::memcpy(&headerSize, bytes.data(), 8);
    EXPECT_EQ((8 + headerSize) % 8, 0u) << "data should be 8-byte aligned";
    auto st = nn::parseSafetensors(bytes);
    ASSERT_TRUE(st.ok()) << st.error();
    EXPECT_EQ(st->tensors().size(), 2u);
    EXPECT_EQ(st->metadata().at("format"), "test");
    EXPECT_EQ(st->metadata().at("note"), "héllo");
    auto w = st->floats("layer.weight", std::vector<std::uint64_t>{2, 3});
    ASSERT_TRUE(w.ok()) << w.error();
    EXPECT_EQ(*w, (std::vector<float>{1.0f, -2.5f, 3.25f, 0.0f, 1e-3f, 7.0f}));
    const nn::TensorInfo* b = st->find("layer.bias");
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->dtype, nn::Dtype::F32);
    EXPECT_EQ(b->shape, (std::vector<std::uint64_t>{1}));
    EXPECT_EQ(st->find("nope"), nullptr);
}

TEST(Safetensors, FloatsChecksShapeAndNames) {
    auto st = nn::parseSafetensors(goodFile());
    ASSERT_TRUE(st.ok());
    auto wrong = st->floats("layer.weight", std::vector<std::uint64_t>{3, 2});
    ASSERT_FALSE(wrong.ok());
    EXPECT_NE(wrong.error().find("has shape [2, 3], expected [3, 2]"), std::string::npos)
        << wrong.error();
    auto missing = st->floats("layer.other", std::nullopt);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().find("missing tensor 'layer.other'"), std::string::npos);
}

TEST(Safetensors, ConvertsOtherDtypesToFloat) {
    std::vector<std::uint8_t> data;
    // F16: 1.0, -2.0, 0.5, smallest subnormal 2^-24.
    const auto f16 = bytesOf<std::uint16_t>({0x3c00, 0xc000, 0x3800, 0x0001});
    // BF16: 1.0, -3.0.
    const auto bf16 = bytesOf<std::uint16_t>({0x3f80, 0xc040});
    const auto f64 = bytesOf<double>({0.125, -1e3});
    const auto i16 = bytesOf<std::int16_t>({-32768, 7});
    const auto i64 = bytesOf<std::int64_t>({5});
    for (const auto* part : {&f16, &bf16, &f64, &i16, &i64})
        data.insert(data.end(), part->begin(), part->end());
    const std::string header = R"({"h":{"dtype":"F16","shape":[4],"data_offsets":[0,8]},)"
                               R"("b":{"dtype":"BF16","shape":[2],"data_offsets":[8,12]},)"
                               R"("d":{"dtype":"F64","shape":[2,1],"data_offsets":[12,28]},)"
                               R"("i":{"dtype":"I16","shape":[2],"data_offsets":[28,32]},)"
                               R"("l":{"dtype":"I64","shape":[],"data_offsets":[32,40]}})";
    auto st = nn::parseSafetensors(rawFile(header, data));
    ASSERT_TRUE(st.ok()) << st.error();
    EXPECT_EQ(*st->floats("h", std::nullopt), (std::vector<float>{1.0f, -2.0f, 0.5f, 0x1p-24f}));
    EXPECT_EQ(*st->floats("b", std::nullopt), (std::vector<float>{1.0f, -3.0f}));
    EXPECT_EQ(*st->floats("d", std::vector<std::uint64_t>{2, 1}),
              (std::vector<float>{0.125f, -1000.0f}));
    EXPECT_EQ(*st->floats("i", std::nullopt), (std::vector<float>{-32768.0f, 7.0f}));
    // A scalar (shape []) holds one element; I64 is read but not converted.
    EXPECT_EQ(st->find("l")->elementCount(), 1u);
    auto l = st->floats("l", std::nullopt);
    ASSERT_FALSE(l.ok());
    EXPECT_NE(l.error().find("I64"), std::string::npos);
}

TEST(Safetensors, RefusesDamagedHeadersWithClearMessages) {
    const auto four = bytesOf<float>({1.0f});
    struct Case {
        std::vector<std::uint8_t> file;
        const char* expected;
    };
    std::vector<std::uint8_t> huge(8, 0xff);
    const std::vector<Case> cases = {
        {{1, 2, 3}, "shorter than the 8-byte header length"},
        {huge, "exceeds the limit"},
        {[] {
             auto f = rawFile("{}");
             f[0] = 200;
             return f;
         }(),
         "runs past the end"},
        {rawFile("[1,2]"), "does not start with '{'"},
        {rawFile("{\"a\":"), "not valid JSON"},
        {rawFile(
             R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
             four),
         "repeats the key 'a'"},
        {rawFile(R"({"a":{"dtype":"Q7","shape":[1],"data_offsets":[0,4]}})", four),
         "unknown dtype 'Q7'"},
        {rawFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", four),
         "needs 8 bytes but data_offsets cover 4"},
        {rawFile(R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", four),
         "non-negative integers"},
        {rawFile(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}})", four), "> end"},
        {rawFile(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":1}})", four),
         "unexpected field 'x'"},
        {rawFile(R"({"a":{"dtype":"F32","shape":[1]}})", four), "data_offsets must be"},
        {rawFile(R"({"a":[1]})", four), "entry is not an object"},
        {rawFile(R"({"__metadata__":{"k":1}})"), "value of 'k' is not a string"},
        {rawFile(R"({"__metadata__":[]})"), "__metadata__ is not an object"},
        {rawFile(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                 R"("b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
                 bytesOf<float>({1.0f, 2.0f})),
         "(tensors overlap)"},
        {rawFile(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                 bytesOf<float>({1.0f, 2.0f})),
         "(a gap)"},
        {rawFile(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
                 bytesOf<float>({1.0f, 2.0f})),
         "(trailing bytes)"},
        {rawFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", four),
         "(truncated?)"},
        {rawFile(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}})",
                 four),
         "too large"},
    };
    for (const Case& c : cases) {
        const std::string e = parseError(c.file);
        EXPECT_NE(e.find(c.expected), std::string::npos)
            << "expected '" << c.expected << "', got: " << e;
        EXPECT_EQ(e.rfind("safetensors: ", 0), 0u) << e;
    }
}

TEST(Safetensors, EveryTruncationIsRefused) {
    const auto file = goodFile();
    for (std::size_t n = 0; n < file.size(); ++n) {
        std::vector<std::uint8_t> cut(file.begin(), file.begin() + std::ptrdiff_t(n));
        EXPECT_FALSE(nn::parseSafetensors(std::move(cut)).ok()) << "length " << n;
    }
}

// Random byte corruption anywhere in a good file never crashes the reader; whatever it
// accepts is self-consistent (every tensor converts and lies inside the file).
TEST(Safetensors, RandomCorruptionNeverCrashes) {
    const auto file = goodFile();
    util::Prng rng(2024);
    int accepted = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        auto damaged = file;
        const int flips = 1 + int(rng.below(4));
        for (int k = 0; k < flips; ++k) {
            // Mostly the header, where the structure is.
            const std::size_t at = rng.below(4)
                                       ? rng.below(std::min<std::uint64_t>(damaged.size(), 8 + 120))
                                       : rng.below(damaged.size());
            damaged[at] = std::uint8_t(rng.next());
        }
        auto st = nn::parseSafetensors(std::move(damaged));
        if (!st) {
            EXPECT_FALSE(st.error().empty());
            continue;
        }
        ++accepted;
        for (const nn::TensorInfo& t : st->tensors()) {
            EXPECT_LE(t.end, file.size());
            auto values = st->floats(t.name, t.shape);
            if (values) {
                EXPECT_EQ(values->size(), t.elementCount());
            }
        }
    }
    // Flips inside the float data or metadata text keep the file valid: some must pass.
    EXPECT_GT(accepted, 0);
}

TEST(Safetensors, WriterRefusesBadInput) {
    const std::vector<float> v = {1.0f, 2.0f};
    const nn::TensorToWrite wrongCount[] = {{"a", {3}, v}};
    EXPECT_FALSE(nn::serializeSafetensors(wrongCount, {}).ok());
    const nn::TensorToWrite twice[] = {{"a", {2}, v}, {"a", {2}, v}};
    EXPECT_FALSE(nn::serializeSafetensors(twice, {}).ok());
    const nn::TensorToWrite metadataName[] = {{"__metadata__", {2}, v}};
    EXPECT_FALSE(nn::serializeSafetensors(metadataName, {}).ok());
    const nn::TensorToWrite ok[] = {{"a", {2}, v}};
    // Invalid UTF-8 cannot go into the JSON header: an error, not an exception.
    auto bad = nn::serializeSafetensors(ok, {{"k", std::string("\xff\xfe")}});
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("cannot encode"), std::string::npos);
}

TEST(Safetensors, FileWriteIsAtomicAndReadable) {
    const std::string path = ::testing::TempDir() + "axon_safetensors_test.safetensors";
    const std::vector<float> v = {0.5f, -0.5f, 2.0f};
    const nn::TensorToWrite tensors[] = {{"x", {3}, v}};
    ASSERT_EQ(nn::writeSafetensorsFile(path, tensors, {}), std::nullopt);
    auto st = nn::readSafetensorsFile(path);
    ASSERT_TRUE(st.ok()) << st.error();
    EXPECT_EQ(*st->floats("x", std::nullopt), v);
    EXPECT_TRUE(st->metadata().empty());
    auto missing = nn::readSafetensorsFile(path + ".absent");
    EXPECT_FALSE(missing.ok());
    std::remove(path.c_str());
}

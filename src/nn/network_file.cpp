// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and writing network files, byte by byte as docs/nnue-format.md describes them.
#include "nn/network_file.h"

#include "nn/layer_stack.h"
#include "util/atomic_file.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

namespace axon::nn {
namespace {

// Header field offsets (docs/nnue-format.md).
constexpr std::size_t kOffVersion = 8;
constexpr std::size_t kOffHeaderSize = 12;
constexpr std::size_t kOffHidden = 16;
constexpr std::size_t kOffActivation = 18;
constexpr std::size_t kOffFlags = 19;
constexpr std::size_t kOffInputBuckets = 20;
constexpr std::size_t kOffOutputBuckets = 21;
constexpr std::size_t kOffReserved1 = 22;
constexpr std::size_t kOffQa = 24;
constexpr std::size_t kOffQb = 26;
constexpr std::size_t kOffScale = 28;
constexpr std::size_t kOffBucketMap = 32;
constexpr std::size_t kOffPayloadBytes = 96;
constexpr std::size_t kOffL1 = 112;        // version 3
constexpr std::size_t kOffL2 = 114;        // version 3
constexpr std::size_t kOffReserved2 = 112; // version 1: 112..127; version 3: 116..127
constexpr std::size_t kOffReserved2Layered = 116;
constexpr std::uint8_t kFlagMirror = 1;

std::uint64_t getLe(std::span<const std::uint8_t> b, std::size_t off, int bytes) {
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | b[off + std::size_t(i)];
    return v;
}
void putLe(std::vector<std::uint8_t>& b, std::size_t off, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) b[off + std::size_t(i)] = std::uint8_t(v >> (8 * i));
}

std::uint64_t payloadSize(const Architecture& a) {
    return a.l1WeightCount() +
           2 * (a.ftWeightCount() + std::size_t(a.hidden) + a.outWeightCount() +
                a.l2WeightCount()) +
           4 * (std::uint64_t(a.outputBuckets) + a.l1BiasCount() + a.l2BiasCount());
}

// Reads n little-endian values of T (int8, int16 or int32) from `b` at `off`.
template <typename T>
std::vector<T> readArray(std::span<const std::uint8_t> b, std::size_t& off, std::size_t n) {
    std::vector<T> out(n);
    for (std::size_t i = 0; i < n; ++i, off += sizeof(T)) out[i] = T(getLe(b, off, int(sizeof(T))));
    return out;
}
template <typename T>
void writeArray(std::vector<std::uint8_t>& b, std::size_t& off, const std::vector<T>& v) {
    for (const T x : v) {
        putLe(b, off, std::uint64_t(std::make_unsigned_t<T>(x)), int(sizeof(T)));
        off += sizeof(T);
    }
}

// The file keeps the second layer's weights input-major, as the float network and the
// trainer do; Network holds them pair-interleaved for the kernel (layer_stack.h).
std::vector<std::int16_t> fromInputMajorL2(const Architecture& a,
                                           const std::vector<std::int16_t>& natural) {
    std::vector<std::int16_t> packed(natural.size());
    forEachL2Weight(a, [&](std::size_t n, std::size_t p) { packed[p] = natural[n]; });
    return packed;
}

std::vector<std::int16_t> toInputMajorL2(const Architecture& a,
                                         const std::vector<std::int16_t>& packed) {
    std::vector<std::int16_t> natural(packed.size());
    forEachL2Weight(a, [&](std::size_t n, std::size_t p) { natural[n] = packed[p]; });
    return natural;
}

} // namespace

std::uint64_t contentHash(std::span<const std::uint8_t> file) {
    std::uint64_t h = 0xCBF29CE484222325ULL;
    for (std::size_t i = 0; i < file.size(); ++i) {
        const bool inHashField = i >= kNetHashOffset && i < kNetHashOffset + 8;
        h = (h ^ (inHashField ? 0 : file[i])) * 0x100000001B3ULL;
    }
    return h;
}

util::Result<NetHeader> readNetHeader(std::span<const std::uint8_t> file) {
    using util::makeError;
    if (file.size() < kNetHeaderSize)
        return makeError("truncated header: the file has " + std::to_string(file.size()) +
                         " bytes, the header alone needs " + std::to_string(kNetHeaderSize));
    if (std::memcmp(file.data(), kNetMagic, sizeof kNetMagic) != 0)
        return makeError("not an Axon network file (bad magic)");
    NetHeader h;
    h.version = std::uint32_t(getLe(file, kOffVersion, 4));
    if (h.version == kNetFormatVersionWideL1)
        return makeError("format version 2 (a layer stack with 16-bit first-layer weights) is "
                         "no longer read: version 3 stores them as 8-bit; train the network "
                         "again, or export it with the build that wrote it and import it");
    if (h.version != kNetFormatVersion && h.version != kNetFormatVersionPlain)
        return makeError("unsupported format version " + std::to_string(h.version) +
                         " (this build reads versions " + std::to_string(kNetFormatVersionPlain) +
                         " and " + std::to_string(kNetFormatVersion) + ")");
    const bool layered = h.version == kNetFormatVersion;
    if (getLe(file, kOffHeaderSize, 4) != kNetHeaderSize)
        return makeError("header size " + std::to_string(getLe(file, kOffHeaderSize, 4)) +
                         " is not " + std::to_string(kNetHeaderSize));
    Architecture& a = h.arch;
    a.hidden = int(getLe(file, kOffHidden, 2));
    a.activation = Activation(file[kOffActivation]);
    const std::uint8_t flags = file[kOffFlags];
    if (flags & ~kFlagMirror) return makeError("unknown flags " + std::to_string(flags));
    a.mirror = flags & kFlagMirror;
    a.inputBuckets = file[kOffInputBuckets];
    a.outputBuckets = file[kOffOutputBuckets];
    a.qa = std::int16_t(getLe(file, kOffQa, 2));
    a.qb = std::int16_t(getLe(file, kOffQb, 2));
    a.scale = std::int32_t(getLe(file, kOffScale, 4));
    for (int s = 0; s < chess::kNumSquares; ++s) a.bucketMap[s] = file[kOffBucketMap + s];
    if (layered) {
        a.l1 = int(getLe(file, kOffL1, 2));
        a.l2 = int(getLe(file, kOffL2, 2));
        if (a.l1 == 0) return makeError("a version 3 file without an L1 layer");
    }
    if (auto e = validateArchitecture(a)) return makeError("bad architecture: " + *e);
    if (getLe(file, kOffReserved1, 2) != 0) return makeError("reserved header bytes are not zero");
    for (std::size_t i = layered ? kOffReserved2Layered : kOffReserved2; i < kNetHeaderSize; ++i)
        if (file[i] != 0) return makeError("reserved header bytes are not zero");
    h.payloadBytes = getLe(file, kOffPayloadBytes, 8);
    h.hash = getLe(file, kNetHashOffset, 8);
    if (h.payloadBytes != payloadSize(a))
        return makeError("header says " + std::to_string(h.payloadBytes) +
                         " parameter bytes, the architecture needs " +
                         std::to_string(payloadSize(a)));
    return h;
}

util::Result<Network> readNetwork(std::span<const std::uint8_t> file) {
    using util::makeError;
    auto header = readNetHeader(file);
    if (!header) return makeError(header.error());
    const std::uint64_t expected = kNetHeaderSize + header->payloadBytes;
    if (file.size() < expected)
        return makeError("truncated: the file has " + std::to_string(file.size()) +
                         " bytes, the header announces " + std::to_string(expected));
    if (file.size() > expected)
        return makeError("trailing data: the file has " + std::to_string(file.size()) +
                         " bytes, the header announces " + std::to_string(expected));
    const std::uint64_t hash = contentHash(file);
    if (hash != header->hash)
        return makeError("content hash mismatch (corrupt file): header " +
                         std::to_string(header->hash) + ", content " + std::to_string(hash));
    Network net;
    const Architecture& a = header->arch;
    net.arch = a;
    std::size_t off = kNetHeaderSize;
    net.ftWeights = readArray<std::int16_t>(file, off, a.ftWeightCount());
    net.ftBiases = readArray<std::int16_t>(file, off, std::size_t(a.hidden));
    net.l1Weights = readArray<std::int8_t>(file, off, a.l1WeightCount());
    net.l1Biases = readArray<std::int32_t>(file, off, a.l1BiasCount());
    net.l2Weights = fromInputMajorL2(a, readArray<std::int16_t>(file, off, a.l2WeightCount()));
    net.l2Biases = readArray<std::int32_t>(file, off, a.l2BiasCount());
    net.outWeights = readArray<std::int16_t>(file, off, a.outWeightCount());
    net.outBiases = readArray<std::int32_t>(file, off, std::size_t(a.outputBuckets));
    if (auto e = net.validate()) return makeError("bad parameters: " + *e);
    return net;
}

util::Result<std::vector<std::uint8_t>> readFileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return util::makeError("cannot open " + path);
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
    if (in.bad()) return util::makeError("cannot read " + path);
    return bytes;
}

util::Result<Network> readNetworkFile(const std::string& path) {
    auto bytes = readFileBytes(path);
    if (!bytes) return util::makeError(bytes.error());
    auto net = readNetwork(*bytes);
    if (!net) return util::makeError(path + ": " + net.error());
    return net;
}

std::vector<std::uint8_t> serializeNetwork(const Network& net) {
    const Architecture& a = net.arch;
    const std::uint64_t payload = payloadSize(a);
    std::vector<std::uint8_t> b(std::size_t(kNetHeaderSize + payload), 0);
    std::memcpy(b.data(), kNetMagic, sizeof kNetMagic);
    putLe(b, kOffVersion, a.layered() ? kNetFormatVersion : kNetFormatVersionPlain, 4);
    putLe(b, kOffHeaderSize, kNetHeaderSize, 4);
    putLe(b, kOffHidden, std::uint64_t(a.hidden), 2);
    b[kOffActivation] = std::uint8_t(a.activation);
    b[kOffFlags] = a.mirror ? kFlagMirror : 0;
    b[kOffInputBuckets] = std::uint8_t(a.inputBuckets);
    b[kOffOutputBuckets] = std::uint8_t(a.outputBuckets);
    putLe(b, kOffQa, std::uint16_t(a.qa), 2);
    putLe(b, kOffQb, std::uint16_t(a.qb), 2);
    putLe(b, kOffScale, std::uint32_t(a.scale), 4);
    for (int s = 0; s < chess::kNumSquares; ++s) b[kOffBucketMap + s] = a.bucketMap[s];
    putLe(b, kOffPayloadBytes, payload, 8);
    if (a.layered()) {
        putLe(b, kOffL1, std::uint64_t(a.l1), 2);
        putLe(b, kOffL2, std::uint64_t(a.l2), 2);
    }
    std::size_t off = kNetHeaderSize;
    writeArray(b, off, net.ftWeights);
    writeArray(b, off, net.ftBiases);
    writeArray(b, off, net.l1Weights);
    writeArray(b, off, net.l1Biases);
    writeArray(b, off, toInputMajorL2(a, net.l2Weights));
    writeArray(b, off, net.l2Biases);
    writeArray(b, off, net.outWeights);
    writeArray(b, off, net.outBiases);
    putLe(b, kNetHashOffset, contentHash(b), 8);
    return b;
}

std::optional<std::string> writeNetworkFile(const Network& net, const std::string& path) {
    if (auto e = net.validate()) return "not writing an invalid network: " + *e;
    const auto bytes = serializeNetwork(net);
    return util::writeFileAtomically(path, bytes);
}

std::optional<std::string> loadNetworkFile(const std::string& path, Network& target) {
    auto net = readNetworkFile(path);
    if (!net) return net.error();
    target = std::move(*net);
    return std::nullopt;
}

} // namespace axon::nn

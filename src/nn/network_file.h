// SPDX-License-Identifier: GPL-3.0-or-later
// The network file (docs/nnue-format.md): a 128-byte little-endian header describing the
// architecture and a content hash, then the parameters. Reading validates everything and
// reports a wrong or truncated file as an error value; nothing throws.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "nn/network.h"
#include "util/result.h"

namespace axon::nn {

constexpr char kNetMagic[8] = {'A', 'X', 'O', 'N', 'N', 'N', 'U', 'E'};
// Version 1: no layer stack; version 3: with one (l1 and l2 in the header, 8-bit first-layer
// weights). Version 2 (16-bit first-layer weights, 2026-12-03 to 12-04) is refused by name. A
// network without the stack is always written as version 1, so its file and hash stay what
// they were.
constexpr std::uint32_t kNetFormatVersion = 3;
constexpr std::uint32_t kNetFormatVersionPlain = 1;
constexpr std::uint32_t kNetFormatVersionWideL1 = 2;
constexpr std::size_t kNetHeaderSize = 128;
// Byte offset of the content hash inside the header; it is hashed as zeros.
constexpr std::size_t kNetHashOffset = 104;

// What the header says, as `axon net info` prints it.
struct NetHeader {
    std::uint32_t version = 0;
    Architecture arch;
    std::uint64_t payloadBytes = 0;
    std::uint64_t hash = 0;
};

// FNV-1a 64 of the file with the hash field taken as zeros.
std::uint64_t contentHash(std::span<const std::uint8_t> file);

// The header alone, validated (magic, version, architecture, reserved bytes, payload size);
// does not look at the parameters or the hash.
util::Result<NetHeader> readNetHeader(std::span<const std::uint8_t> file);

util::Result<Network> readNetwork(std::span<const std::uint8_t> file);
// A file's whole contents, or why it cannot be read (it checks nothing of the format).
util::Result<std::vector<std::uint8_t>> readFileBytes(const std::string& path);
util::Result<Network> readNetworkFile(const std::string& path);

// The file's bytes; the network must be valid (Network::validate).
std::vector<std::uint8_t> serializeNetwork(const Network& net);
// Written atomically (temporary file, then rename); an error message, or nothing.
std::optional<std::string> writeNetworkFile(const Network& net, const std::string& path);

// Replaces `target` with the network in `path` only when the whole file is valid; on an error
// `target` keeps the previous network and the message says what was wrong.
std::optional<std::string> loadNetworkFile(const std::string& path, Network& target);

} // namespace axon::nn

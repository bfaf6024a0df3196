// SPDX-License-Identifier: GPL-3.0-or-later
// The perspective network (float_network.h) as a safetensors file, the exchange format with
// trainers: tensors "ft.weight" [inputs, hidden], "ft.bias" [hidden], "out.weight"
// [outputBuckets, 2 * hidden], "out.bias" [outputBuckets], all in the network's float units,
// and the architecture in "__metadata__" (docs/float-nets.md lists the keys).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nn/float_network.h"
#include "nn/safetensors.h"
#include "util/result.h"

namespace axon::nn {

// The value of the metadata key "format" that marks a perspective network.
constexpr const char* kPerspectiveFormat = "axon-perspective";
constexpr int kPerspectiveFormatVersion = 1;

std::map<std::string, std::string> perspectiveMetadata(const Architecture& arch);
bool isPerspectiveNetwork(const Safetensors& file);

// The network in a parsed file: architecture from the metadata (validated as the network file
// reader does), tensors of exactly the architecture's shapes, every value finite.
util::Result<FloatNetwork> parseFloatNetwork(const Safetensors& file);

util::Result<std::vector<std::uint8_t>> serializeFloatNetworkSafetensors(const FloatNetwork& net);
// Both report errors as messages; the writer replaces `path` atomically.
std::optional<std::string> writeFloatNetworkSafetensors(const FloatNetwork& net,
                                                        const std::string& path);
util::Result<FloatNetwork> readFloatNetworkSafetensors(const std::string& path);

} // namespace axon::nn

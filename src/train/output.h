// SPDX-License-Identifier: GPL-3.0-or-later
// What a run leaves behind besides the checkpoint: the quantised network (nn::quantise and
// nn::writeNetworkFile, written to a temporary name and renamed so a reader never sees half a
// file), the float network through a pluggable writer, and the linear model's PST table.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>

#include "nn/float_network.h"

namespace axon::train {

// The hook for float outputs (e.g. safetensors, src/nn/safetensors.*): called with the float
// network and a path without extension at every checkpoint and at the end; returns an error
// message or nothing. The trainer writes no float file itself when it is empty.
using FloatNetworkWriter =
    std::function<std::optional<std::string>(const nn::FloatNetwork&, const std::string& stem)>;

// Quantises `net` and writes it to `path` atomically; an error message or nothing.
std::optional<std::string> writeQuantisedNetwork(const nn::FloatNetwork& net,
                                                 const std::string& path);

// The linear model's weights as a CSV table in centipawns (weight * scale): for each side
// (own = the side to move's pieces, their) and piece type, eight rows "side,piece,rank,a..h"
// from rank 8 down to rank 1 as the side to move sees the board (rank 1 its back rank), then
// the bias.
std::string pstTableCsv(std::span<const float> weights, float bias, float scale);

} // namespace axon::train

// SPDX-License-Identifier: GPL-3.0-or-later
// The default network built into the binary (nets/default.nnue at build time, through
// cmake/embed_net.cmake), so the engine never depends on a file beside it.
#pragma once

#include <cstdint>
#include <span>

namespace axon::nn {

// The embedded network file's bytes; empty when the build embedded none.
std::span<const std::uint8_t> embeddedNetworkBytes();

} // namespace axon::nn

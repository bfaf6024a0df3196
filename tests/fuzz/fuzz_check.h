// SPDX-License-Identifier: GPL-3.0-or-later
// What the fuzz targets share: a check that aborts with a message (so libFuzzer records the
// input as a crash), and the input viewed as text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace axon::fuzz {

inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// Aborts when an invariant does not hold; `detail` says on which value.
inline void require(bool ok, const char* what, const std::string& detail = {}) {
    if (ok) return;
    std::fprintf(stderr, "fuzz check failed: %s\n  %s\n", what, detail.c_str());
    std::abort();
}

} // namespace axon::fuzz

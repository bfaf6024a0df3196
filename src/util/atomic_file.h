// SPDX-License-Identifier: GPL-3.0-or-later
// Writing files so that a reader never sees half of one: the data goes to PATH.tmp, which is
// renamed over PATH only when everything was written. Every writer of networks, data files,
// checkpoints and training outputs goes through here.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace axon::util {

// Writes `bytes` to path.tmp and renames it over `path`; an error message, or nothing.
std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view bytes);
inline std::optional<std::string> writeFileAtomically(const std::string& path,
                                                      std::span<const std::uint8_t> bytes) {
    return writeFileAtomically(
        path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

// Ends a streaming write into path.tmp opened by the caller: flushes, syncs and closes `file`
// (set to null), then renames path.tmp over `path`. `ok` false (an earlier write failed)
// removes path.tmp instead. An error message, or nothing.
std::optional<std::string> commitTempFile(std::FILE*& file, const std::string& path, bool ok);

} // namespace axon::util

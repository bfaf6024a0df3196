// SPDX-License-Identifier: GPL-3.0-or-later
// Temporary file, then rename.
#include "util/atomic_file.h"

#include <cerrno>
#include <cstring>

#include <unistd.h>

namespace axon::util {

std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view bytes) {
    std::FILE* file = std::fopen((path + ".tmp").c_str(), "wb");
    if (!file) return "cannot write " + path + ".tmp: " + std::strerror(errno);
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
    return commitTempFile(file, path, ok);
}

std::optional<std::string> commitTempFile(std::FILE*& file, const std::string& path, bool ok) {
    ok = ok && std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
    ok = std::fclose(file) == 0 && ok;
    file = nullptr;
    const std::string tmp = path + ".tmp";
    if (!ok) {
        std::remove(tmp.c_str());
        return "writing " + path + " failed";
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        std::remove(tmp.c_str());
        return "cannot rename " + tmp + " to " + path + ": " + why;
    }
    return std::nullopt;
}

} // namespace axon::util

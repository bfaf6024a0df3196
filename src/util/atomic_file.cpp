// SPDX-License-Identifier: GPL-3.0-or-later
// Temporary file, then rename.
#include "util/atomic_file.h"

#include <cerrno>
#include <cstring>

#ifdef _WIN32
#include <io.h>
#include <windows.h>
#else
#include <unistd.h>
#endif

namespace axon::util {

namespace {

// The file's bytes on the disk before the rename makes them the file's.
bool syncToDisk(std::FILE* file) {
#ifdef _WIN32
    return ::_commit(::_fileno(file)) == 0;
#else
    return ::fsync(::fileno(file)) == 0;
#endif
}

// POSIX rename replaces the target atomically; Windows' std::rename refuses an existing one.
bool replaceFile(const std::string& from, const std::string& to) {
#ifdef _WIN32
    return ::MoveFileExA(from.c_str(), to.c_str(),
                         MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) != 0;
#else
    return std::rename(from.c_str(), to.c_str()) == 0;
#endif
}

} // namespace

std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view bytes) {
    std::FILE* file = std::fopen((path + ".tmp").c_str(), "wb");
    if (!file) return "cannot write " + path + ".tmp: " + std::strerror(errno);
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
    return commitTempFile(file, path, ok);
}

std::optional<std::string> commitTempFile(std::FILE*& file, const std::string& path, bool ok) {
    ok = ok && std::fflush(file) == 0 && syncToDisk(file);
    ok = std::fclose(file) == 0 && ok;
    file = nullptr;
    const std::string tmp = path + ".tmp";
    if (!ok) {
        std::remove(tmp.c_str());
        return "writing " + path + " failed";
    }
    if (!replaceFile(tmp, path)) {
        const std::string why = std::strerror(errno);
        std::remove(tmp.c_str());
        return "cannot rename " + tmp + " to " + path + ": " + why;
    }
    return std::nullopt;
}

} // namespace axon::util

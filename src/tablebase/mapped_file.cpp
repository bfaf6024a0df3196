// SPDX-License-Identifier: GPL-3.0-or-later
#include "tablebase/mapped_file.h"

#include <cerrno>
#include <cstring>

#if defined(_WIN32)
// MinGW's libstdc++ already defines NOMINMAX (os_defines.h); define it only where it does not.
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#elif !defined(__EMSCRIPTEN__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace axon::tablebase {

MappedFile::~MappedFile() {
#if defined(_WIN32)
    if (m_data) UnmapViewOfFile(m_data);
    if (m_mapping) CloseHandle(m_mapping);
#elif !defined(__EMSCRIPTEN__)
    if (m_data) munmap(const_cast<std::uint8_t*>(m_data), m_size);
#endif
}

util::Result<std::unique_ptr<MappedFile>> MappedFile::open(const std::string& path) {
    auto file = std::make_unique<MappedFile>();
#if defined(__EMSCRIPTEN__)
    return util::Error{path + ": tablebases are read by the native engine only (axon serve)"};
#elif defined(_WIN32)
    HANDLE handle = CreateFileA(path.c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                                FILE_FLAG_RANDOM_ACCESS, nullptr);
    if (handle == INVALID_HANDLE_VALUE) return util::Error{path + ": cannot open"};
    LARGE_INTEGER size;
    if (!GetFileSizeEx(handle, &size) || size.QuadPart == 0) {
        CloseHandle(handle);
        return util::Error{path + ": empty or unreadable"};
    }
    HANDLE mapping = CreateFileMappingA(handle, nullptr, PAGE_READONLY, 0, 0, nullptr);
    CloseHandle(handle);
    if (!mapping) return util::Error{path + ": cannot map"};
    void* view = MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, 0);
    if (!view) {
        CloseHandle(mapping);
        return util::Error{path + ": cannot map"};
    }
    file->m_mapping = mapping;
    file->m_data = static_cast<const std::uint8_t*>(view);
    file->m_size = std::size_t(size.QuadPart);
    return file;
#else
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return util::Error{path + ": " + std::strerror(errno)};
    struct stat info {};
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return util::Error{path + ": not a regular file"};
    }
    if (info.st_size == 0) {
        ::close(fd);
        return util::Error{path + ": empty file"};
    }
    void* data = mmap(nullptr, std::size_t(info.st_size), PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (data == MAP_FAILED) return util::Error{path + ": cannot map: " + std::strerror(errno)};
    // Probes jump around the file: read-ahead would load pages nobody asks for.
    madvise(data, std::size_t(info.st_size), MADV_RANDOM);
    file->m_data = static_cast<const std::uint8_t*>(data);
    file->m_size = std::size_t(info.st_size);
    return file;
#endif
}

} // namespace axon::tablebase

// SPDX-License-Identifier: GPL-3.0-or-later
// A read-only memory map of a whole file (POSIX mmap, Windows MapViewOfFile): tablebase files are
// read where they lie, so only the pages a probe touches are ever loaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "util/result.h"

namespace axon::tablebase {

class MappedFile {
  public:
    MappedFile() = default;
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    // Maps `path`; an empty file, a missing one or a platform without mapping is an error that
    // names the file.
    static util::Result<std::unique_ptr<MappedFile>> open(const std::string& path);

    const std::uint8_t* data() const { return m_data; }
    std::size_t size() const { return m_size; }

  private:
    const std::uint8_t* m_data = nullptr;
    std::size_t m_size = 0;
#ifdef _WIN32
    void* m_mapping = nullptr; // the file-mapping handle
#endif
};

} // namespace axon::tablebase

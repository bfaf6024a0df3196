// SPDX-License-Identifier: GPL-3.0-or-later
// Text inputs of the converters: a plain file, or a zstd- or bzip2-compressed one (recognised by
// its magic number, not its name) decompressed while it is read, in bounded memory.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <streambuf>
#include <string>

#include "util/result.h"

namespace axon::data {

class InputFile {
  public:
    static util::Result<std::unique_ptr<InputFile>> open(const std::string& path);
    ~InputFile();

    std::istream& stream() { return *m_stream; }
    bool compressed() const { return m_compressed; }
    // A corrupt or truncated compressed stream ends the text early; this says why (empty when
    // the input was read without trouble). Check it once the stream is exhausted.
    std::string error() const;

  private:
    InputFile() = default;
    std::string m_path;
    bool m_compressed = false;
    std::unique_ptr<std::streambuf> m_buffer;
    std::unique_ptr<std::istream> m_stream;
};

} // namespace axon::data

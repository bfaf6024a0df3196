// SPDX-License-Identifier: GPL-3.0-or-later
// Plain and zstd-compressed text inputs (libzstd's streaming decompression).
#include "data/convert_input.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include <zstd.h>

namespace axon::data {

namespace {

using util::makeError;

constexpr unsigned char kZstdMagic[4] = {0x28, 0xB5, 0x2F, 0xFD};

// Decompresses a file of zstd frames into a fixed output buffer, one buffer at a time. Errors
// end the stream (underflow returns EOF) and are kept for InputFile::error.
class ZstdStreamBuf final : public std::streambuf {
  public:
    ZstdStreamBuf(std::FILE* file, std::string path)
        : m_file(file), m_path(std::move(path)), m_stream(ZSTD_createDStream()),
          m_in(ZSTD_DStreamInSize()), m_out(ZSTD_DStreamOutSize()) {
        if (!m_stream)
            m_error = "cannot allocate a zstd decompressor";
        else
            ZSTD_initDStream(m_stream);
    }
    ~ZstdStreamBuf() override {
        ZSTD_freeDStream(m_stream);
        std::fclose(m_file);
    }
    const std::string& error() const { return m_error; }

  protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        if (!m_error.empty() || m_done) return traits_type::eof();
        for (;;) {
            if (m_input.pos == m_input.size) {
                const std::size_t n = std::fread(m_in.data(), 1, m_in.size(), m_file);
                if (n == 0) {
                    m_done = true;
                    if (std::ferror(m_file))
                        m_error = m_path + ": read error: " + std::strerror(errno);
                    // A nonzero hint means the last frame wanted more input than the file had.
                    else if (m_lastHint != 0)
                        m_error = m_path + ": truncated zstd stream (the last frame is incomplete)";
                    return traits_type::eof();
                }
                m_input = ZSTD_inBuffer{m_in.data(), n, 0};
            }
            ZSTD_outBuffer output{m_out.data(), m_out.size(), 0};
            const std::size_t hint = ZSTD_decompressStream(m_stream, &output, &m_input);
            if (ZSTD_isError(hint)) {
                m_error = m_path + ": corrupt zstd data: " + ZSTD_getErrorName(hint);
                return traits_type::eof();
            }
            m_lastHint = hint;
            if (output.pos > 0) {
                setg(m_out.data(), m_out.data(), m_out.data() + output.pos);
                return traits_type::to_int_type(*gptr());
            }
        }
    }

  private:
    std::FILE* m_file;
    std::string m_path;
    ZSTD_DStream* m_stream;
    std::vector<char> m_in, m_out;
    ZSTD_inBuffer m_input{nullptr, 0, 0};
    std::size_t m_lastHint = 0;
    bool m_done = false;
    std::string m_error;
};

} // namespace

util::Result<std::unique_ptr<InputFile>> InputFile::open(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return makeError("cannot read " + path + ": " + std::strerror(errno));
    unsigned char magic[sizeof kZstdMagic] = {};
    const bool compressed = std::fread(magic, 1, sizeof magic, f) == sizeof magic &&
                            std::memcmp(magic, kZstdMagic, sizeof magic) == 0;
    std::unique_ptr<InputFile> input(new InputFile());
    input->m_path = path;
    input->m_compressed = compressed;
    if (compressed) {
        std::rewind(f);
        auto buffer = std::make_unique<ZstdStreamBuf>(f, path);
        if (!buffer->error().empty()) return makeError(buffer->error());
        input->m_buffer = std::move(buffer);
    } else {
        std::fclose(f);
        auto buffer = std::make_unique<std::filebuf>();
        if (!buffer->open(path, std::ios::in | std::ios::binary))
            return makeError("cannot read " + path);
        input->m_buffer = std::move(buffer);
    }
    input->m_stream = std::make_unique<std::istream>(input->m_buffer.get());
    return input;
}

InputFile::~InputFile() {
    // The stream refers to the buffer: it goes first.
    m_stream.reset();
}

std::string InputFile::error() const {
    if (!m_compressed) return {};
    return static_cast<const ZstdStreamBuf&>(*m_buffer).error();
}

} // namespace axon::data

// SPDX-License-Identifier: GPL-3.0-or-later
// Plain, zstd- and bzip2-compressed text inputs (libzstd's and libbz2's streaming
// decompression).
#include "data/convert_input.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include <bzlib.h>
#include <zstd.h>

namespace axon::data {

namespace {

using util::makeError;

constexpr unsigned char kZstdMagic[4] = {0x28, 0xB5, 0x2F, 0xFD};
// "BZh" and the block size digit '1'..'9'.
constexpr unsigned char kBzip2Magic[3] = {'B', 'Z', 'h'};

bool isBzip2Magic(const unsigned char* magic) {
    return std::memcmp(magic, kBzip2Magic, sizeof kBzip2Magic) == 0 && magic[3] >= '1' &&
           magic[3] <= '9';
}

// A decompressed text stream. A failure ends the stream early (underflow returns EOF) and is
// kept for InputFile::error, with the line of the decompressed text it was reached at.
class CompressedStreamBuf : public std::streambuf {
  public:
    const std::string& error() const { return m_error; }

  protected:
    // Makes [begin, end) the next decompressed bytes; returns the first of them.
    int_type deliver(char* begin, char* end) {
        for (const char* c = begin; c != end; ++c) m_lines += *c == '\n';
        setg(begin, begin, end);
        return traits_type::to_int_type(*gptr());
    }
    int_type fail(const std::string& path, const std::string& why) {
        m_error =
            path + ": line " + std::to_string(m_lines + 1) + " of the decompressed text: " + why;
        return traits_type::eof();
    }
    bool failed() const { return !m_error.empty(); }

  private:
    std::string m_error;
    std::uint64_t m_lines = 0;
};

// Decompresses a file of zstd frames into a fixed output buffer, one buffer at a time.
class ZstdStreamBuf final : public CompressedStreamBuf {
  public:
    ZstdStreamBuf(std::FILE* file, std::string path)
        : m_file(file), m_path(std::move(path)), m_stream(ZSTD_createDStream()),
          m_in(ZSTD_DStreamInSize()), m_out(ZSTD_DStreamOutSize()) {
        if (!m_stream)
            fail(m_path, "cannot allocate a zstd decompressor");
        else
            ZSTD_initDStream(m_stream);
    }
    ~ZstdStreamBuf() override {
        ZSTD_freeDStream(m_stream);
        std::fclose(m_file);
    }

  protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        if (failed() || m_done) return traits_type::eof();
        for (;;) {
            if (m_input.pos == m_input.size) {
                const std::size_t n = std::fread(m_in.data(), 1, m_in.size(), m_file);
                if (n == 0) {
                    m_done = true;
                    if (std::ferror(m_file))
                        return fail(m_path, std::string("read error: ") + std::strerror(errno));
                    // A nonzero hint means the last frame wanted more input than the file had.
                    if (m_lastHint != 0)
                        return fail(m_path, "truncated zstd stream (the last frame is incomplete)");
                    return traits_type::eof();
                }
                m_input = ZSTD_inBuffer{m_in.data(), n, 0};
            }
            ZSTD_outBuffer output{m_out.data(), m_out.size(), 0};
            const std::size_t hint = ZSTD_decompressStream(m_stream, &output, &m_input);
            if (ZSTD_isError(hint))
                return fail(m_path, std::string("corrupt zstd data: ") + ZSTD_getErrorName(hint));
            m_lastHint = hint;
            if (output.pos > 0) return deliver(m_out.data(), m_out.data() + output.pos);
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
};

// Decompresses a bzip2 file (OpenBench uploads its datagen PGNs as .pgn.bz2) into a fixed output
// buffer. Concatenated streams (as pbzip2 writes) are read in turn.
class Bzip2StreamBuf final : public CompressedStreamBuf {
  public:
    Bzip2StreamBuf(std::FILE* file, std::string path)
        : m_file(file), m_path(std::move(path)), m_in(kBufferBytes), m_out(kBufferBytes) {
        begin();
    }
    ~Bzip2StreamBuf() override {
        if (m_open) BZ2_bzDecompressEnd(&m_stream);
        std::fclose(m_file);
    }

  protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        if (failed() || m_done) return traits_type::eof();
        for (;;) {
            if (m_stream.avail_in == 0) {
                const std::size_t n = std::fread(m_in.data(), 1, m_in.size(), m_file);
                if (n == 0) {
                    m_done = true;
                    if (std::ferror(m_file))
                        return fail(m_path, std::string("read error: ") + std::strerror(errno));
                    // The input ended inside a stream: not every block arrived.
                    if (m_inStream)
                        return fail(m_path, "truncated bzip2 stream (the file ends inside it)");
                    return traits_type::eof();
                }
                m_stream.next_in = m_in.data();
                m_stream.avail_in = static_cast<unsigned>(n);
            }
            if (!m_inStream && !begin()) return traits_type::eof();
            m_stream.next_out = m_out.data();
            m_stream.avail_out = static_cast<unsigned>(m_out.size());
            const int status = BZ2_bzDecompress(&m_stream);
            if (status != BZ_OK && status != BZ_STREAM_END)
                return fail(m_path, std::string("corrupt bzip2 data (") + describe(status) + ")");
            if (status == BZ_STREAM_END) m_inStream = false;
            const std::size_t produced = m_out.size() - m_stream.avail_out;
            if (produced > 0) return deliver(m_out.data(), m_out.data() + produced);
        }
    }

  private:
    static constexpr std::size_t kBufferBytes = 128 * 1024;

    // Starts (or restarts, for the next concatenated stream) the decompressor, keeping the
    // unread input.
    bool begin() {
        char* nextIn = m_stream.next_in;
        const unsigned availIn = m_stream.avail_in;
        if (m_open) BZ2_bzDecompressEnd(&m_stream);
        m_stream = bz_stream{};
        m_open = BZ2_bzDecompressInit(&m_stream, 0, 0) == BZ_OK;
        if (!m_open) {
            fail(m_path, "cannot allocate a bzip2 decompressor");
            return false;
        }
        m_stream.next_in = nextIn;
        m_stream.avail_in = availIn;
        m_inStream = true;
        return true;
    }
    static const char* describe(int status) {
        switch (status) {
        case BZ_DATA_ERROR_MAGIC: return "not bzip2 data where a stream should start";
        case BZ_DATA_ERROR: return "a block fails its checks";
        case BZ_MEM_ERROR: return "out of memory";
        default: return "decoder error";
        }
    }

    std::FILE* m_file;
    std::string m_path;
    std::vector<char> m_in, m_out;
    bz_stream m_stream{};
    bool m_open = false;
    bool m_inStream = false; // inside a stream whose end has not been decoded
    bool m_done = false;
};

} // namespace

util::Result<std::unique_ptr<InputFile>> InputFile::open(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return makeError("cannot read " + path + ": " + std::strerror(errno));
    unsigned char magic[4] = {};
    const bool full = std::fread(magic, 1, sizeof magic, f) == sizeof magic;
    const bool zstd = full && std::memcmp(magic, kZstdMagic, sizeof kZstdMagic) == 0;
    const bool bzip2 = full && isBzip2Magic(magic);
    std::unique_ptr<InputFile> input(new InputFile());
    input->m_path = path;
    input->m_compressed = zstd || bzip2;
    if (input->m_compressed) {
        std::rewind(f);
        std::unique_ptr<CompressedStreamBuf> buffer;
        if (zstd)
            buffer = std::make_unique<ZstdStreamBuf>(f, path);
        else
            buffer = std::make_unique<Bzip2StreamBuf>(f, path);
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
    return static_cast<const CompressedStreamBuf&>(*m_buffer).error();
}

} // namespace axon::data

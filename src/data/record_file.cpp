// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and writing training-data files.
#include "data/record_file.h"

#include "util/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace axon::data {

namespace {

using util::makeError;

struct Header {
    char magic[8];
    std::uint32_t version;
    std::uint32_t recordSize;
    std::uint64_t count;
    std::uint64_t reserved;
};
static_assert(sizeof(Header) == kDataHeaderSize);

Header makeHeader(std::uint64_t count) {
    Header h{};
    std::memcpy(h.magic, kDataMagic, sizeof h.magic);
    h.version = kDataFormatVersion;
    h.recordSize = sizeof(TrainingRecord);
    h.count = count;
    return h;
}

// Why a header does not describe a file of `fileSize` bytes, or empty.
std::string checkHeader(const Header& h, std::uint64_t fileSize, const std::string& path) {
    if (std::memcmp(h.magic, kDataMagic, sizeof h.magic) != 0)
        return path + ": not an Axon training-data file (bad magic)";
    if (h.version < kOldestDataFormatVersion || h.version > kDataFormatVersion)
        return path + ": unsupported data format version " + std::to_string(h.version);
    if (h.recordSize != sizeof(TrainingRecord))
        return path + ": record size " + std::to_string(h.recordSize) + " is not 32";
    if (h.reserved != 0) return path + ": reserved header bytes are not zero";
    const std::uint64_t expected = kDataHeaderSize + h.count * sizeof(TrainingRecord);
    if (h.count > (std::uint64_t(1) << 50) || fileSize != expected)
        return path + ": header says " + std::to_string(h.count) + " records (" +
               std::to_string(expected) + " bytes) but the file has " + std::to_string(fileSize) +
               " bytes (truncated or corrupt)";
    return {};
}

std::string recordError(const std::string& path, std::uint64_t index, const std::string& why) {
    return path + ": record " + std::to_string(index) + ": " + why;
}

} // namespace

util::Result<std::unique_ptr<RecordWriter>> RecordWriter::create(const std::string& path) {
    std::FILE* f = std::fopen((path + ".tmp").c_str(), "wb");
    if (!f) return makeError("cannot write " + path + ".tmp: " + std::strerror(errno));
    const Header h = makeHeader(0);
    if (std::fwrite(&h, sizeof h, 1, f) != 1) {
        std::fclose(f);
        std::remove((path + ".tmp").c_str());
        return makeError("cannot write " + path + ".tmp");
    }
    return std::unique_ptr<RecordWriter>(new RecordWriter(path, f));
}

RecordWriter::~RecordWriter() {
    if (m_file) {
        std::fclose(m_file);
        std::remove((m_path + ".tmp").c_str());
    }
}

std::string RecordWriter::write(std::span<const TrainingRecord> records) {
    if (!m_file) return "writer for " + m_path + " is finished";
    if (records.empty()) return {};
    if (std::fwrite(records.data(), sizeof(TrainingRecord), records.size(), m_file) !=
        records.size()) {
        m_failed = true;
        return "write to " + m_path + ".tmp failed: " + std::strerror(errno);
    }
    m_count += records.size();
    return {};
}

std::string RecordWriter::finish() {
    if (!m_file) return "writer for " + m_path + " is finished";
    const Header h = makeHeader(m_count);
    const bool ok = !m_failed && std::fseek(m_file, 0, SEEK_SET) == 0 &&
                    std::fwrite(&h, sizeof h, 1, m_file) == 1;
    return util::commitTempFile(m_file, m_path, ok).value_or("");
}

util::Result<std::unique_ptr<RecordReader>> RecordReader::open(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return makeError("cannot read " + path + ": " + ec.message());
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return makeError("cannot read " + path + ": " + std::strerror(errno));
    Header h{};
    if (size < kDataHeaderSize || std::fread(&h, sizeof h, 1, f) != 1) {
        std::fclose(f);
        return makeError(path + ": too short for a training-data header");
    }
    if (auto e = checkHeader(h, size, path); !e.empty()) {
        std::fclose(f);
        return makeError(e);
    }
    return std::unique_ptr<RecordReader>(new RecordReader(path, f, h.count));
}

RecordReader::~RecordReader() { std::fclose(m_file); }

util::Result<std::size_t> RecordReader::read(std::span<TrainingRecord> out) {
    const std::size_t want = std::size_t(std::min<std::uint64_t>(out.size(), m_count - m_next));
    if (want == 0) return std::size_t(0);
    if (std::fread(out.data(), sizeof(TrainingRecord), want, m_file) != want)
        return makeError(m_path + ": read failed at record " + std::to_string(m_next));
    for (std::size_t i = 0; i < want; ++i)
        if (auto e = validateRecord(out[i])) return makeError(recordError(m_path, m_next + i, *e));
    m_next += want;
    return want;
}

bool RecordReader::seek(std::uint64_t index) {
    if (index > m_count) return false;
    if (std::fseek(m_file, long(kDataHeaderSize + index * sizeof(TrainingRecord)), SEEK_SET) != 0)
        return false;
    m_next = index;
    return true;
}

util::Result<std::unique_ptr<MappedRecords>> MappedRecords::open(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return makeError("cannot read " + path + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || std::size_t(st.st_size) < kDataHeaderSize) {
        ::close(fd);
        return makeError(path + ": too short for a training-data header");
    }
    void* map = ::mmap(nullptr, std::size_t(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED) return makeError("cannot map " + path + ": " + std::strerror(errno));
    Header h{};
    std::memcpy(&h, map, sizeof h);
    if (auto e = checkHeader(h, std::uint64_t(st.st_size), path); !e.empty()) {
        ::munmap(map, std::size_t(st.st_size));
        return makeError(e);
    }
    std::unique_ptr<MappedRecords> m(new MappedRecords());
    m->m_path = path;
    m->m_map = map;
    m->m_mapSize = std::size_t(st.st_size);
    m->m_records =
        reinterpret_cast<const TrainingRecord*>(static_cast<const char*>(map) + kDataHeaderSize);
    m->m_count = std::size_t(h.count);
    return m;
}

MappedRecords::~MappedRecords() {
    if (m_map) ::munmap(m_map, m_mapSize);
}

std::string MappedRecords::validateAll() const {
    for (std::size_t i = 0; i < m_count; ++i)
        if (auto e = validateRecord(m_records[i])) return recordError(m_path, i, *e);
    return {};
}

util::Result<std::vector<TrainingRecord>> readAllRecords(const std::string& path) {
    auto reader = RecordReader::open(path);
    if (!reader) return makeError(reader.error());
    std::vector<TrainingRecord> records(std::size_t((*reader)->count()));
    auto n = (*reader)->read(records);
    if (!n) return makeError(n.error());
    return records;
}

std::string writeAllRecords(const std::string& path, std::span<const TrainingRecord> records) {
    auto writer = RecordWriter::create(path);
    if (!writer) return writer.error();
    if (auto e = (*writer)->write(records); !e.empty()) return e;
    return (*writer)->finish();
}

} // namespace axon::data

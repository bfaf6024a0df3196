// SPDX-License-Identifier: GPL-3.0-or-later
// Training-data files (docs/training-data.md): a 32-byte header (magic, version, record size,
// record count) followed by the records. Writers write a temporary file and rename it when
// finished, so a half-written file is never taken for data; readers check the header against
// the file's size and every record they hand out.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "data/training_record.h"
#include "util/result.h"

namespace axon::data {

constexpr char kDataMagic[8] = {'A', 'X', 'O', 'N', 'D', 'A', 'T', 'A'};
// Version 2 added castling rights to the record's flags; version 1 files (no rights) are read
// as they are.
constexpr std::uint32_t kDataFormatVersion = 2;
constexpr std::uint32_t kOldestDataFormatVersion = 1;
constexpr std::size_t kDataHeaderSize = 32;

class RecordWriter {
  public:
    // Writes to `path`.tmp; `finish` renames it to `path`. Destroyed unfinished, it removes
    // the temporary file.
    static util::Result<std::unique_ptr<RecordWriter>> create(const std::string& path);
    ~RecordWriter();

    // An error message, or empty on success.
    std::string write(std::span<const TrainingRecord> records);
    std::string write(const TrainingRecord& r) { return write(std::span(&r, 1)); }
    std::string finish();
    std::uint64_t count() const { return m_count; }

  private:
    RecordWriter(std::string path, std::FILE* file) : m_path(std::move(path)), m_file(file) {}
    std::string m_path;
    std::FILE* m_file;
    std::uint64_t m_count = 0;
    bool m_failed = false;
};

// Streams a file's records in order.
class RecordReader {
  public:
    static util::Result<std::unique_ptr<RecordReader>> open(const std::string& path);
    ~RecordReader();

    std::uint64_t count() const { return m_count; }
    // Fills `out` from the current position; returns how many were read (0 at the end), or an
    // error naming the file and record index when a record is invalid or the read fails.
    util::Result<std::size_t> read(std::span<TrainingRecord> out);
    // Moves to record `index` (< count).
    bool seek(std::uint64_t index);

  private:
    RecordReader(std::string path, std::FILE* file, std::uint64_t count)
        : m_path(std::move(path)), m_file(file), m_count(count) {}
    std::string m_path;
    std::FILE* m_file;
    std::uint64_t m_count;
    std::uint64_t m_next = 0;
};

// A whole file mapped read-only (records are not validated up front; `validateAll` does).
class MappedRecords {
  public:
    static util::Result<std::unique_ptr<MappedRecords>> open(const std::string& path);
    ~MappedRecords();
    std::span<const TrainingRecord> records() const { return {m_records, m_count}; }
    // The first invalid record's index and reason, or an empty string.
    std::string validateAll() const;

  private:
    MappedRecords() = default;
    std::string m_path;
    void* m_map = nullptr;
    std::size_t m_mapSize = 0;
    const TrainingRecord* m_records = nullptr;
    std::size_t m_count = 0;
};

// Reads a whole (small) file into memory, validated.
util::Result<std::vector<TrainingRecord>> readAllRecords(const std::string& path);
// Writes records atomically (temporary file, then rename); an error message or empty.
std::string writeAllRecords(const std::string& path, std::span<const TrainingRecord> records);

} // namespace axon::data

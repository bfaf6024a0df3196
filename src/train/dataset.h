// SPDX-License-Identifier: GPL-3.0-or-later
// Training data for the trainer: memory-mapped data files split into training and validation
// ranges, and the batch loader's bounded-memory shuffle.
//
// The shuffle: the training records are cut into chunks of consecutive records; every pass
// visits the chunks in a fresh random order, `bufferChunks` at a time, copies those chunks'
// usable records into one buffer, shuffles the buffer and serves batches from it. Pages of a
// chunk are released from the mapping once copied, so resident memory stays near the buffer
// (bufferChunks * chunkRecords * 32 bytes) however large the files are. Every pass and group
// has its own generator derived from the seed, so a (pass, group, offset) cursor is the whole
// state to resume from.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "data/record_file.h"
#include "train/config.h"
#include "util/result.h"

namespace axon::train {

struct RecordRange {
    std::size_t file = 0;
    std::uint64_t begin = 0, end = 0;
};

// Records usable for training: valid, and with |score| within the limit.
struct RecordFilter {
    int scoreLimit = 10000;
    bool accepts(const data::TrainingRecord& r) const;
    bool scoreWithin(const data::TrainingRecord& r) const;
};

class TrainingData {
  public:
    // Opens every data file (directories: every file in them that starts with the data magic,
    // by name) and splits off the validation records.
    static util::Result<std::unique_ptr<TrainingData>> open(const TrainConfig& config);

    std::span<const data::TrainingRecord> records(std::size_t file) const {
        return m_files[file]->records();
    }
    const std::vector<RecordRange>& trainRanges() const { return m_train; }
    std::uint64_t trainCount() const;
    std::uint64_t validationCount() const;
    const std::vector<std::string>& paths() const { return m_paths; }

    // Up to `max` validation records evenly strided over the validation ranges, filtered.
    std::vector<data::TrainingRecord> validationSample(std::int64_t max,
                                                       const RecordFilter& filter) const;
    // Gives the pages of records [begin, end) of `file` back to the kernel (they are read
    // again from the file if touched).
    void release(std::size_t file, std::uint64_t begin, std::uint64_t end) const;

  private:
    std::vector<std::string> m_paths;
    std::vector<std::unique_ptr<data::MappedRecords>> m_files;
    std::vector<RecordRange> m_train, m_validation;
};

struct LoaderCursor {
    std::uint64_t pass = 0;
    std::uint64_t group = 0;  // which buffer-full of chunks within the pass
    std::uint64_t offset = 0; // records already served from that buffer
    bool operator==(const LoaderCursor&) const = default;
};

struct LoaderStats {
    std::uint64_t served = 0;
    std::uint64_t rejected = 0; // invalid or over the score limit
};

class BatchLoader {
  public:
    BatchLoader(const TrainingData& data, const TrainConfig& config);

    // Fills `out` completely, going on to further passes as needed; an error when no training
    // record passes the filter.
    util::Result<bool> next(std::span<data::TrainingRecord> out);
    LoaderCursor cursor() const { return m_cursor; }
    // Continues from a cursor() taken earlier in a run with the same data and configuration.
    util::Result<bool> seek(const LoaderCursor& cursor);
    const LoaderStats& stats() const { return m_stats; }
    std::uint64_t groupsPerPass() const;

  private:
    void loadGroup(); // fills m_buffer for m_cursor's pass and group, advancing when empty
    std::vector<std::size_t> chunkOrder(std::uint64_t pass) const;

    const TrainingData& m_data;
    std::uint64_t m_seed;
    RecordFilter m_filter;
    int m_bufferChunks;
    std::vector<RecordRange> m_chunks;
    // Per chunk: 1 once a load found every record of it valid. The files are mapped read-only
    // for the run, so later passes check only the score: validating every record on every
    // pass was 4.7 % of a 256-unit run's CPU, on the loading thread while the others waited.
    std::vector<std::uint8_t> m_chunkValid;
    std::vector<std::size_t> m_order; // chunk order of m_orderPass
    std::uint64_t m_orderPass = ~0ULL;
    std::vector<data::TrainingRecord> m_buffer;
    bool m_loaded = false;
    LoaderCursor m_cursor;
    LoaderStats m_stats;
};

// SplitMix-style mixing of several words into one seed.
std::uint64_t mixSeed(std::uint64_t a, std::uint64_t b, std::uint64_t c = 0);

} // namespace axon::train

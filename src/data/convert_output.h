// SPDX-License-Identifier: GPL-3.0-or-later
// What every converter writes to: a record sink (one per output format, behind one interface),
// the counts of what was read, written and skipped, and the progress callback.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "data/training_record.h"

namespace axon::data {

// Where records go. Writers are atomic: nothing appears at the output path before `finish`,
// and a sink destroyed unfinished leaves nothing behind.
class RecordSink {
  public:
    virtual ~RecordSink() = default;
    // An error message, or empty.
    virtual std::string write(const TrainingRecord& r) = 0;
    virtual std::string finish() = 0;
};

// Keeps the records in memory (tests, small tools).
class MemorySink final : public RecordSink {
  public:
    std::string write(const TrainingRecord& r) override {
        records.push_back(r);
        return {};
    }
    std::string finish() override { return {}; }
    std::vector<TrainingRecord> records;
};

struct ConvertStats {
    std::uint64_t inputs = 0;
    // Games, puzzles, EPD lines or records read (malformed and skipped ones included).
    std::uint64_t items = 0;
    std::uint64_t written = 0;
    // Items that could not be read (a bad game, CSV row or EPD line), and the first reason.
    std::uint64_t malformed = 0;
    std::string firstMalformed;
    // Items or positions left out on purpose, by reason ("variant", "check", ...).
    std::map<std::string, std::uint64_t> skipped;
    // Facts worth reporting that skip nothing ("games without evals", "without ce", ...).
    std::map<std::string, std::uint64_t> notes;
    double seconds = 0;
};

// A record holds at most 32 pieces; a FEN setup may have more.
inline bool fitsRecord(const chess::Position& pos) {
    return __builtin_popcountll(pos.pieces()) <= 32;
}

// What converters write to: the sink, the counts and a progress callback called at most every
// `progressSeconds`.
class ConvertOutput {
  public:
    using Progress = std::function<void(const ConvertStats&)>;
    ConvertOutput(RecordSink& sink, ConvertStats& stats, Progress progress = {},
                  double progressSeconds = 3.0);

    // An error message (the sink failed), or empty.
    std::string write(const TrainingRecord& r);
    void skip(const std::string& reason, std::uint64_t n = 1) { m_stats.skipped[reason] += n; }
    void note(const std::string& what, std::uint64_t n = 1) { m_stats.notes[what] += n; }
    void malformed(const std::string& why);
    // Counts an item read; calls the progress callback when it is due.
    void item();
    ConvertStats& stats() { return m_stats; }

  private:
    void maybeReport();
    RecordSink& m_sink;
    ConvertStats& m_stats;
    Progress m_progress;
    std::chrono::steady_clock::duration m_interval;
    std::chrono::steady_clock::time_point m_start, m_nextReport;
};

} // namespace axon::data

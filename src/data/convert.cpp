// SPDX-License-Identifier: GPL-3.0-or-later
// The conversion driver: file sinks for the output formats, record and text sources, and the
// all-or-nothing output.
#include "data/convert.h"

#include <array>
#include <chrono>

#include "data/bulletformat.h"
#include "data/convert_epd.h"
#include "data/convert_input.h"
#include "data/engine_pgn.h"
#include "data/game_format.h"
#include "data/game_records.h"
#include "data/record_file.h"

namespace axon::data {

namespace {

using util::makeError;

constexpr std::size_t kBatch = 4096;

struct FormatName {
    DataFormat format;
    const char* name;
};
constexpr FormatName kFormatNames[] = {{DataFormat::Axon, "axon"},
                                       {DataFormat::Bullet, "bullet"},
                                       {DataFormat::LichessPgn, "lichess-pgn"},
                                       {DataFormat::EnginePgn, "pgn"},
                                       {DataFormat::Puzzles, "puzzles"},
                                       {DataFormat::Epd, "epd"},
                                       {DataFormat::Games, "games"}};

// Buffers records into batches for a writer of Axon records or bullet boards.
template <typename Writer, typename Item, Item (*Convert)(const TrainingRecord&)>
class BufferedSink final : public RecordSink {
  public:
    explicit BufferedSink(std::unique_ptr<Writer> writer) : m_writer(std::move(writer)) {}
    std::string write(const TrainingRecord& r) override {
        m_buffer.push_back(Convert(r));
        return m_buffer.size() < kBatch ? std::string() : flush();
    }
    std::string finish() override {
        if (auto e = flush(); !e.empty()) return e;
        return m_writer->finish();
    }

  private:
    std::string flush() {
        auto e = m_writer->write(m_buffer);
        m_buffer.clear();
        return e;
    }
    std::unique_ptr<Writer> m_writer;
    std::vector<Item> m_buffer;
};

TrainingRecord asRecord(const TrainingRecord& r) { return r; }
using AxonSink = BufferedSink<RecordWriter, TrainingRecord, asRecord>;
using BulletSink = BufferedSink<BulletWriter, BulletBoard, toBullet>;

std::string copyAxon(const std::string& path, ConvertOutput& out) {
    if (isGameFile(path)) return path + ": an Axon game file: convert it with --from games";
    auto reader = RecordReader::open(path);
    if (!reader) return reader.error();
    std::vector<TrainingRecord> batch(kBatch);
    for (;;) {
        auto n = (*reader)->read(batch);
        if (!n) return n.error();
        if (*n == 0) return {};
        for (std::size_t i = 0; i < *n; ++i) {
            out.item();
            if (auto e = out.write(batch[i]); !e.empty()) return e;
        }
    }
}

std::string readBullet(const std::string& path, ConvertOutput& out) {
    auto reader = BulletReader::open(path);
    if (!reader) return reader.error();
    std::vector<BulletBoard> batch(kBatch);
    for (;;) {
        const std::uint64_t first = (*reader)->position();
        auto n = (*reader)->read(batch);
        if (!n) return n.error();
        if (*n == 0) return {};
        for (std::size_t i = 0; i < *n; ++i) {
            out.item();
            auto r = fromBullet(batch[i]);
            // A binary file with one bad record is corrupt as a whole: stop.
            if (!r) return path + ": record " + std::to_string(first + i) + ": " + r.error();
            if (auto e = out.write(*r); !e.empty()) return e;
        }
    }
}

// Each game's positions through datagen's filters (appendGameRecords), so a games chunk
// converts to the records the same datagen run writes as records; `filter` may lift the
// tactical ones.
std::string readGames(const std::string& path, const PositionFilter& filter, ConvertOutput& out) {
    auto reader = GameReader::open(path);
    if (!reader) return reader.error();
    Game game;
    std::vector<TrainingRecord> records;
    for (;;) {
        auto more = (*reader)->next(game);
        // A binary file with one bad game is corrupt as a whole: stop.
        if (!more) return more.error();
        if (!*more) return {};
        out.item();
        SkipCounts counts = {};
        records.clear();
        appendGameRecords(game, records, counts, filter);
        for (int reason = 1; reason < 5; ++reason)
            if (counts[reason]) out.skip(toString(SkipReason(reason)), counts[reason]);
        for (const TrainingRecord& r : records)
            if (auto e = out.write(r); !e.empty()) return e;
    }
}

std::string readText(DataFormat from, const std::string& path, const ConvertConfig& config,
                     ConvertOutput& out) {
    auto input = InputFile::open(path);
    if (!input) return input.error();
    const std::uint64_t itemsBefore = out.stats().items;
    const std::uint64_t malformedBefore = out.stats().malformed;
    std::string error;
    switch (from) {
    case DataFormat::LichessPgn:
        error = convertLichessPgn((*input)->stream(), config.pgn, out);
        break;
    case DataFormat::EnginePgn: error = convertEnginePgn((*input)->stream(), out); break;
    case DataFormat::Puzzles:
        error = convertPuzzles((*input)->stream(), config.puzzles, out);
        break;
    default: error = convertEpd((*input)->stream(), out); break;
    }
    // A decompression failure cut the text short: what was read of it cannot be trusted whole.
    if (auto e = (*input)->error(); !e.empty()) return e;
    if (!error.empty()) return path + ": " + error;
    const std::uint64_t items = out.stats().items - itemsBefore;
    const std::uint64_t bad = out.stats().malformed - malformedBefore;
    if (items == bad)
        return path + ": nothing readable as " + formatName(from) +
               (bad ? " (" + std::to_string(bad) +
                          " malformed; first: " + out.stats().firstMalformed + ")"
                    : std::string(" (empty)"));
    return {};
}

} // namespace

std::optional<DataFormat> parseDataFormat(std::string_view name) {
    for (const FormatName& f : kFormatNames)
        if (name == f.name) return f.format;
    return std::nullopt;
}

std::string formatName(DataFormat format) {
    for (const FormatName& f : kFormatNames)
        if (format == f.format) return f.name;
    return "?";
}

util::Result<std::unique_ptr<RecordSink>> createFileSink(DataFormat format,
                                                         const std::string& path) {
    if (format == DataFormat::Axon) {
        auto writer = RecordWriter::create(path);
        if (!writer) return makeError(writer.error());
        return std::unique_ptr<RecordSink>(new AxonSink(std::move(*writer)));
    }
    if (format == DataFormat::Bullet) {
        auto writer = BulletWriter::create(path);
        if (!writer) return makeError(writer.error());
        return std::unique_ptr<RecordSink>(new BulletSink(std::move(*writer)));
    }
    return makeError("cannot write " + formatName(format) + " (outputs: axon, bullet)");
}

std::string convertInput(DataFormat from, const std::string& path, const ConvertConfig& config,
                         ConvertOutput& out) {
    ++out.stats().inputs;
    switch (from) {
    case DataFormat::Axon: return copyAxon(path, out);
    case DataFormat::Bullet: return readBullet(path, out);
    case DataFormat::Games: return readGames(path, config.games, out);
    default: return readText(from, path, config, out);
    }
}

util::Result<ConvertStats> runConvert(const ConvertConfig& config) {
    if (config.inputs.empty()) return makeError("no input files");
    if (config.pgn.active() && config.from != DataFormat::LichessPgn)
        return makeError("the game and position filters apply to --from lichess-pgn only");
    if (config.puzzles.wholeLine && config.from != DataFormat::Puzzles)
        return makeError("--puzzle-line applies to --from puzzles only");
    if (config.games.keepNoisy && config.from != DataFormat::Games)
        return makeError("--keep-noisy applies to --from games only");
    for (const std::string& in : config.inputs)
        if (in == config.output) return makeError(in + " is both an input and the output");
    auto sink = createFileSink(config.to, config.output);
    if (!sink) return makeError(sink.error());
    const auto start = std::chrono::steady_clock::now();
    ConvertStats stats;
    ConvertOutput out(**sink, stats, config.onProgress, config.progressSeconds);
    for (const std::string& path : config.inputs)
        if (auto e = convertInput(config.from, path, config, out); !e.empty())
            return makeError(e); // the unfinished sink removes its temporary file
    if (auto e = (*sink)->finish(); !e.empty()) return makeError(e);
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return stats;
}

} // namespace axon::data

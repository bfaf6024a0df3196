// SPDX-License-Identifier: GPL-3.0-or-later
// The labeller: input planning, one block per task on the match runner's engine pool, teacher
// restarts, part files and the final merge.
#include "data/labeler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>

#include "chess/epd.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci_move.h"
#include "data/game_format.h"
#include "data/output_lock.h"
#include "data/record_file.h"

namespace axon::data {

namespace fs = std::filesystem;

int teacherScore(const match::SearchResult& answer, double scoreFactor) {
    if (answer.scoreMate) {
        const int moves = *answer.scoreMate;
        if (moves > 0) return kRecordScoreLimit - std::min(kRecordScoreLimit, 2 * moves - 1);
        return -(kRecordScoreLimit - std::min(kRecordScoreLimit, -2 * moves));
    }
    const double cp = double(answer.scoreCp.value_or(0)) * scoreFactor;
    return int(std::llround(std::clamp(cp, -double(kRecordScoreLimit), double(kRecordScoreLimit))));
}

std::string describeTeacher(const match::EngineConfig& teacher) {
    std::string text = teacher.command;
    for (const auto& [key, value] : teacher.options) text += " option." + key + "=" + value;
    return text;
}

util::Result<TrainingRecord> labelFromAnswer(const chess::Position& pos,
                                             const match::SearchResult& answer, GameResult result,
                                             int ply, double scoreFactor) {
    if (!answer.scoreCp && !answer.scoreMate)
        return util::makeError("the teacher reported no score");
    chess::Move best;
    auto parsed = chess::parseUciMove(pos, answer.bestMove);
    if (parsed) {
        best = *parsed;
    } else if (!chess::MoveList(pos).empty()) {
        // A teacher that answers a move we cannot play saw another position: its score would
        // be a mislabel.
        return util::makeError("the teacher's best move '" + answer.bestMove +
                               "' is not legal here");
    }
    return makeRecord(pos, teacherScore(answer, scoreFactor), result, best, ply);
}

namespace {

using Clock = std::chrono::steady_clock;

struct Block {
    std::size_t source = 0;
    // Records or lines [begin, end); in a game file, games [begin, end) starting at `mark`.
    std::uint64_t begin = 0, end = 0;
    GameMark mark;
    std::uint64_t positions = 0;
};

struct Source {
    std::string path;
    bool binary = false;
    // A game file: its blocks are whole games, planned when it is read (its plies counted).
    bool games = false;
    std::vector<Block> gameBlocks;
    std::uint64_t count = 0; // positions
    // Text files: the position lines and their line numbers.
    std::vector<std::string> lines;
    std::vector<std::uint64_t> lineNumbers;
};

// A game file is read whole (every game checked) to cut it into blocks of whole games holding
// at least `blockSize` positions each.
util::Result<Source> readGameSource(const std::string& path, std::size_t blockSize) {
    Source source;
    source.path = path;
    source.games = true;
    auto reader = GameReader::open(path);
    if (!reader) return util::makeError(reader.error());
    source.count = (*reader)->plies();
    Game game;
    Block block;
    for (std::uint64_t index = 0;; ++index) {
        auto more = (*reader)->next(game);
        if (!more) return util::makeError(more.error());
        if (!*more) break;
        block.positions += game.plies.size();
        block.end = index + 1;
        if (block.positions >= blockSize) {
            source.gameBlocks.push_back(block);
            block = Block{};
            block.begin = block.end = index + 1;
            block.mark = (*reader)->mark();
        }
    }
    if (block.end > block.begin) source.gameBlocks.push_back(block);
    return source;
}

util::Result<Source> readSource(const std::string& path, std::size_t blockSize) {
    if (isGameFile(path)) return readGameSource(path, blockSize);
    Source source;
    source.path = path;
    std::ifstream in(path, std::ios::binary);
    if (!in) return util::makeError("cannot open " + path);
    char magic[sizeof kDataMagic] = {};
    in.read(magic, sizeof magic);
    if (in.gcount() == sizeof magic && std::memcmp(magic, kDataMagic, sizeof magic) == 0) {
        auto reader = RecordReader::open(path);
        if (!reader) return util::makeError(reader.error());
        source.binary = true;
        source.count = (*reader)->count();
        return source;
    }
    in.clear();
    in.seekg(0);
    std::string line;
    for (std::uint64_t number = 1; std::getline(in, line); ++number) {
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        source.lines.push_back(line);
        source.lineNumbers.push_back(number);
    }
    source.count = source.lines.size();
    return source;
}

std::string manifestText(const LabelConfig& config, const std::vector<Source>& sources) {
    std::ostringstream out;
    out << "axon label 1\nblock " << config.blockSize << "\nteacher " << config.teacherDescription
        << "\nlimit " << config.limit.describe() << "\n";
    // Only when scaled, so the manifests of runs before the option still match.
    if (config.scoreFactor != 1.0) {
        char factor[40];
        std::snprintf(factor, sizeof factor, "%.17g", config.scoreFactor);
        out << "score-factor " << factor << "\n";
    }
    for (const Source& s : sources) {
        std::error_code ec;
        out << "input " << s.path << " " << fs::file_size(s.path, ec) << " " << s.count << "\n";
    }
    return out.str();
}

std::string partPath(const fs::path& dir, std::size_t block, bool games) {
    char name[32];
    std::snprintf(name, sizeof name, "part-%06zu%s", block, games ? ".games" : ".bin");
    return (dir / name).string();
}

// One position to label and where it came from, for reports.
struct Item {
    std::string where;
    std::optional<chess::Position> position;
    std::string error; // why there is no position
    GameResult result = GameResult::Draw;
    int ply = 0;
    // The input's own score (data and game files), for LabelStats' scale fit.
    std::optional<int> inputScore;
};

// A block's positions; from a game file also its games, whose plies the items are in order.
struct BlockInput {
    std::vector<Item> items;
    std::vector<Game> games;
};

util::Result<BlockInput> readBlock(const Source& source, const Block& block) {
    BlockInput input;
    std::vector<Item>& items = input.items;
    if (source.games) {
        auto reader = GameReader::open(source.path);
        if (!reader) return util::makeError(reader.error());
        if (!(*reader)->seek(block.mark)) return util::makeError("cannot seek in " + source.path);
        for (std::uint64_t index = block.begin; index < block.end; ++index) {
            Game game;
            auto more = (*reader)->next(game);
            if (!more) return util::makeError(more.error());
            if (!*more) return util::makeError(source.path + ": fewer games than planned");
            forEachPosition(game,
                            [&](const chess::Position& pos, const GamePly& ply, std::size_t i) {
                                Item item;
                                item.where = source.path + " game " + std::to_string(index) +
                                             " ply " + std::to_string(i);
                                item.position = pos;
                                item.result = pos.sideToMove() == chess::White
                                                  ? game.whiteResult
                                                  : GameResult(2 - int(game.whiteResult));
                                item.ply = pos.gamePly();
                                if (ply.score != kNoPlyScore) item.inputScore = ply.score;
                                items.push_back(std::move(item));
                            });
            input.games.push_back(std::move(game));
        }
        return input;
    }
    if (source.binary) {
        auto reader = RecordReader::open(source.path);
        if (!reader) return util::makeError(reader.error());
        if (!(*reader)->seek(block.begin)) return util::makeError("cannot seek in " + source.path);
        std::vector<TrainingRecord> records(block.end - block.begin);
        auto n = (*reader)->read(records);
        if (!n) return util::makeError(n.error());
        if (*n != records.size()) return util::makeError(source.path + ": short read");
        for (std::size_t i = 0; i < records.size(); ++i) {
            Item item;
            item.where = source.path + " record " + std::to_string(block.begin + i);
            auto pos = chess::parseFen(recordFen(records[i]));
            if (pos)
                item.position = std::move(*pos);
            else
                item.error = pos.error();
            item.result = records[i].result;
            item.ply = records[i].ply;
            item.inputScore = records[i].score;
            items.push_back(std::move(item));
        }
        return input;
    }
    for (std::uint64_t i = block.begin; i < block.end; ++i) {
        Item item;
        item.where = source.path + " line " + std::to_string(source.lineNumbers[i]);
        auto record = chess::parseEpd(source.lines[i]);
        if (record) {
            item.position = std::move(record->position);
            item.ply = item.position->gamePly();
        } else {
            item.error = record.error();
        }
        items.push_back(std::move(item));
    }
    return input;
}

// What the tasks share.
struct Shared {
    std::mutex mutex; // stats, reports, progress, error
    LabelStats stats;
    Clock::time_point start, lastProgress;
    // When the first block began: progress rates leave out the teachers' start-up.
    std::optional<Clock::time_point> workStart;
    std::string error;
    std::atomic<bool> failed{false};
    // Teacher failures since the last position labelled, over all jobs.
    std::atomic<int> failuresInARow{0};
};

class BlockLabeller {
  public:
    BlockLabeller(const LabelConfig& config, const std::atomic<bool>& stop,
                  const LabelCallbacks& callbacks, Shared& shared)
        : m_config(config), m_stop(stop), m_callbacks(callbacks), m_shared(shared) {}

    // Labels one block and writes its part file; returns without a part when stopped or when
    // the run failed.
    void run(match::Engine& engine, const Source& source, const Block& block,
             const std::string& part) {
        {
            const std::lock_guard lock(m_shared.mutex);
            if (!m_shared.workStart) m_shared.workStart = m_shared.lastProgress = Clock::now();
        }
        auto input = readBlock(source, block);
        if (!input) return fail(input.error());
        const std::vector<Item>* items = &input->items;
        if (!engine.newGame() && !restart(engine)) return;
        std::vector<TrainingRecord> records;
        // Game files keep every ply: one the teacher could not label keeps no score.
        std::vector<int> scores(source.games ? items->size() : 0, kNoPlyScore);
        const std::size_t inFlight = std::size_t(std::max(1, m_config.inFlight));
        std::size_t next = 0;
        while (next < items->size()) {
            if (m_stop.load() || m_shared.failed.load()) return;
            // Up to inFlight positions go to the teacher at once (LabelConfig::inFlight).
            std::vector<const Item*> batch;
            std::vector<match::SearchRequest> requests;
            for (; next < items->size() && batch.size() < inFlight; ++next) {
                const Item& item = (*items)[next];
                if (!item.position) {
                    account(item, "not a position: " + item.error);
                    continue;
                }
                batch.push_back(&item);
                requests.push_back(requestFor(item));
            }
            if (batch.empty()) continue;
            const std::vector<match::SearchResult> answers = engine.searchInOrder(requests);
            for (std::size_t i = 0; i < batch.size(); ++i) {
                if (m_stop.load() || m_shared.failed.load()) return;
                const Item& item = *batch[i];
                // Answered in the batch, or (the batch ended at a failure) one by one with
                // the restarts and retry of labelOne.
                auto label =
                    i < answers.size() && answers[i].status == match::SearchStatus::Ok
                        ? labelFromAnswer(*item.position, answers[i], item.result, item.ply,
                                          m_config.scoreFactor)
                        : labelOne(engine, item, i < answers.size() ? &answers[i] : nullptr);
                std::string skip;
                if (!label) {
                    if (m_shared.failed.load()) return;
                    skip = label.error();
                    if (++m_shared.failuresInARow >= kMaxFailuresInARow)
                        return fail("the teacher failed on " + std::to_string(kMaxFailuresInARow) +
                                    " positions in a row; last: " + item.where + ": " + skip);
                } else {
                    m_shared.failuresInARow = 0;
                    if (source.games)
                        scores[std::size_t(&item - items->data())] = label->score;
                    else
                        records.push_back(*label);
                }
                account(item, skip, label ? label->score : 0);
            }
        }
        std::string error;
        if (source.games) {
            // Moves and results are kept; only the scores are the teacher's.
            std::size_t scored = 0;
            for (Game& game : input->games)
                for (GamePly& ply : game.plies) ply.score = scores[scored++];
            error = writeAllGames(part, input->games);
        } else {
            error = writeAllRecords(part, records);
        }
        if (!error.empty()) fail(error);
    }

  private:
    match::SearchRequest requestFor(const Item& item) const {
        match::SearchRequest request;
        request.startFen = chess::toFen(*item.position);
        m_config.limit.applyTo(request);
        return request;
    }

    // Counts a processed position (labelled with `score` when `skip` is empty) and reports
    // progress.
    void account(const Item& item, const std::string& skip, int score = 0) {
        const std::lock_guard lock(m_shared.mutex);
        ++m_shared.stats.processed;
        if (skip.empty()) {
            ++m_shared.stats.labelled;
            if (item.inputScore)
                m_shared.stats.fit.add(*item.inputScore, score, m_config.scoreFactor);
        } else {
            ++m_shared.stats.skipped;
            if (m_callbacks.onReport) m_callbacks.onReport(item.where + ": skipped: " + skip);
        }
        const auto now = Clock::now();
        if (m_callbacks.onProgress &&
            std::chrono::duration<double>(now - m_shared.lastProgress).count() >=
                m_callbacks.progressSeconds) {
            m_shared.lastProgress = now;
            m_shared.stats.seconds =
                std::chrono::duration<double>(now - *m_shared.workStart).count();
            m_callbacks.onProgress(m_shared.stats);
        }
    }

    // Labels one position on its own: `failed` is its failed answer from a batch (the teacher
    // is restarted and the position retried), null when the batch ended before it (an earlier
    // failure's retry has restarted the teacher by then).
    util::Result<TrainingRecord> labelOne(match::Engine& engine, const Item& item,
                                          const match::SearchResult* failed) {
        const match::SearchRequest request = requestFor(item);
        match::SearchResult answer = failed ? *failed : engine.search(request);
        for (int attempt = 0; answer.status != match::SearchStatus::Ok; ++attempt) {
            const std::string what =
                answer.status == match::SearchStatus::Timeout ? "hung" : "crashed";
            report(item.where + ": the teacher " + what + " (" + answer.error + "); restarting it" +
                   (attempt == 0 ? " and retrying the position" : ""));
            engine.terminate();
            if (!restart(engine)) return util::makeError("the teacher cannot be restarted");
            if (attempt == 1) return util::makeError("the teacher " + what + " on it twice");
            answer = engine.search(request);
        }
        return labelFromAnswer(*item.position, answer, item.result, item.ply, m_config.scoreFactor);
    }

    bool restart(match::Engine& engine) {
        {
            const std::lock_guard lock(m_shared.mutex);
            ++m_shared.stats.restarts;
        }
        if (engine.ensureStarted() && engine.newGame()) return true;
        fail("the teacher cannot be restarted: " + engine.error());
        return false;
    }

    void report(const std::string& line) {
        const std::lock_guard lock(m_shared.mutex);
        if (m_callbacks.onReport) m_callbacks.onReport(line);
    }

    void fail(const std::string& error) {
        const std::lock_guard lock(m_shared.mutex);
        if (m_shared.error.empty()) m_shared.error = error;
        m_shared.failed = true;
    }

    const LabelConfig& m_config;
    const std::atomic<bool>& m_stop;
    const LabelCallbacks& m_callbacks;
    Shared& m_shared;
};

util::Result<bool> prepareParts(const fs::path& dir, const std::string& manifest) {
    std::error_code ec;
    const fs::path path = dir / "manifest.txt";
    if (fs::exists(path, ec)) {
        std::ifstream in(path);
        std::stringstream old;
        old << in.rdbuf();
        if (old.str() != manifest)
            return util::makeError(dir.string() +
                                   " holds parts of a run with other inputs, block size or "
                                   "teacher; delete it to start over. It records:\n" +
                                   old.str());
    } else {
        // The folder exists: runLabel created it to lock it.
        std::ofstream out(path.string() + ".tmp");
        out << manifest;
        if (!out.flush()) return util::makeError("cannot write " + path.string());
        out.close();
        fs::rename(path.string() + ".tmp", path, ec);
        if (ec) return util::makeError("cannot write " + path.string() + ": " + ec.message());
    }
    // Temporary parts were being written when a run was killed: never data.
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().extension() == ".tmp") fs::remove(entry.path(), ec);
    return true;
}

} // namespace

util::Result<LabelStats> runLabel(const LabelConfig& config, const match::EngineFactory& teacher,
                                  const std::atomic<bool>& stop, const LabelCallbacks& callbacks) {
    if (config.inputs.empty()) return util::makeError("no input files");
    if (config.output.empty()) return util::makeError("--out is required");
    if (config.jobs < 1) return util::makeError("--jobs must be at least 1");
    const std::size_t blockSize = std::max<std::size_t>(1, config.blockSize);

    std::vector<Source> sources;
    std::vector<Block> blocks;
    for (const auto& path : config.inputs) {
        auto source = readSource(path, blockSize);
        if (!source) return util::makeError(source.error());
        if (!sources.empty() && source->games != sources.front().games)
            return util::makeError(path + ": game files are labelled into a game file and other "
                                          "inputs into records: give one kind");
        for (Block block : source->gameBlocks) {
            block.source = sources.size();
            blocks.push_back(block);
        }
        for (std::uint64_t b = 0; !source->games && b < source->count; b += blockSize) {
            Block block;
            block.source = sources.size();
            block.begin = b;
            block.end = std::min<std::uint64_t>(source->count, b + blockSize);
            block.positions = block.end - block.begin;
            blocks.push_back(block);
        }
        sources.push_back(std::move(*source));
    }
    const bool games = sources.front().games;
    if (!config.outputs.empty()) {
        if (config.outputs.size() != config.inputs.size())
            return util::makeError("one output per input: " + std::to_string(config.inputs.size()) +
                                   " inputs, " + std::to_string(config.outputs.size()) +
                                   " outputs");
        if (games) return util::makeError("game files are labelled into one game file");
    }

    Shared shared;
    LabelStats& stats = shared.stats;
    shared.start = shared.lastProgress = Clock::now();
    for (const Source& s : sources) stats.inputs += s.count;
    stats.blocks = blocks.size();

    const fs::path partsDir = config.output + ".parts";
    std::error_code dirError;
    fs::create_directories(partsDir, dirError);
    if (dirError)
        return util::makeError("cannot create " + partsDir.string() + ": " + dirError.message());
    // Held to the end: prepareParts removes .tmp parts, which must not be another run's.
    auto outputLock = OutputLock::acquire(partsDir.string(), "axon label");
    if (!outputLock) return util::makeError(outputLock.error());
    if (auto ok = prepareParts(partsDir, manifestText(config, sources)); !ok)
        return util::makeError(ok.error());
    std::vector<std::size_t> todo;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const std::string part = partPath(partsDir, b, games);
        std::error_code ec;
        if (fs::exists(part, ec)) {
            if (games) {
                if (auto reader = GameReader::open(part)) {
                    ++stats.resumedBlocks;
                    stats.resumedRecords += (*reader)->plies();
                    continue;
                }
            } else if (auto reader = RecordReader::open(part)) {
                ++stats.resumedBlocks;
                stats.resumedRecords += (*reader)->count();
                continue;
            }
        }
        todo.push_back(b);
        stats.pending += blocks[b].positions;
    }

    BlockLabeller labeller(config, stop, callbacks, shared);
    if (!todo.empty()) {
        auto pool = match::runOnEnginePool(
            teacher, config.jobs, todo.size(),
            [&](match::Engine& engine, std::size_t i) {
                const std::size_t b = todo[i];
                labeller.run(engine, sources[blocks[b].source], blocks[b],
                             partPath(partsDir, b, games));
            },
            [](std::size_t) {});
        if (!pool) return util::makeError("the teacher does not start: " + pool.error());
    }
    stats.seconds = std::chrono::duration<double>(Clock::now() - shared.start).count();
    if (!shared.error.empty()) return util::makeError(shared.error);
    if (stop.load()) {
        stats.interrupted = true;
        return stats;
    }

    // Every part is finished: merge them in input order.
    if (games) {
        auto writer = GameWriter::create(config.output);
        if (!writer) return util::makeError(writer.error());
        for (std::size_t b = 0; b < blocks.size(); ++b) {
            auto part = readAllGames(partPath(partsDir, b, true));
            if (!part) return util::makeError(part.error());
            for (const Game& game : *part)
                if (auto error = (*writer)->write(game); !error.empty())
                    return util::makeError(error);
        }
        stats.output = (*writer)->plies();
        if (auto error = (*writer)->finish(); !error.empty()) return util::makeError(error);
        if (!config.keepParts) {
            std::error_code ec;
            fs::remove_all(partsDir, ec);
        }
        return stats;
    }
    // Blocks are in input order: one output, or each input's blocks into its own.
    std::unique_ptr<RecordWriter> writer;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const bool perInput = !config.outputs.empty();
        if (!writer || (perInput && blocks[b].source != blocks[b - 1].source)) {
            if (writer) {
                stats.output += writer->count();
                if (auto error = writer->finish(); !error.empty()) return util::makeError(error);
            }
            auto created =
                RecordWriter::create(perInput ? config.outputs[blocks[b].source] : config.output);
            if (!created) return util::makeError(created.error());
            writer = std::move(*created);
        }
        auto records = readAllRecords(partPath(partsDir, b, false));
        if (!records) return util::makeError(records.error());
        if (auto error = writer->write(*records); !error.empty()) return util::makeError(error);
    }
    // An input without records still gets its (empty) output.
    for (std::size_t i = 0; i < config.outputs.size(); ++i)
        if (sources[i].count == 0) {
            auto created = RecordWriter::create(config.outputs[i]);
            if (!created) return util::makeError(created.error());
            if (auto error = (*created)->finish(); !error.empty()) return util::makeError(error);
        }
    if (writer) {
        stats.output += writer->count();
        if (auto error = writer->finish(); !error.empty()) return util::makeError(error);
    } else if (config.outputs.empty()) {
        auto created = RecordWriter::create(config.output);
        if (!created) return util::makeError(created.error());
        if (auto error = (*created)->finish(); !error.empty()) return util::makeError(error);
    }
    if (!config.keepParts) {
        std::error_code ec;
        fs::remove_all(partsDir, ec);
    }
    return stats;
}

util::Result<ScaleFit> scaleFitOfFiles(const std::vector<std::string>& inputs,
                                       const std::vector<std::string>& labelled, double scoreFactor,
                                       std::size_t perFile) {
    if (inputs.size() != labelled.size())
        return util::makeError("scale fit: " + std::to_string(inputs.size()) + " inputs, " +
                               std::to_string(labelled.size()) + " labelled files");
    ScaleFit fit;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        auto a = RecordReader::open(inputs[i]);
        if (!a) return util::makeError(a.error());
        auto b = RecordReader::open(labelled[i]);
        if (!b) return util::makeError(b.error());
        if ((*a)->count() != (*b)->count())
            return util::makeError(labelled[i] + " holds " + std::to_string((*b)->count()) +
                                   " records, " + inputs[i] + " " + std::to_string((*a)->count()));
        const std::size_t n = std::min<std::size_t>(perFile, (*a)->count());
        std::vector<TrainingRecord> own(n), taught(n);
        auto readA = (*a)->read(own);
        if (!readA) return util::makeError(readA.error());
        auto readB = (*b)->read(taught);
        if (!readB) return util::makeError(readB.error());
        for (std::size_t k = 0; k < n; ++k) fit.add(own[k].score, taught[k].score, scoreFactor);
    }
    return fit;
}

} // namespace axon::data

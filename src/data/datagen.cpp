// SPDX-License-Identifier: GPL-3.0-or-later
// Self-play data generation: openings, the game loop over the engine facade, chunk planning,
// resume and the worker threads.
#include "data/datagen.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "chess/chess960.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci_move.h"
#include "data/game_format.h"
#include "data/game_records.h"
#include "data/output_lock.h"
#include "data/record_file.h"
#include "engine/engine.h"
#include "engine/eval_file.h"
#include "match/openings.h"
#include "nn/network_file.h"
#include "search/score.h"
#include "util/parallel.h"
#include "util/prng.h"

namespace axon::data {

namespace fs = std::filesystem;
using chess::Color;
using chess::Move;
using chess::Position;

std::optional<double> Adjudicator::update(int whiteScore, int ply) {
    m_whiteAhead = whiteScore >= kWinScore ? m_whiteAhead + 1 : 0;
    m_blackAhead = whiteScore <= -kWinScore ? m_blackAhead + 1 : 0;
    if (m_whiteAhead >= kWinPlies) return 1.0;
    if (m_blackAhead >= kWinPlies) return 0.0;
    m_level = ply >= kDrawMinPly && std::abs(whiteScore) <= kDrawScore ? m_level + 1 : 0;
    if (m_level >= kDrawPlies) return 0.5;
    // The move about to be played would be the last one allowed.
    if (ply + 1 >= kMaxGamePly) return 0.5;
    return std::nullopt;
}

std::optional<double> ruleResult(chess::GameStatus status, Color sideToMove) {
    switch (status) {
    case chess::GameStatus::Ongoing: return std::nullopt;
    case chess::GameStatus::Checkmate: return sideToMove == chess::White ? 0.0 : 1.0;
    default: return 0.5;
    }
}

const char* toString(SkipReason reason) {
    switch (reason) {
    case SkipReason::None: return "recorded";
    case SkipReason::InCheck: return "in check";
    case SkipReason::NoisyBestMove: return "capture or promotion";
    case SkipReason::Opening: return "opening";
    case SkipReason::Decided: return "decided score";
    }
    return "unknown";
}

SkipReason skipReason(const Position& pos, Move best, int score, int pliesPlayed, int openingPlies,
                      const PositionFilter& filter) {
    if (!filter.keepNoisy && pos.inCheck()) return SkipReason::InCheck;
    if (!filter.keepNoisy && best && pos.isNoisy(best)) return SkipReason::NoisyBestMove;
    if (pliesPlayed < openingPlies + kSkipPliesAfterOpening) return SkipReason::Opening;
    if (std::abs(score) > kMaxRecordedScore) return SkipReason::Decided;
    return SkipReason::None;
}

void attachResult(std::span<TrainingRecord> records, double whiteScore) {
    for (TrainingRecord& r : records) r.result = resultFor(r.sideToMove(), whiteScore);
}

std::uint64_t chunkSeed(std::uint64_t seed, int thread, std::uint64_t chunk) {
    util::Prng a(seed ^ 0xA0761D6478BD642FULL);
    util::Prng b(a.next() ^ (std::uint64_t(thread) + 1) * 0xE7037ED1A0B428DBULL);
    util::Prng c(b.next() ^ (chunk + 1) * 0x8EBC6AF09C88C6E3ULL);
    return c.next();
}

namespace {
const char* chunkExtension(DatagenFormat format) {
    return format == DatagenFormat::Games ? ".games" : ".bin";
}
} // namespace

std::string chunkFileName(std::uint64_t seed, int thread, std::uint64_t chunk,
                          DatagenFormat format) {
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "%llu-t%d-%05llu%s", static_cast<unsigned long long>(seed),
                  thread, static_cast<unsigned long long>(chunk), chunkExtension(format));
    return buffer;
}

std::vector<std::vector<std::uint64_t>> planChunks(const DatagenConfig& config) {
    const bool byGames = config.games > 0;
    const std::uint64_t total = byGames ? config.games : config.positions;
    const std::uint64_t chunkSize =
        std::max<std::uint64_t>(1, byGames ? config.chunkGames : config.chunkPositions);
    const auto threads = std::uint64_t(std::max(1, config.threads));
    std::vector<std::vector<std::uint64_t>> plan(threads);
    for (std::uint64_t t = 0; t < threads; ++t) {
        std::uint64_t share = total / threads + (t < total % threads ? 1 : 0);
        while (share > 0) {
            const std::uint64_t n = std::min(share, chunkSize);
            plan[t].push_back(n);
            share -= n;
        }
    }
    return plan;
}

std::optional<double> tablebaseResult(const tablebase::Tablebases& tables, Position& pos) {
    if (chess::popcount(pos.pieces()) > tables.maxPieces() ||
        pos.castlingRights() != chess::NoCastling)
        return std::nullopt;
    double forMover = 0.5;
    const int counter = pos.halfmoveClock();
    if (counter == 0) {
        const auto wdl = tables.probeWdl(pos);
        if (!wdl) return std::nullopt;
        forMover = *wdl == tablebase::Wdl::Win ? 1.0 : *wdl == tablebase::Wdl::Loss ? 0.0 : 0.5;
    } else {
        // With moves already on the fifty-move counter only the distance to the next zeroing
        // move tells whether the rule comes first.
        const auto dtz = tables.probeDtz(pos);
        if (!dtz) return std::nullopt;
        if (*dtz > 0 && *dtz + counter <= 100) forMover = 1.0;
        if (*dtz < 0 && -*dtz + counter <= 100) forMover = 0.0;
    }
    return pos.sideToMove() == chess::White ? forMover : 1.0 - forMover;
}

namespace {

enum class GameEnd { Finished, Discarded, Stopped };

struct PlayedGame {
    GameEnd end = GameEnd::Discarded;
    double whiteScore = 0.5;
    bool byTablebase = false; // the tables decided it
    // The searched part of the game: its start is the position after the opening.
    Game game;
    // The records its positions give through datagen's filters (appendGameRecords), and the
    // plies counted by SkipReason.
    std::vector<TrainingRecord> records;
    SkipCounts skipped = {};
};

// One thread's engine and the game loop it plays.
class SelfPlay {
  public:
    SelfPlay(const DatagenConfig& config, const std::vector<match::Opening>& book, int randomPlies,
             const tablebase::Tablebases* tables)
        : m_book(book), m_randomPlies(randomPlies), m_dfrcFraction(config.dfrcFraction),
          m_filter(config.filter), m_tables(tables) {
        m_engine.options().set("Threads", "1");
        m_engine.options().set("Hash", std::to_string(config.hashMb));
        // runDatagen loaded the file once already: it cannot fail here unless it changed.
        if (!config.network.empty())
            m_networkError = m_engine.options().set("EvalFile", config.network);
        m_limits.softNodes = config.softNodes;
        m_limits.nodes = config.hardNodes ? config.hardNodes : config.softNodes * kHardNodesFactor;
    }

    // Why the engine could not take the run's network, or nothing.
    const std::optional<std::string>& networkError() const { return m_networkError; }

    PlayedGame play(util::Prng& rng, const std::atomic<bool>& stop) {
        PlayedGame game;
        Position pos = chess::startPosition();
        int openingPlies = 0;
        if (!openingFrom(rng, pos, openingPlies)) return game; // discarded

        m_engine.newGame();
        game.game.start = pos;
        // The engine's position is the FEN of the game's start or of its last irreversible move
        // with the moves since played on it (its repetition history): what `position fen ...
        // moves ...` would give it, kept move by move instead of parsed again every ply.
        if (m_engine.setPosition(chess::toFen(pos), {})) return game; // cannot happen: discard
        Adjudicator adjudicator;
        for (int played = openingPlies;; ++played) {
            if (const auto r = ruleResult(chess::gameStatus(pos), pos.sideToMove())) {
                game.whiteScore = *r;
                break;
            }
            if (m_tables) {
                if (const auto r = tablebaseResult(*m_tables, pos)) {
                    // An opening that is already in the tables teaches nothing: discarded.
                    if (played == openingPlies) return game;
                    game.whiteScore = *r;
                    game.byTablebase = true;
                    break;
                }
            }
            if (stop.load(std::memory_order_relaxed)) {
                game.end = GameEnd::Stopped;
                return game;
            }
            int score = 0;
            bool scored = false;
            Move best;
            engine::Engine::Callbacks callbacks;
            callbacks.hashfull = false;
            callbacks.onInfo = [&](const search::SearchInfo& info) {
                if (info.multiPv != 1) return;
                score = info.score;
                scored = true;
            };
            callbacks.onBestMove = [&](Move m, Move) { best = m; };
            m_engine.search(m_limits, std::move(callbacks)); // on this thread: no hand-over
            if (!best) return game; // legal moves exist, so this cannot happen: discard
            if (played == openingPlies && std::abs(score) > kMaxOpeningScore) return game;
            // Which plies become records is decided at the end from the game alone
            // (appendGameRecords), as a game file's conversion decides it.
            game.game.plies.push_back({best, scored ? score : kNoPlyScore});

            if (scored) {
                const int whiteScore = pos.sideToMove() == chess::White ? score : -score;
                if (const auto r = adjudicator.update(whiteScore, played)) {
                    game.whiteScore = *r;
                    break;
                }
            }
            pos.makeMove(best);
            // Nothing before an irreversible move can repeat, so the engine's history restarts.
            if (pos.halfmoveClock() == 0) {
                if (m_engine.setPosition(chess::toFen(pos), {})) return game; // cannot happen
            } else {
                m_engine.playMove(best);
            }
        }
        game.game.whiteResult = resultFor(chess::White, game.whiteScore);
        appendGameRecords(game.game, game.records, game.skipped, m_filter);
        game.end = GameEnd::Finished;
        return game;
    }

  private:
    // The book line (if any) or a double Chess960 start (with --dfrc), then the random plies;
    // false when they end the game.
    bool openingFrom(util::Prng& rng, Position& pos, int& openingPlies) {
        if (m_dfrcFraction > 0 && double(rng.below(1u << 30)) < m_dfrcFraction * (1u << 30)) {
            const int white = int(rng.below(chess::kChess960Positions));
            const int black = int(rng.below(chess::kChess960Positions));
            auto parsed = chess::parseFen(chess::doubleChess960Fen(white, black));
            if (!parsed) return false; // cannot happen: every start is legal (tested)
            pos = std::move(*parsed);
        }
        if (!m_book.empty()) {
            const match::Opening& opening = m_book[rng.below(m_book.size())];
            auto parsed = chess::parseFen(opening.fen);
            if (!parsed) return false;
            pos = std::move(*parsed);
            for (const std::string& text : opening.moves) {
                auto m = chess::parseUciMove(pos, text);
                if (!m) return false;
                pos.makeMove(*m);
            }
            openingPlies = int(opening.moves.size());
        }
        for (int i = 0; i < m_randomPlies; ++i) {
            const chess::MoveList legal(pos);
            if (legal.empty()) return false;
            pos.makeMove(legal[int(rng.below(std::uint64_t(legal.size())))]);
            ++openingPlies;
        }
        return chess::gameStatus(pos) == chess::GameStatus::Ongoing;
    }

    engine::Engine m_engine;
    search::SearchLimits m_limits;
    const std::vector<match::Opening>& m_book;
    int m_randomPlies;
    double m_dfrcFraction;
    PositionFilter m_filter;
    const tablebase::Tablebases* m_tables; // none without --syzygy
    std::optional<std::string> m_networkError;
};

// What makes two runs in the same directory compatible: everything that decides the chunks.
std::string manifestText(const DatagenConfig& c, int randomPlies, std::uint64_t networkHash) {
    std::ostringstream out;
    out << "axon datagen 1\nseed " << c.seed << "\nthreads " << c.threads << "\npositions "
        << c.positions << "\ngames " << c.games << "\nchunk "
        << (c.games ? c.chunkGames : c.chunkPositions) << "\nsoft-nodes " << c.softNodes
        << "\nhard-nodes " << (c.hardNodes ? c.hardNodes : c.softNodes * kHardNodesFactor)
        << "\nrandom-plies " << randomPlies << "\nbook " << c.book << "\nhash " << c.hashMb << "\n";
    // Only games runs name their format, so the manifests of record runs stay as they were.
    if (c.format == DatagenFormat::Games) out << "format games\n";
    // Likewise the tables: a run without them keeps its manifest.
    if (!c.syzygyPath.empty()) out << "syzygy " << c.syzygyPath << "\n";
    if (c.dfrcFraction > 0) out << "dfrc " << c.dfrcFraction << "\n";
    // And the filter: it decides which positions a chunk holds and counts.
    if (c.filter.keepNoisy) out << "keep-noisy\n";
    // And the network, by content: the file's name may change, its weights decide the games.
    if (!c.network.empty()) {
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)networkHash);
        out << "network " << hex << "\n";
    }
    return out.str();
}

util::Result<bool> checkManifest(const DatagenConfig& config, int randomPlies,
                                 std::uint64_t networkHash) {
    const fs::path path = fs::path(config.outDir) / (std::to_string(config.seed) + "-datagen.txt");
    const std::string text = manifestText(config, randomPlies, networkHash);
    std::error_code ec;
    if (fs::exists(path, ec)) {
        std::ifstream in(path);
        std::stringstream old;
        old << in.rdbuf();
        if (old.str() != text)
            return util::makeError(path.string() +
                                   " records other settings for this seed; use another --seed "
                                   "or --out, or repeat the original command to resume:\n" +
                                   old.str());
        return true;
    }
    const fs::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp);
        out << text;
        if (!out.flush()) return util::makeError("cannot write " + tmp.string());
    }
    fs::rename(tmp, path, ec);
    if (ec) return util::makeError("cannot write " + path.string() + ": " + ec.message());
    return true;
}

// State the threads share; everything under the mutex.
struct Shared {
    std::mutex mutex;
    std::condition_variable finished;
    int running = 0;
    DatagenStats stats;
    std::string error;
    // Set with `error`: the other threads stop at their next game.
    std::atomic<bool> failed{false};
};

// The recorded positions of a finished chunk; an error when it does not read. A records chunk
// is checked by its header (its size); a games chunk is read whole, every move replayed, since
// its positions are counted through the filters.
util::Result<std::uint64_t> finishedChunkPositions(const std::string& path, DatagenFormat format,
                                                   const PositionFilter& filter) {
    if (format == DatagenFormat::Records) {
        auto reader = RecordReader::open(path);
        if (!reader) return util::makeError(reader.error());
        return (*reader)->count();
    }
    auto reader = GameReader::open(path);
    if (!reader) return util::makeError(reader.error());
    std::vector<TrainingRecord> records;
    SkipCounts counts = {};
    Game game;
    for (;;) {
        auto more = (*reader)->next(game);
        if (!more) return util::makeError(more.error());
        if (!*more) return counts[int(SkipReason::None)];
        appendGameRecords(game, records, counts, filter);
        records.clear();
    }
}

void addGame(DatagenStats& s, const PlayedGame& game) {
    ++s.games;
    s.tablebaseGames += game.byTablebase;
    s.generated += game.records.size();
    if (game.whiteScore > 0.75)
        ++s.whiteWins;
    else if (game.whiteScore < 0.25)
        ++s.blackWins;
    else
        ++s.draws;
    for (int i = 1; i < 5; ++i) s.skipped[i] += game.skipped[i];
}

void runThread(const DatagenConfig& config, int thread, const std::vector<std::uint64_t>& targets,
               const std::vector<bool>& done, const std::vector<match::Opening>& book,
               int randomPlies, const tablebase::Tablebases* tables, const std::atomic<bool>& stop,
               Shared& shared) {
    const bool byGames = config.games > 0;
    SelfPlay selfPlay(config, book, randomPlies, tables);
    if (const auto& error = selfPlay.networkError()) {
        std::lock_guard lock(shared.mutex);
        shared.error = "--net: " + *error;
        shared.failed = true;
        return;
    }
    for (std::uint64_t chunk = 0; chunk < targets.size(); ++chunk) {
        if (done[chunk]) continue;
        util::Prng rng(chunkSeed(config.seed, thread, chunk));
        std::vector<TrainingRecord> records;
        std::vector<Game> playedGames; // with --format games
        std::uint64_t games = 0, discardedInARow = 0;
        while ((byGames ? games : records.size()) < targets[chunk]) {
            PlayedGame game = selfPlay.play(rng, stop);
            if (game.end == GameEnd::Stopped || stop.load() || shared.failed.load()) return;
            const std::lock_guard lock(shared.mutex);
            if (game.end == GameEnd::Discarded) {
                ++shared.stats.discardedGames;
                // A book whose every line is lost or won would otherwise spin forever.
                if (++discardedInARow >= 10000) {
                    shared.failed = true;
                    shared.error = "10000 openings in a row were discarded (|eval| > " +
                                   std::to_string(kMaxOpeningScore) + " or game over)";
                    return;
                }
                continue;
            }
            discardedInARow = 0;
            ++games;
            addGame(shared.stats, game);
            records.insert(records.end(), game.records.begin(), game.records.end());
            if (config.format == DatagenFormat::Games) playedGames.push_back(std::move(game.game));
        }
        const std::string path =
            (fs::path(config.outDir) / chunkFileName(config.seed, thread, chunk, config.format))
                .string();
        const std::string error = config.format == DatagenFormat::Games
                                      ? writeAllGames(path, playedGames)
                                      : writeAllRecords(path, records);
        const std::lock_guard lock(shared.mutex);
        if (!error.empty()) {
            shared.failed = true;
            shared.error = error;
            return;
        }
        ++shared.stats.chunksWritten;
        shared.stats.positions += records.size();
    }
}

} // namespace

util::Result<DatagenStats> runDatagen(const DatagenConfig& config, const std::atomic<bool>& stop,
                                      const DatagenCallbacks& callbacks) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    if ((config.positions > 0) == (config.games > 0))
        return util::makeError("give exactly one of --positions and --games");
    if (config.threads < 1) return util::makeError("--threads must be at least 1");
    if (config.softNodes < 1) return util::makeError("--soft-nodes must be at least 1");
    if (config.hardNodes && config.hardNodes < config.softNodes)
        return util::makeError("--hard-nodes must be at least --soft-nodes");
    if (config.outDir.empty()) return util::makeError("--out is required");
    if (!(config.dfrcFraction >= 0 && config.dfrcFraction <= 1))
        return util::makeError("--dfrc must be from 0 to 1");
    if (config.dfrcFraction > 0 && !config.book.empty())
        return util::makeError(
            "--dfrc and --book are exclusive: a game starts from one or the other");

    std::vector<match::Opening> book;
    if (!config.book.empty()) {
        auto loaded = match::loadOpenings(config.book);
        if (!loaded) return util::makeError(loaded.error());
        book = std::move(*loaded);
        for (const auto& o : book)
            if (o.chess960)
                return util::makeError(config.book + ": Chess960 openings are not supported");
    }
    // One set of tables for every thread: each file is mapped once.
    std::shared_ptr<tablebase::Tablebases> tables;
    if (!config.syzygyPath.empty()) {
        auto opened = tablebase::Tablebases::open(config.syzygyPath);
        if (!opened) return util::makeError("--syzygy: " + opened.error());
        if ((*opened)->empty())
            return util::makeError("--syzygy: no tables in " + config.syzygyPath);
        tables = std::move(*opened);
    }
    // The network is read and checked once here, so a bad file is one clear error.
    std::uint64_t networkHash = 0;
    if (!config.network.empty()) {
        auto bytes = nn::readFileBytes(config.network);
        if (!bytes) return util::makeError("--net: " + bytes.error());
        if (auto source = engine::loadEvalSource(config.network); !source)
            return util::makeError("--net: " + source.error());
        networkHash = nn::contentHash(*bytes);
    }
    const int randomPlies = config.randomPlies >= 0 ? config.randomPlies
                            : book.empty()          ? kDefaultRandomPlies
                                                    : kDefaultBookRandomPlies;

    std::error_code ec;
    fs::create_directories(config.outDir, ec);
    if (ec) return util::makeError("cannot create " + config.outDir + ": " + ec.message());
    // Held to the end: the leftover .tmp files removed below must not be another run's.
    auto outputLock = OutputLock::acquire(config.outDir, "axon datagen");
    if (!outputLock) return util::makeError(outputLock.error());
    if (auto ok = checkManifest(config, randomPlies, networkHash); !ok)
        return util::makeError(ok.error());

    // Temporary files are chunks a killed run was writing: never data, always regenerated.
    const std::string prefix = std::to_string(config.seed) + "-t";
    const std::string tmpSuffix = std::string(chunkExtension(config.format)) + ".tmp";
    for (const auto& entry : fs::directory_iterator(config.outDir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) == 0 && name.size() > tmpSuffix.size() &&
            name.compare(name.size() - tmpSuffix.size(), tmpSuffix.size(), tmpSuffix) == 0)
            fs::remove(entry.path(), ec);
    }

    const auto plan = planChunks(config);
    Shared shared;
    DatagenStats& stats = shared.stats;
    stats.targetTotal = config.games ? config.games : config.positions;
    std::vector<std::vector<bool>> done(plan.size());
    for (std::size_t t = 0; t < plan.size(); ++t) {
        done[t].assign(plan[t].size(), false);
        for (std::size_t c = 0; c < plan[t].size(); ++c) {
            const std::string path =
                (fs::path(config.outDir) / chunkFileName(config.seed, int(t), c, config.format))
                    .string();
            if (!fs::exists(path, ec)) continue;
            auto positions = finishedChunkPositions(path, config.format, config.filter);
            if (!positions) {
                if (callbacks.onWarning)
                    callbacks.onWarning(positions.error() + "; the chunk is generated again");
                continue;
            }
            done[t][c] = true;
            ++stats.resumedChunks;
            stats.resumedPositions += *positions;
            if (config.games) stats.resumedGames += plan[t][c];
        }
    }

    shared.running = int(plan.size());
    util::WorkerThreads threads(int(plan.size()), [&](int t) {
        runThread(config, t, plan[std::size_t(t)], done[std::size_t(t)], book, randomPlies,
                  tables.get(), stop, shared);
        const std::lock_guard lock(shared.mutex);
        --shared.running;
        shared.finished.notify_all();
    });
    {
        std::unique_lock lock(shared.mutex);
        const auto interval =
            std::chrono::duration<double>(std::max(0.05, callbacks.progressSeconds));
        while (shared.running > 0) {
            if (shared.finished.wait_for(lock, interval, [&] { return shared.running == 0; }))
                break;
            stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
            if (callbacks.onProgress) callbacks.onProgress(stats);
        }
    }
    threads.join();
    stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    stats.interrupted = stop.load();
    if (!shared.error.empty()) return util::makeError(shared.error);
    return stats;
}

} // namespace axon::data

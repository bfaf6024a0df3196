// SPDX-License-Identifier: GPL-3.0-or-later
// Self-play training data (`axon datagen`): games of the engine against itself from random
// openings, adjudicated, filtered and written as sharded, resumable chunk files
// (docs/datagen.md). The game-loop rules are small pure helpers so tests can check each one.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chess/rules.h"
#include "data/training_record.h"
#include "tablebase/tablebases.h"
#include "util/result.h"

namespace axon::data {

// Adjudication: a game is won once the score (White's view) stays at or beyond kWinScore for
// kWinPlies consecutive plies (so both sides agree); drawn once it stays within kDrawScore for
// kDrawPlies plies from ply kDrawMinPly on, or when kMaxGamePly plies have been played.
constexpr int kWinScore = 2000;
constexpr int kWinPlies = 4;
constexpr int kDrawScore = 10;
constexpr int kDrawPlies = 10;
constexpr int kDrawMinPly = 80;
constexpr int kMaxGamePly = 400;
// A game whose first search already sees one side this far ahead is discarded: its random
// opening decided it, and its positions would teach little.
constexpr int kMaxOpeningScore = 1000;
// Positions with scores beyond this (mates included) are decided and not recorded.
constexpr int kMaxRecordedScore = 3000;
// Positions this close after the random opening are not recorded: the random moves leave
// lopsided, unnatural positions that the first few searched moves are still repairing.
constexpr int kSkipPliesAfterOpening = 4;
// The soft limit's default and the hard cap as a multiple of it.
constexpr std::uint64_t kDefaultSoftNodes = 5000;
constexpr std::uint64_t kHardNodesFactor = 20;
constexpr int kDefaultRandomPlies = 8;
constexpr int kDefaultBookRandomPlies = 2;
constexpr std::uint64_t kDefaultChunkPositions = 50000;
constexpr std::uint64_t kDefaultChunkGames = 500;

// Tracks the scores of one game and says when it is adjudicated.
class Adjudicator {
  public:
    // `whiteScore`: the search score of the position at `ply` (plies since the game's start),
    // from White's view. Returns the result from White's view (1, 0.5, 0) once adjudicated.
    std::optional<double> update(int whiteScore, int ply);

  private:
    int m_whiteAhead = 0; // consecutive plies with White at or beyond kWinScore
    int m_blackAhead = 0;
    int m_level = 0; // consecutive plies within kDrawScore from kDrawMinPly on
};

// The result from White's view when the game is over by the rules; nothing while it goes on.
std::optional<double> ruleResult(chess::GameStatus status, chess::Color sideToMove);

// The result from White's view that the tables give a position, the fifty-move rule counted
// from its counter (cursed wins and blessed losses are draws; with moves on the counter, DTZ
// decides); nothing when the position is not in them (or its DTZ table is missing).
std::optional<double> tablebaseResult(const tablebase::Tablebases& tables, chess::Position& pos);

enum class SkipReason { None, InCheck, NoisyBestMove, Opening, Decided };
const char* toString(SkipReason reason);

// Whether the tactical filters apply (by default they do). `keepNoisy` (`--keep-noisy`) lifts
// both, in check and a capture or promotion for best move, together: measured on the same
// games in docs/nets.md. The opening and decided filters always apply.
struct PositionFilter {
    bool keepNoisy = false;
};

// Whether a searched position is recorded: not in check, a quiet best move, past the opening
// (`pliesPlayed` since the game's start, `openingPlies` of them random or from the book), and
// not decided.
SkipReason skipReason(const chess::Position& pos, chess::Move best, int score, int pliesPlayed,
                      int openingPlies, const PositionFilter& filter = {});

// Sets each record's result from its side to move's view, given White's result (1, 0.5, 0).
void attachResult(std::span<TrainingRecord> records, double whiteScore);

// The seed of one chunk: a mix of the run's seed, the thread and the chunk index, so every
// chunk can be generated (or regenerated) on its own.
std::uint64_t chunkSeed(std::uint64_t seed, int thread, std::uint64_t chunk);
// What the chunks hold: training records (data/record_file.h), or the games themselves
// (data/game_format.h), from which `axon convert --from games` makes the same records.
enum class DatagenFormat { Records, Games };

// "<seed>-t<thread>-<chunk>.bin" (records) or ".games", chunk zero-padded to 5 digits.
std::string chunkFileName(std::uint64_t seed, int thread, std::uint64_t chunk,
                          DatagenFormat format = DatagenFormat::Records);

struct DatagenConfig {
    std::string outDir;
    int threads = 1;
    // Exactly one of the two: the total positions or the total games to generate.
    std::uint64_t positions = 0;
    std::uint64_t games = 0;
    std::uint64_t seed = 1;
    std::uint64_t softNodes = kDefaultSoftNodes;
    std::uint64_t hardNodes = 0; // 0: kHardNodesFactor * softNodes
    int randomPlies = -1;        // -1: kDefaultRandomPlies, or kDefaultBookRandomPlies with a book
    std::string book;            // EPD or PGN; empty: the start position
    // The share of games (0..1) from a double Chess960 start (each side's back rank one of the
    // 960, chosen independently) instead of the start position; not with a book. 0 draws
    // nothing from the seed, so runs without it keep their games.
    double dfrcFraction = 0;
    // Which positions are recorded: datagen's tactical filters by default; --keep-noisy lifts
    // them (positions in check, a capture or promotion for best move), counted in `positions`.
    PositionFilter filter;
    int hashMb = 8;
    // Size of one chunk: positions (with `positions`) or games (with `games`).
    std::uint64_t chunkPositions = kDefaultChunkPositions;
    std::uint64_t chunkGames = kDefaultChunkGames;
    DatagenFormat format = DatagenFormat::Records;
    // Syzygy tables (directories as SyzygyPath takes them; empty: none). A game that reaches a
    // position in them ends there with the tables' result (tablebaseResult); an opening that
    // starts in them is discarded.
    std::string syzygyPath;
    // The network the games are played with (an EvalFile value: a .nnue file); empty: the
    // embedded one. The manifest records its content hash, so a resume with another network
    // is refused.
    std::string network;
};

// The per-thread chunk targets: chunk c of thread t is to hold targets[t][c] positions (or
// games). Deterministic in the totals, the thread count and the chunk size.
std::vector<std::vector<std::uint64_t>> planChunks(const DatagenConfig& config);

struct DatagenStats {
    std::uint64_t games = 0;     // finished games this run (abandoned chunks included)
    std::uint64_t positions = 0; // positions in the chunks this run wrote
    std::uint64_t generated = 0; // positions generated this run (abandoned chunks included)
    std::uint64_t whiteWins = 0, draws = 0, blackWins = 0;
    std::uint64_t discardedGames = 0; // openings rejected by the first search
    std::uint64_t tablebaseGames = 0; // games the tablebases decided (with syzygyPath)
    std::uint64_t skipped[5] = {};    // positions not recorded, by SkipReason (index 0 unused)
    std::uint64_t chunksWritten = 0;
    std::uint64_t resumedChunks = 0, resumedPositions = 0, resumedGames = 0;
    std::uint64_t targetTotal = 0; // the run's target in positions or games (whichever is set)
    double seconds = 0;
    bool interrupted = false;
};

struct DatagenCallbacks {
    // Called on the calling thread every `progressSeconds` while the threads work.
    std::function<void(const DatagenStats&)> onProgress;
    double progressSeconds = 3.0;
    // Warnings (a damaged chunk that is regenerated, ...).
    std::function<void(const std::string&)> onWarning;
};

// Generates the chunks that are missing in config.outDir (finished ones are kept, leftover
// temporary files removed) on config.threads threads until done or `stop` is set; an
// interrupted chunk is abandoned, never written in part. Errors: bad configuration, a book
// that cannot be read, a directory or file that cannot be written, a resume with other
// settings than the run that started the directory.
util::Result<DatagenStats> runDatagen(const DatagenConfig& config, const std::atomic<bool>& stop,
                                      const DatagenCallbacks& callbacks);

} // namespace axon::data

// SPDX-License-Identifier: GPL-3.0-or-later
// Lichess puzzles (lichess_db_puzzle.csv): reading and filtering the CSV (malformed lines
// skipped and reported), solving one puzzle with an engine the way Lichess checks a player, and
// the report over many puzzles: by rating band, by theme, mate-in-N, first-move agreement.
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "match/engine_pool.h"
#include "match/epd_suite.h"
#include "util/result.h"

namespace axon::match {

struct Puzzle {
    int line = 0;
    std::string id;
    std::string fen;                // the position before the opponent's first move
    std::vector<std::string> moves; // UCI: the opponent's move, then solver and opponent in turn
    int rating = 0;
    std::vector<std::string> themes;
};

// The column layout, from the header line (PuzzleId,FEN,Moves,Rating,...) or, in a file without
// one, Lichess's standard ten columns.
struct PuzzleColumns {
    std::size_t count = 10;
    std::size_t id = 0, fen = 1, moves = 2, rating = 3, themes = 7;
};

// Reads a header line; an error when a needed column is missing.
util::Result<PuzzleColumns> parsePuzzleHeader(const std::string& line);

// Parses one data line: the column count must match, the FEN be legal, every move be legal in
// turn, and the solution end with a solver move. Errors say what is wrong.
util::Result<Puzzle> parsePuzzleLine(const std::string& line, const PuzzleColumns& columns);

struct PuzzleFilter {
    int minRating = 0;
    int maxRating = 1 << 30;
    std::vector<std::string> themes; // keep puzzles with any of these; empty: all
    std::size_t limit = 0;           // stop after this many kept puzzles; 0: no limit
};

struct PuzzleSet {
    std::vector<Puzzle> puzzles;
    std::vector<SkippedLine> malformed;
    int filteredOut = 0;
};

// Reads puzzles until the end or the limit. Never fails: bad lines land in `malformed`.
PuzzleSet readPuzzles(std::istream& in, const PuzzleFilter& filter);

struct PuzzleAttempt {
    bool solved = false;
    bool firstMoveAgrees = false;
    std::vector<std::string> engineMoves; // UCI, as far as the engine got
    std::string error;                    // a crash, timeout or illegal move
};

// Plays the puzzle against `engine` (a new game first): after the opponent's move the engine
// must find each solver move of the solution, the opponent's replies coming from the solution.
// As on Lichess, a move that checkmates is accepted even when it is not the solution's move.
PuzzleAttempt solvePuzzle(Engine& engine, const Puzzle& puzzle, const AnalysisLimit& limit);

struct PuzzleTally {
    std::string label;
    int puzzles = 0;
    int solved = 0;
};

struct PuzzleSummary {
    std::string engineName;
    std::string limit;
    int malformed = 0;
    int filteredOut = 0;
    int engineErrors = 0;
    PuzzleTally total{"total"};
    int firstMoveAgreements = 0;
    std::vector<PuzzleTally> ratingBands; // <1000, 1000-1499, 1500-1999, 2000-2499, >=2500
    std::vector<PuzzleTally> mateThemes;  // mateIn1 .. mateIn5
    std::vector<PuzzleTally> themes;      // every theme, most frequent first, then by name
    std::vector<PuzzleAttempt> attempts;  // one per puzzle solved, in file order
    double seconds = 0;
    // Stopped by PuzzleRunOptions::interrupt: the tallies cover the first `attempts.size()` of
    // `planned` puzzles.
    bool interrupted = false;
    int planned = 0;
};

// The rating band label of a rating: "<1000", "1000-1499", ..., ">=2500".
std::string ratingBand(int rating);

// Tallies attempts (one per puzzle, same order) into the report's breakdowns.
PuzzleSummary summarisePuzzles(const std::vector<Puzzle>& puzzles,
                               const std::vector<PuzzleAttempt>& attempts);

struct PuzzleRunOptions {
    AnalysisLimit limit;
    int concurrency = 1;
    bool verbose = false;
    std::size_t topThemes = 20; // themes listed in the text summary
    // When set, no new puzzle starts; the summary covers the puzzles finished before it.
    const std::atomic<bool>* interrupt = nullptr;
};

// Solves every puzzle over an engine pool; verbose lines go to `out` in file order. Fails only
// when the engine does not start.
util::Result<PuzzleSummary> runPuzzles(const PuzzleSet& set, const PuzzleRunOptions& options,
                                       const EngineFactory& makeEngine, std::ostream& out);

std::string formatPuzzleLine(const Puzzle& puzzle, const PuzzleAttempt& attempt);
std::string formatPuzzleSummary(const PuzzleSummary& summary, std::size_t topThemes);
std::string puzzleSummaryJson(const PuzzleSummary& summary, const std::vector<Puzzle>& puzzles);

} // namespace axon::match

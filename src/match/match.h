// SPDX-License-Identifier: GPL-3.0-or-later
// A head-to-head match or a tournament (gauntlet, round robin) of several engines: game pairs
// on worker threads, results, crosstable and ranking, PGN and JSON output, progress and the
// SPRT stopping rule.
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "match/engine.h"
#include "match/game.h"
#include "match/openings.h"
#include "match/stats.h"
#include "util/result.h"

namespace axon::match {

// Who plays whom when there are more than two engines.
enum class TournamentKind {
    RoundRobin, // every engine against every other
    Gauntlet,   // the first engine against each of the others
};

struct MatchOptions {
    std::vector<EngineConfig> engines; // at least two
    TournamentKind tournament = TournamentKind::RoundRobin;
    GameSettings game;
    int pairs = 1; // per pairing of engines; every opening is played twice, colours reversed
    // Every game is Chess960 (besides books whose castling rights already say so).
    bool chess960 = false;
    int concurrency = 1;
    std::string openingsFile; // empty: the start position
    OpeningOrder openingOrder = OpeningOrder::Sequential;
    std::uint64_t seed = 0;
    std::string pgnFile;  // appended to; empty: none
    std::string jsonFile; // summary; empty: none
    std::optional<SprtConfig> sprt;
    std::string event = "Axon match";
};

// One pairing's results, from engine `first`'s view.
struct PairingResult {
    int first = 0, second = 1;
    MatchScore score;
    EloEstimate elo;
};

// An engine's pooled results against all its opponents, and the Elo that score implies
// against the field it met.
struct Standing {
    int engine = 0;
    MatchScore score;
    EloEstimate elo;
};

struct MatchSummary {
    std::vector<std::string> names;
    std::vector<PairingResult> pairings; // in play order; the match itself when two engines
    std::vector<Standing> ranking;       // best first; filled for more than two engines
    MatchScore score;                    // the first pairing's (the two-engine match's)
    EloEstimate elo;
    std::optional<SprtResult> sprt;
    int gamesPlayed = 0;
    bool stoppedBySprt = false;
    // Stopped by the interrupt flag before every game pair had started.
    bool interrupted = false;
};

// Runs the match, printing a progress line per game and the summary to `out`. Errors that stop
// the match before it starts (no book, an engine that does not start) return an error text.
// Once `interrupt` is set no new game pair starts; the pairs in flight are played out, so the
// pentanomial count stays whole, and the summary is printed as usual.
util::Result<MatchSummary> runMatch(const MatchOptions& options, std::ostream& out,
                                    const std::atomic<bool>* interrupt = nullptr);

// The pairings a tournament plays, as engine index pairs, in order.
std::vector<std::pair<int, int>> tournamentPairings(int engines, TournamentKind kind);

// Pools each engine's results over its pairings (the second engine's view flipped) and ranks
// the engines by score, best first.
std::vector<Standing> computeRanking(int engines, const std::vector<PairingResult>& pairings);

// A two-engine result's lines: games, pentanomial, Elo, and the SPRT when both are given.
std::string formatScoreLines(const MatchScore& score, const EloEstimate& elo,
                             const std::optional<SprtConfig>& config,
                             const std::optional<SprtResult>& sprt, bool stoppedBySprt);

// The summary as the text block printed at the end, and as the JSON written to jsonFile.
std::string formatSummary(const MatchSummary& summary, const MatchOptions& options);
std::string summaryJson(const MatchSummary& summary, const MatchOptions& options);

} // namespace axon::match

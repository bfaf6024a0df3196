// SPDX-License-Identifier: GPL-3.0-or-later
// A head-to-head match: game pairs on worker threads, results, PGN and JSON output, progress
// and the SPRT stopping rule.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "match/engine.h"
#include "match/game.h"
#include "match/openings.h"
#include "match/stats.h"
#include "util/result.h"

namespace axon::match {

struct MatchOptions {
    EngineConfig engines[2];
    GameSettings game;
    int pairs = 1; // every opening is played twice, colours reversed
    int concurrency = 1;
    std::string openingsFile; // empty: the start position
    OpeningOrder openingOrder = OpeningOrder::Sequential;
    std::uint64_t seed = 0;
    std::string pgnFile;  // appended to; empty: none
    std::string jsonFile; // summary; empty: none
    std::optional<SprtConfig> sprt;
    std::string event = "Axon match";
};

struct MatchSummary {
    std::string names[2];
    MatchScore score; // the first engine's view
    EloEstimate elo;
    std::optional<SprtResult> sprt;
    int gamesPlayed = 0;
    bool stoppedBySprt = false;
};

// Runs the match, printing a progress line per game and the summary to `out`. Errors that stop
// the match before it starts (no book, an engine that does not start) return an error text.
util::Result<MatchSummary> runMatch(const MatchOptions& options, std::ostream& out);

// The summary as the text block printed at the end, and as the JSON written to jsonFile.
std::string formatSummary(const MatchSummary& summary, const MatchOptions& options);
std::string summaryJson(const MatchSummary& summary, const MatchOptions& options);

} // namespace axon::match

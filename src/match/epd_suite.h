// SPDX-License-Identifier: GPL-3.0-or-later
// Test suites in EPD: reading them (bad lines skipped and reported), the scoring rules for
// bm / am suites (WAC, Bratko-Kopec) and point-scored STS-style suites (c0 "Nf3=10, Nd2=5"),
// themes taken from ids, and a run of a suite over an engine pool with its summary.
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/epd.h"
#include "match/engine_pool.h"
#include "util/result.h"

namespace axon::match {

// A line of an input file that was not used, and why.
struct SkippedLine {
    int line = 0;
    std::string reason;
};

struct MovePoints {
    chess::Move move;
    int points = 0;
};

// Reads an STS-style point list "Nf3=10, Nd2=5, e4=3": SAN moves legal in `pos`, each with an
// integer (which may be 0 or negative). Errors name the item at fault.
util::Result<std::vector<MovePoints>> parseMovePoints(const chess::Position& pos,
                                                      std::string_view text);

// The theme of a position: its id without the final number and the separators before it
// ("STS(v1.0) Undermining.001" -> "STS(v1.0) Undermining", "WAC.001" -> "WAC", "BK.01" -> "BK").
// Separators are '.', '_', '-', ':', '#' and spaces. An id without a final number is its own
// theme; an empty id, or one that is only a number, has the theme "(no id)".
std::string themeOf(std::string_view id);

struct SuitePosition {
    int line = 0;
    chess::EpdRecord record;
    std::vector<MovePoints> points; // from c0 when it is a point list; empty otherwise
    std::string theme;
};

struct Suite {
    std::vector<SuitePosition> positions;
    std::vector<SkippedLine> skipped; // unreadable, or nothing to score (no bm, am or points)
};

// Reads every line; blank lines and '#' comments are ignored. A c0 containing '=' must be a
// point list.
Suite readSuite(std::istream& in);

struct PositionScore {
    bool solved = false;
    int points = 0;    // the engine move's points (point-scored positions only)
    int maxPoints = 0; // the best move's points; 0 when the position has no point list
};

// Solved: the move is one of bm (when there are any) and none of am; without bm or am, it earns
// the most points. Points come from the point list (a move not listed earns 0).
PositionScore scorePosition(const SuitePosition& position, chess::Move engineMove);

struct PositionResult {
    std::string engineMove; // SAN, or as the engine wrote it when it is not legal
    PositionScore score;
    std::string error; // a crash, timeout or illegal move: the position counts as not solved
};

struct ThemeTally {
    std::string theme;
    int positions = 0;
    int solved = 0;
    std::int64_t points = 0;
    std::int64_t maxPoints = 0;
};

struct SuiteSummary {
    std::string engineName;
    std::string limit;
    int positions = 0;
    int skipped = 0;
    int engineErrors = 0;
    ThemeTally total;
    std::vector<ThemeTally> themes;      // in order of first appearance
    std::vector<PositionResult> results; // one per position analysed, in file order
    double seconds = 0;
    // Stopped by SuiteRunOptions::interrupt: `positions` of `planned` were analysed.
    bool interrupted = false;
    int planned = 0;
};

struct SuiteRunOptions {
    AnalysisLimit limit;
    int concurrency = 1;
    bool verbose = false; // a line per position
    // When set, no new position starts; the summary covers the positions finished before it.
    const std::atomic<bool>* interrupt = nullptr;
};

// Analyses every position (a new game each) and tallies the results; per-position lines go to
// `out` in file order when verbose. Fails only when the engine does not start.
util::Result<SuiteSummary> runSuite(const Suite& suite, const SuiteRunOptions& options,
                                    const EngineFactory& makeEngine, std::ostream& out);

// The verbose line of one position: id, expected, engine move, ok / points.
std::string formatPositionLine(const SuitePosition& position, const PositionResult& result);
std::string formatSuiteSummary(const SuiteSummary& summary);
// The summary and every position's result.
std::string suiteSummaryJson(const SuiteSummary& summary, const Suite& suite);

} // namespace axon::match

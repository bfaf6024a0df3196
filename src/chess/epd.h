// SPDX-License-Identifier: GPL-3.0-or-later
// EPD records (a position plus "opcode operand...;" operations): reading, writing, and the
// typed view of the opcodes test suites use (bm, am, id, ce, c0..c9, hmvc, fmvn).
#pragma once

#include <array>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/position.h"
#include "util/result.h"

namespace axon::chess {

// One operand as written: a bare token, or a string that was (or must be) in double quotes.
struct EpdOperand {
    std::string text;
    bool quoted = false;
    bool operator==(const EpdOperand&) const = default;
};

// An operation whose opcode has no typed field, kept verbatim (e.g. "acd 12;", "pv e4 e5;").
struct EpdOperation {
    std::string opcode;
    std::vector<EpdOperand> operands;
    bool operator==(const EpdOperation&) const = default;
};

struct EpdRecord {
    // hmvc / fmvn (or FEN-style counters after the four fields) set its move counters.
    Position position;
    std::vector<Move> bestMoves;               // bm
    std::vector<Move> avoidMoves;              // am
    std::string id;                            // id; empty when absent
    std::optional<int> centipawns;             // ce, from the side to move's point of view
    std::array<std::string, 10> comments;      // c0..c9; empty when absent
    std::vector<EpdOperation> otherOperations; // every other opcode, in the order read
};

// Records are equal when their FENs (counters included) and all operations are.
bool operator==(const EpdRecord& a, const EpdRecord& b);

// Parses one EPD line: the four FEN position fields, optionally the two FEN move counters, then
// operations. Lenient about stray or missing final semicolons and CR line ends. bm/am moves are
// SAN resolved to legal moves. Errors name the field or opcode at fault; the caller adds where
// the line came from.
util::Result<EpdRecord> parseEpd(std::string_view line);

// Every record of an EPD stream; blank lines and lines starting with '#' are skipped. The first
// bad line stops the reading with an error "line N: ...".
util::Result<std::vector<EpdRecord>> readEpd(std::istream& in);

// The record as one EPD line (no line end) that parseEpd reads back to an equal record. Moves
// are written in SAN; counters appear as hmvc / fmvn only when not 0 and 1. EPD strings have no
// escape for '"', so a double quote inside a string is written as a single quote.
std::string toEpd(const EpdRecord& record);

} // namespace axon::chess

// SPDX-License-Identifier: GPL-3.0-or-later
// The game record that the PGN reader fills and the PGN writer prints, and the [%eval] / [%clk]
// / [%emt] comment commands both sides translate.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chess/position.h"
#include "util/result.h"

namespace axon::chess {

struct PgnMove {
    // Move::null() for a null move ("--", "Z0"), which a reader may record.
    Move move;
    // The move as the source wrote it (SAN, or UCI where a tool wrote that), without the
    // annotation glyphs, which become `nags`. The writer ignores it and writes SAN afresh.
    std::string text;
    // Text of the comments after the move, joined by a space, with the commands below removed.
    std::string comment;
    std::vector<int> nags;
    // [%eval 0.27] / [%eval #-3]: centipawns or signed mate distance, White's point of view.
    std::optional<int> evalCp;
    std::optional<int> evalMate;
    // [%clk 0:05:00]: the mover's remaining clock; [%emt 0:00:03]: time spent on the move.
    std::optional<double> clockSeconds;
    std::optional<double> emtSeconds;

    bool isNull() const { return move == Move::null(); }
    bool operator==(const PgnMove&) const = default;
};

struct PgnGame {
    // In source order; values unescaped.
    std::vector<std::pair<std::string, std::string>> tags;
    // FEN of the start position as toFen writes it (the standard one when there is no FEN tag).
    std::string startFen = Position::kStartFen;
    bool chess960 = false;
    // Comment before the first move.
    std::string preComment;
    std::vector<PgnMove> moves;
    // The game termination marker, or the Result tag when the movetext has none: "1-0", "0-1",
    // "1/2-1/2" or "*".
    std::string result = "*";
    // Position in the stream: 1-based game index (skipped games count) and first line.
    int number = 0;
    int firstLine = 0;

    // The tag's value, or "" when absent.
    std::string tag(std::string_view name) const;
    bool hasTag(std::string_view name) const;
    // Replaces the first tag of that name, or appends one.
    void setTag(std::string_view name, std::string value);
    util::Result<Position> startPosition() const;
    void clear();
};

// A result token as the writer prints it, or nullopt when `text` is not one ("½-½" counts).
std::optional<std::string> normalizeResult(std::string_view text);

// Moves the [%eval], [%clk] and [%emt] commands out of one comment into `move`, and appends
// what remains of the text to move.comment (space-separated). Malformed commands stay text.
void absorbComment(std::string_view comment, PgnMove& move);
// The comment text the writer prints for a move: commands first, then the free text.
std::string commentWithCommands(const PgnMove& move);

// "0.27", "-1.5", "#-3" as in Lichess exports; the number of centipawns or mate moves.
std::string formatEvalCp(int cp);
// "0:05:00", with fractions of a second only when present ("0:00:09.5").
std::string formatClock(double seconds);

} // namespace axon::chess

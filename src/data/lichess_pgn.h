// SPDX-License-Identifier: GPL-3.0-or-later
// Lichess PGN exports to training records: every move with an [%eval] comment gives the
// position after it, scored by that evaluation, with the game's result; game and position
// filters as options (docs/training-data.md).
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/pgn_game.h"
#include "chess/pgn_reader.h"
#include "data/convert_output.h"
#include "util/result.h"

namespace axon::data {

// Lichess's speed classes ("ultrabullet" .. "classical", "correspondence" for "-").
struct TimeControlFilter {
    std::vector<std::string> classes; // any of these; empty: any class
    int minBaseSeconds = -1;          // the TimeControl's initial time at least this; -1: any
    bool active() const { return !classes.empty() || minBaseSeconds >= 0; }
};

enum class MateScores { Score, Skip };

// Mates ("#N", N moves, White's view) as centipawns: +-(kRecordScoreLimit - |N|).

struct LichessPgnOptions {
    int minElo = 0; // both players' WhiteElo/BlackElo at least this; 0: no bound
    int maxElo = 0; // both at most this; 0: no bound
    TimeControlFilter timeControl;
    int skipPlies = 0;         // leave out the positions after the game's first N plies
    bool skipCheck = false;    // leave out positions whose side to move is in check
    bool skipCaptures = false; // leave out positions where the next move played captures
    MateScores mates = MateScores::Score;
    bool active() const {
        return minElo || maxElo || timeControl.active() || skipPlies || skipCheck || skipCaptures ||
               mates != MateScores::Score;
    }
};

// "blitz,rapid" (class names) or "300" (minimum initial seconds).
util::Result<TimeControlFilter> parseTimeControlFilter(std::string_view text);

// The speed class of a TimeControl tag ("300+8" -> "blitz": initial + 40 x increment seconds
// against Lichess's bounds), "correspondence" for "-", or nullopt when it does not parse.
std::optional<std::string> timeControlClass(std::string_view tag);

// The eval of `move` in centipawns from `sideToMove`'s view (mates per kRecordScoreLimit), or
// nullopt when the move has no eval.
std::optional<int> evalScore(const chess::PgnMove& move, chess::Color sideToMove);

// The next game of a PGN converter's input, counted as an item: Ready, or Skipped (a variant,
// or a game that could not be read, reported as malformed), or End of the input.
enum class NextPgnGame { Ready, Skipped, End };
NextPgnGame nextGameToConvert(chess::PgnReader& reader, chess::PgnGame& game, ConvertOutput& out);

// A game's start position if its records can be written from it: nullopt, counted, when its
// setup does not play (malformed) or holds more pieces than a record has room for (skipped).
std::optional<chess::Position> recordableStart(const chess::PgnGame& game, ConvertOutput& out);

// Reads every game of `in`. Bad games are counted as malformed and skipped; an error is
// returned only when the sink fails.
std::string convertLichessPgn(std::istream& in, const LichessPgnOptions& options,
                              ConvertOutput& out);

} // namespace axon::data

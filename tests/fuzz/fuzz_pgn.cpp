// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the PGN reader: every game it reads replays legally from its start position, and the
// PGN the writer makes of it reads back to the same moves and result; bad games are skipped with
// a message, never a crash or a hang.
#include <sstream>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/pgn_reader.h"
#include "chess/pgn_writer.h"
#include "fuzz_check.h"

using namespace axon::chess;
using axon::fuzz::require;

namespace {

// The game's moves replay legally (null moves only when not in check).
void checkReplay(const PgnGame& game, const std::string& where) {
    auto start = game.startPosition();
    require(start.ok(), "a read game's start position parses", where);
    Position pos = *start;
    for (const PgnMove& m : game.moves) {
        if (m.isNull()) {
            require(!pos.inCheck(), "null moves only when not in check", where);
            pos.makeNullMove();
        } else {
            require(MoveList(pos).contains(m.move), "every move of a read game is legal",
                    where + " move " + m.text);
            pos.makeMove(m.move);
        }
    }
    require(pos.isConsistent(), "the final position is consistent", where);
}

// Writing the game and reading it back gives the same start, moves and result.
void checkRoundTrip(const PgnGame& game, const std::string& where) {
    auto text = toPgn(game);
    require(text.ok(), "a read game can be written", where + (text ? "" : ": " + text.error()));
    std::istringstream in(*text);
    PgnReader reader(in);
    PgnGame again;
    auto read = reader.next(again);
    require(read.ok() && *read, "the written game reads back",
            *text + (read ? "" : "\n-> " + read.error()));
    require(again.startFen == game.startFen, "round trip keeps the start position", *text);
    require(again.moves.size() == game.moves.size(), "round trip keeps the number of moves", *text);
    for (std::size_t i = 0; i < game.moves.size(); ++i)
        require(again.moves[i].move == game.moves[i].move, "round trip keeps every move", *text);
    require(again.result == game.result, "round trip keeps the result", *text);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in{std::string(axon::fuzz::asText(data, size))};
    PgnReader reader(in);
    PgnGame game;
    // Every call consumes input, so the number of games is bounded by the input's size.
    for (int games = 0; games <= int(size) + 1; ++games) {
        auto read = reader.next(game);
        if (!read) {
            require(!read.error().empty(), "a skipped game has a message");
            continue;
        }
        if (!*read) return 0;
        const std::string where = "game " + std::to_string(game.number);
        checkReplay(game, where);
        checkRoundTrip(game, where);
    }
    require(false, "the reader ends after a bounded number of games");
    return 0;
}

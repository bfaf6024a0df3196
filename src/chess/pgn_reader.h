// SPDX-License-Identifier: GPL-3.0-or-later
// Streaming PGN reader: one game at a time from any std::istream, replaying the mainline
// legally, with the real-world defects of PGN files tolerated and every bad game skipped alone.
#pragma once

#include <cstdint>
#include <istream>
#include <string>

#include "chess/pgn_game.h"
#include "chess/pgn_lexer.h"
#include "chess/position.h"
#include "util/result.h"

namespace axon::chess {

struct PgnReaderOptions {
    // Record "--" / "Z0" / "0000" as Move::null() (never while in check); otherwise an error.
    bool allowNullMoves = true;
    // A game longer than this, in plies or bytes, is skipped as an error: the bounds that keep
    // hostile input from costing unbounded memory.
    int maxPlies = 10000;
    std::uint64_t maxGameBytes = std::uint64_t(64) << 20;
    int maxTags = 1000;
    PgnLexerLimits lexer;
};

// Why the last game was skipped.
enum class PgnError : std::uint8_t {
    None,
    UnsupportedVariant, // Variant tag other than standard chess or Chess960
    BadStartPosition,   // FEN tag that does not parse or is illegal
    IllegalMove,        // unreadable, ambiguous or illegal move, or a refused null move
    Malformed,          // unterminated comment
    TooLarge,           // beyond maxPlies or maxGameBytes
};

class PgnReader {
  public:
    explicit PgnReader(std::istream& in, PgnReaderOptions options = {});

    // Reads the next game into `game` (its buffers are reused): true when a game was read,
    // false at the end of the input. An error reports a skipped game as
    // "game N (line L): why"; `game` then holds what was read before the problem (its tags at
    // least), and the next call continues with the next game.
    util::Result<bool> next(PgnGame& game);

    PgnError lastError() const { return m_error; }
    // Games started so far, skipped ones included.
    int gamesSeen() const { return m_gameNumber; }
    // Bytes of the input consumed so far (the stream itself is read ahead by one buffer).
    std::uint64_t bytesConsumed() const { return m_lexer.bytesConsumed(); }

  private:
    enum class Step { Continue, EndOfGame };

    bool readTags(PgnGame& game);
    void setUpStart(PgnGame& game);
    void readMovetext(PgnGame& game);
    Step readWord(PgnGame& game, std::string_view word, int line);
    void playMove(PgnGame& game, std::string_view text, int line);
    void playNullMove(PgnGame& game, std::string_view text, int line);
    void addGlyphs(PgnGame& game, std::string_view glyphs);
    void fail(PgnError error, int line, const std::string& why);

    PgnLexer m_lexer;
    PgnReaderOptions m_options;
    Position m_pos;
    int m_gameNumber = 0;
    std::uint64_t m_gameStartBytes = 0;
    bool m_sawResult = false;
    PgnError m_error = PgnError::None;
    std::string m_errorText;
};

} // namespace axon::chess

// SPDX-License-Identifier: GPL-3.0-or-later
// One game as a web session sees it: the start position, the moves played (with their UCI and
// SAN), the current position with its history (for repetitions), and how the game stands.
// Pure chess: no engine, no JSON, no network.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/position.h"
#include "chess/rules.h"
#include "util/result.h"

namespace axon::server {

struct PlayedMove {
    chess::Move move;
    std::string uci;
    std::string san;
};

class Game {
  public:
    // The standard start position.
    Game();

    // A game from a FEN (empty: the start position). `chess960` asks for Chess960 castling
    // notation even when the FEN's castling field looks standard.
    static util::Result<Game> fromFen(const std::string& fen, bool chess960);
    // The first game of a PGN text, its mainline replayed from its start position.
    static util::Result<Game> fromPgn(const std::string& pgn);

    // Plays a legal move written in UCI (e2e4, e7e8q) or SAN (e4, Nf3, O-O); on error the game
    // is unchanged.
    std::optional<std::string> play(std::string_view text);
    // Plays a move known to be legal here (the engine's).
    void playLegal(chess::Move move);
    // Takes back `plies` moves; on error (more than were played) the game is unchanged.
    std::optional<std::string> undo(int plies);

    const chess::Position& position() const { return m_position; }
    const std::string& startFen() const { return m_startFen; }
    const std::vector<PlayedMove>& moves() const { return m_moves; }
    std::vector<std::string> uciMoves() const;
    bool chess960() const { return m_chess960; }
    chess::GameStatus status() const { return chess::gameStatus(m_position); }
    std::string fen() const;

  private:
    chess::Position m_position;
    std::string m_startFen;
    std::vector<PlayedMove> m_moves;
    bool m_chess960 = false;
};

// The legal move `text` names in UCI or SAN notation, or why there is none.
util::Result<chess::Move> parseMoveText(const chess::Position& pos, std::string_view text);

} // namespace axon::server

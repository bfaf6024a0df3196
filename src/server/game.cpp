// SPDX-License-Identifier: GPL-3.0-or-later
// The web session's game record: FEN / PGN set-up, user moves in UCI or SAN, take-backs.
#include "server/game.h"

#include <sstream>

#include "chess/fen.h"
#include "chess/pgn_reader.h"
#include "chess/san.h"
#include "chess/uci_move.h"

namespace axon::server {

using namespace chess;

namespace {

// Four or five characters shaped like a UCI move: its error message is the more useful one.
bool looksLikeUci(std::string_view text) {
    return (text.size() == 4 || text.size() == 5) && text[0] >= 'a' && text[0] <= 'h' &&
           text[1] >= '1' && text[1] <= '8' && text[2] >= 'a' && text[2] <= 'h' && text[3] >= '1' &&
           text[3] <= '8';
}

} // namespace

util::Result<Move> parseMoveText(const Position& pos, std::string_view text) {
    if (text.empty()) return util::makeError("empty move");
    auto uci = parseUciMove(pos, text);
    if (uci) return uci;
    auto san = parseSan(pos, text);
    if (san) return san;
    return util::makeError(looksLikeUci(text) ? uci.error() : san.error());
}

Game::Game() : m_position(startPosition()), m_startFen(Position::kStartFen) {}

util::Result<Game> Game::fromFen(const std::string& fen, bool chess960) {
    auto parsed = parseFen(fen.empty() ? std::string(Position::kStartFen) : fen);
    if (!parsed) return util::makeError("bad FEN: " + parsed.error());
    Game game;
    game.m_position = std::move(*parsed);
    game.m_chess960 = chess960 || game.m_position.isChess960();
    game.m_position.setChess960(game.m_chess960);
    game.m_startFen = toFen(game.m_position);
    return game;
}

util::Result<Game> Game::fromPgn(const std::string& pgn) {
    std::istringstream in(pgn);
    PgnReader reader(in);
    PgnGame record;
    auto read = reader.next(record);
    if (!read) return util::makeError("bad PGN: " + read.error());
    if (!*read) return util::makeError("bad PGN: no game found");
    auto game = fromFen(record.startFen, record.chess960);
    if (!game) return game;
    for (const PgnMove& m : record.moves) {
        if (m.isNull()) return util::makeError("bad PGN: null moves cannot be played");
        game->playLegal(m.move);
    }
    return game;
}

std::optional<std::string> Game::play(std::string_view text) {
    auto move = parseMoveText(m_position, text);
    if (!move) return move.error();
    playLegal(*move);
    return std::nullopt;
}

void Game::playLegal(Move move) {
    PlayedMove played{move, toUci(move, m_chess960), toSan(m_position, move)};
    m_position.makeMove(move);
    m_moves.push_back(std::move(played));
}

std::optional<std::string> Game::undo(int plies) {
    if (plies < 1) return "undo: plies must be at least 1";
    if (std::size_t(plies) > m_moves.size())
        return "undo: only " + std::to_string(m_moves.size()) + " moves were played";
    for (int i = 0; i < plies; ++i) {
        m_position.unmakeMove();
        m_moves.pop_back();
    }
    return std::nullopt;
}

std::vector<std::string> Game::uciMoves() const {
    std::vector<std::string> out;
    out.reserve(m_moves.size());
    for (const PlayedMove& m : m_moves) out.push_back(m.uci);
    return out;
}

std::string Game::fen() const { return toFen(m_position); }

} // namespace axon::server

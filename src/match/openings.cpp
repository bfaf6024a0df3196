// SPDX-License-Identifier: GPL-3.0-or-later
// Reading EPD and PGN opening books and ordering them.
#include "match/openings.h"

#include <fstream>
#include <numeric>
#include <sstream>
#include <utility>

#include "chess/fen.h"
#include "chess/pgn_reader.h"
#include "chess/uci_move.h"
#include "util/prng.h"

namespace axon::match {

namespace {

bool isNumber(const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

util::Result<std::vector<Opening>> readEpdBook(std::istream& in, const std::string& path) {
    std::vector<Opening> book;
    std::string line;
    int lineNumber = 0;
    while (std::getline(in, line)) {
        ++lineNumber;
        std::istringstream words(line);
        std::vector<std::string> fields;
        std::string word;
        while (fields.size() < 6 && words >> word) fields.push_back(word);
        if (fields.empty() || fields[0][0] == '#') continue;
        if (fields.size() < 4)
            return util::makeError(path + ":" + std::to_string(lineNumber) + ": not a FEN");
        std::string fen = fields[0] + " " + fields[1] + " " + fields[2] + " " + fields[3];
        // Counters are taken only when both are numbers; otherwise they are EPD operations.
        if (fields.size() == 6 && isNumber(fields[4]) && isNumber(fields[5]))
            fen += " " + fields[4] + " " + fields[5];
        auto pos = chess::parseFen(fen);
        if (!pos)
            return util::makeError(path + ":" + std::to_string(lineNumber) + ": " + pos.error());
        Opening opening;
        opening.fen = chess::toFen(*pos);
        opening.chess960 = pos->isChess960();
        book.push_back(std::move(opening));
    }
    return book;
}

std::vector<Opening> readPgnBook(std::istream& in) {
    std::vector<Opening> book;
    chess::PgnReader reader(in);
    chess::PgnGame game;
    while (true) {
        auto next = reader.next(game);
        if (!next) continue; // a bad game is skipped alone
        if (!*next) break;
        Opening opening;
        opening.fen = game.startFen;
        opening.chess960 = game.chess960;
        for (const auto& m : game.moves) {
            if (m.isNull()) break; // a null move cannot be sent to an engine
            opening.moves.push_back(chess::toUci(m.move, game.chess960));
        }
        book.push_back(std::move(opening));
    }
    return book;
}

} // namespace

util::Result<std::vector<Opening>> loadOpenings(const std::string& path) {
    std::ifstream in(path);
    if (!in) return util::makeError("cannot open opening book " + path);
    std::vector<Opening> book;
    if (path.ends_with(".pgn")) {
        book = readPgnBook(in);
    } else {
        auto epd = readEpdBook(in, path);
        if (!epd) return epd;
        book = std::move(*epd);
    }
    if (book.empty()) return util::makeError("no openings in " + path);
    return book;
}

OpeningSequence::OpeningSequence()
    : m_book{Opening{chess::Position::kStartFen, {}, false}}, m_order{0} {}

OpeningSequence::OpeningSequence(std::vector<Opening> book, OpeningOrder order, std::uint64_t seed)
    : m_book(std::move(book)), m_order(m_book.size()) {
    std::iota(m_order.begin(), m_order.end(), std::size_t(0));
    if (order == OpeningOrder::Random) {
        // Fisher-Yates with the project's own generator: the same seed gives the same match
        // on every platform, which std::shuffle does not promise.
        util::Prng prng(seed);
        for (std::size_t i = m_order.size(); i > 1; --i)
            std::swap(m_order[i - 1], m_order[prng.below(i)]);
    }
    if (m_book.empty()) *this = OpeningSequence();
}

const Opening& OpeningSequence::at(std::size_t index) const {
    return m_book[m_order[index % m_order.size()]];
}

} // namespace axon::match

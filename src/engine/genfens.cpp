// SPDX-License-Identifier: GPL-3.0-or-later
// genfens: argument parsing, the book, and the generate-verify loop over a private one-thread
// searcher (so the caller's engine, its hash and position are left alone).
#include "engine/genfens.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "chess/epd.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/pgn_reader.h"
#include "chess/rules.h"
#include "search/score.h"
#include "search/searcher.h"
#include "util/prng.h"

namespace axon::engine {

namespace {

using util::makeError;

// Enough for searches of a few thousand nodes; cleared before each, so every verdict depends on
// its position alone.
constexpr std::size_t kGenfensHashMb = 1;

util::Result<std::uint64_t> parseCount(const std::string& word, const char* what, std::uint64_t min,
                                       std::uint64_t max) {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (ec != std::errc() || end != word.data() + word.size() || value < min || value > max)
        return makeError(std::string(what) + ": expected a whole number from " +
                         std::to_string(min) + " to " + std::to_string(max) + ", found '" + word +
                         "'");
    return value;
}

bool equalsNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

} // namespace

util::Result<GenfensRequest> parseGenfensArguments(std::string_view arguments) {
    std::istringstream in{std::string(arguments)};
    std::vector<std::string> words;
    for (std::string word; in >> word;) words.push_back(word);
    const std::string usage = " (usage: genfens N seed S book <None|FILE> [plies P] [nodes K] "
                              "[maxscore CP])";
    if (words.empty()) return makeError("the number of openings is missing" + usage);

    GenfensRequest request;
    auto count = parseCount(words[0], "N", 1, kGenfensMaxCount);
    if (!count) return makeError(count.error());
    request.count = *count;

    std::vector<std::string> seen;
    for (std::size_t i = 1; i < words.size(); i += 2) {
        const std::string& key = words[i];
        if (key != "seed" && key != "book" && key != "plies" && key != "nodes" && key != "maxscore")
            return makeError("unknown argument '" + key + "'" + usage);
        for (const std::string& s : seen)
            if (s == key) return makeError("'" + key + "' is given twice");
        seen.push_back(key);
        if (i + 1 >= words.size()) return makeError("'" + key + "' needs a value" + usage);
        const std::string& value = words[i + 1];
        if (key == "seed") {
            auto seed = parseCount(value, "seed", 0, UINT64_MAX);
            if (!seed) return makeError(seed.error());
            request.seed = *seed;
        } else if (key == "book") {
            request.book = equalsNoCase(value, "none") ? "" : value;
        } else if (key == "plies") {
            auto plies = parseCount(value, "plies", 0, kGenfensMaxPlies);
            if (!plies) return makeError(plies.error());
            request.plies = int(*plies);
        } else if (key == "nodes") {
            auto nodes = parseCount(value, "nodes", 1, kGenfensMaxNodes);
            if (!nodes) return makeError(nodes.error());
            request.nodes = *nodes;
        } else {
            auto score = parseCount(value, "maxscore", 0, search::kScoreMateInMaxPly - 1);
            if (!score) return makeError(score.error());
            request.maxScore = int(*score);
        }
    }
    return request;
}

namespace {

bool endsWithNoCase(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() &&
           equalsNoCase(text.substr(text.size() - suffix.size()), suffix);
}

// A PGN book: each game's position after its mainline, as a FEN.
util::Result<GenfensBook> loadPgnBook(const std::string& path, std::istream& in) {
    GenfensBook book;
    chess::PgnReader reader(in);
    chess::PgnGame game;
    for (;;) {
        auto next = reader.next(game);
        if (!next) return makeError(path + ": " + next.error());
        if (!*next) break;
        auto pos = game.startPosition();
        if (!pos)
            return makeError(path + ": game " + std::to_string(game.number) + ": " + pos.error());
        for (const chess::PgnMove& m : game.moves) {
            if (m.isNull())
                pos->makeNullMove();
            else
                pos->makeMove(m.move);
        }
        book.positions.push_back(chess::toFen(*pos));
    }
    if (book.positions.empty()) return makeError("book " + path + " holds no games");
    return book;
}

} // namespace

util::Result<GenfensBook> loadGenfensBook(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError("cannot read book " + path + ": " + std::strerror(errno));
    if (endsWithNoCase(path, ".pgn")) return loadPgnBook(path, in);
    GenfensBook book;
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        if (auto parsed = chess::parseEpd(line); !parsed)
            return makeError(path + ":" + std::to_string(number) + ": " + parsed.error());
        book.positions.push_back(std::move(line));
    }
    if (in.bad()) return makeError("cannot read book " + path);
    if (book.positions.empty()) return makeError("book " + path + " holds no positions");
    return book;
}

util::Result<GenfensStats> generateFens(const GenfensRequest& request,
                                        const eval::EvalSource& evalSource,
                                        const std::function<void(const std::string&)>& emit) {
    GenfensBook book;
    if (!request.book.empty()) {
        auto loaded = loadGenfensBook(request.book);
        if (!loaded) return makeError(loaded.error());
        book = std::move(*loaded);
    }

    search::Searcher searcher;
    searcher.setHash(kGenfensHashMb);
    // One stream per request; the mix keeps neighbouring seeds (OpenBench's are random, a user's
    // may be 1, 2, 3) from starting related SplitMix streams.
    util::Prng rng(request.seed * 0x9E3779B97F4A7C15ULL ^ 0xD1B54A32D192ED03ULL);
    std::unordered_set<chess::Key> seen;
    GenfensStats stats;
    std::uint64_t rejectsInARow = 0;

    while (stats.generated < request.count) {
        if (rejectsInARow >= kGenfensMaxRejectsInARow)
            return makeError(std::to_string(stats.generated) + " of " +
                             std::to_string(request.count) + " openings generated, then " +
                             std::to_string(rejectsInARow) +
                             " candidates in a row were rejected (game over, |score| > " +
                             std::to_string(request.maxScore) + " or already generated)");
        ++rejectsInARow;

        chess::Position pos = chess::startPosition();
        if (!book.positions.empty()) {
            // Checked when the book was loaded.
            const auto line = std::size_t(rng.below(book.positions.size()));
            pos = chess::parseEpd(book.positions[line])->position;
        }
        const int plies = request.basePlies() + int(rng.next() & 1);
        bool over = false;
        for (int i = 0; i < plies && !over; ++i) {
            const chess::MoveList legal(pos);
            if (legal.empty())
                over = true;
            else
                pos.makeMove(legal[int(rng.below(std::uint64_t(legal.size())))]);
        }
        if (over || chess::gameStatus(pos) != chess::GameStatus::Ongoing) {
            ++stats.terminal;
            continue;
        }
        if (seen.contains(pos.key())) {
            ++stats.duplicates;
            continue;
        }

        searcher.clear();
        search::Searcher::Request search;
        search.position = pos;
        search.limits.softNodes = request.nodes;
        search.limits.nodes = request.nodes * kGenfensHardNodesFactor;
        search.evalSource = evalSource;
        int score = 0;
        search.onDone = [&score](const search::SearchResult& r) { score = r.score; };
        searcher.run(std::move(search)); // on this thread: no hand-over to the pool
        if (std::abs(score) > request.maxScore) {
            ++stats.outOfWindow;
            continue;
        }

        seen.insert(pos.key());
        rejectsInARow = 0;
        ++stats.generated;
        emit(chess::toFen(pos));
    }
    return stats;
}

} // namespace axon::engine

// SPDX-License-Identifier: GPL-3.0-or-later
// Lichess puzzle reading, solving and reporting. Each puzzle is validated in full when read, so
// solving never meets an illegal solution move; the engine's moves are checked for legality.
#include "match/puzzles.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <istream>
#include <map>
#include <ostream>
#include <sstream>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci_move.h"
#include "match/report_format.h"

namespace axon::match {

namespace {

// Splits a CSV line; double-quoted fields may hold commas and "" for a quote.
std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    return fields;
}

std::vector<std::string> splitWords(const std::string& text) {
    std::vector<std::string> words;
    std::istringstream in(text);
    std::string w;
    while (in >> w) words.push_back(w);
    return words;
}

bool hasAnyTheme(const Puzzle& p, const std::vector<std::string>& themes) {
    for (const auto& t : themes)
        if (std::find(p.themes.begin(), p.themes.end(), t) != p.themes.end()) return true;
    return false;
}

bool isCheckmate(const chess::Position& pos) {
    return pos.inCheck() && chess::MoveList<chess::GenType::All>(pos).empty();
}

void count(PuzzleTally& tally, bool solved) {
    ++tally.puzzles;
    tally.solved += solved;
}

std::string percent(int part, int whole) {
    return whole > 0 ? fixedDecimals(100.0 * part / whole, 1) + "%" : "-";
}

std::string tallyLine(const PuzzleTally& t, std::size_t width) {
    std::string label = t.label;
    if (label.size() < width) label.append(width - label.size(), ' ');
    std::string counts = std::to_string(t.solved) + "/" + std::to_string(t.puzzles);
    if (counts.size() < 11) counts.insert(0, 11 - counts.size(), ' ');
    std::string share = percent(t.solved, t.puzzles);
    if (share.size() < 7) share.insert(0, 7 - share.size(), ' ');
    return "  " + label + " " + counts + " " + share + "\n";
}

ReportJson tallyJson(const std::vector<PuzzleTally>& tallies) {
    ReportJson list = ReportJson::array();
    for (const PuzzleTally& t : tallies)
        list.push_back({{"label", t.label}, {"puzzles", t.puzzles}, {"solved", t.solved}});
    return list;
}

constexpr const char* kRatingBands[] = {"<1000", "1000-1499", "1500-1999", "2000-2499", ">=2500"};

} // namespace

util::Result<PuzzleColumns> parsePuzzleHeader(const std::string& line) {
    const auto names = splitCsv(line);
    PuzzleColumns c;
    c.count = names.size();
    auto find = [&](const char* name, std::size_t& index) {
        const auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end()) return false;
        index = std::size_t(it - names.begin());
        return true;
    };
    for (auto [name, index] : {std::pair{"PuzzleId", &c.id},
                               {"FEN", &c.fen},
                               {"Moves", &c.moves},
                               {"Rating", &c.rating},
                               {"Themes", &c.themes}})
        if (!find(name, *index))
            return util::makeError(std::string("header has no ") + name + " column");
    return c;
}

util::Result<Puzzle> parsePuzzleLine(const std::string& line, const PuzzleColumns& columns) {
    const auto fields = splitCsv(line);
    if (fields.size() != columns.count)
        return util::makeError(std::to_string(fields.size()) + " columns, expected " +
                               std::to_string(columns.count));
    Puzzle p;
    p.id = fields[columns.id];
    p.fen = fields[columns.fen];
    auto pos = chess::parseFen(p.fen);
    if (!pos) return util::makeError("bad FEN: " + pos.error());
    p.moves = splitWords(fields[columns.moves]);
    if (p.moves.size() < 2)
        return util::makeError("Moves needs the opponent's move and at least one solver move");
    if (p.moves.size() % 2 != 0) return util::makeError("Moves ends with an opponent move");
    for (std::size_t i = 0; i < p.moves.size(); ++i) {
        auto m = chess::parseUciMove(*pos, p.moves[i]);
        if (!m)
            return util::makeError("move " + std::to_string(i + 1) + " '" + p.moves[i] +
                                   "': " + m.error());
        pos->makeMove(*m);
    }
    const std::string& rating = fields[columns.rating];
    char* end = nullptr;
    const long r = std::strtol(rating.c_str(), &end, 10);
    if (rating.empty() || *end != '\0' || r < 0 || r > 10000)
        return util::makeError("bad Rating '" + rating + "'");
    p.rating = int(r);
    p.themes = splitWords(fields[columns.themes]);
    return p;
}

PuzzleSet readPuzzles(std::istream& in, const PuzzleFilter& filter) {
    PuzzleSet set;
    PuzzleColumns columns;
    std::string line;
    int lineNumber = 0;
    while ((filter.limit == 0 || set.puzzles.size() < filter.limit) && std::getline(in, line)) {
        ++lineNumber;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        if (lineNumber == 1 && line.rfind("PuzzleId", 0) == 0) {
            auto header = parsePuzzleHeader(line);
            if (header)
                columns = *header;
            else
                set.malformed.push_back({lineNumber, header.error()});
            continue;
        }
        auto puzzle = parsePuzzleLine(line, columns);
        if (!puzzle) {
            set.malformed.push_back({lineNumber, puzzle.error()});
            continue;
        }
        puzzle->line = lineNumber;
        if (puzzle->rating < filter.minRating || puzzle->rating > filter.maxRating ||
            (!filter.themes.empty() && !hasAnyTheme(*puzzle, filter.themes))) {
            ++set.filteredOut;
            continue;
        }
        set.puzzles.push_back(std::move(*puzzle));
    }
    return set;
}

PuzzleAttempt solvePuzzle(Engine& engine, const Puzzle& puzzle, const AnalysisLimit& limit) {
    PuzzleAttempt attempt;
    // parsePuzzleLine has checked all of this; a puzzle built some other way is checked here.
    auto start = chess::parseFen(puzzle.fen);
    if (!start || puzzle.moves.size() < 2 || puzzle.moves.size() % 2 != 0) {
        attempt.error = "malformed puzzle";
        return attempt;
    }
    std::vector<chess::Move> solution;
    for (chess::Position check = *start; const auto& text : puzzle.moves) {
        const auto m = chess::parseUciMove(check, text);
        if (!m) {
            attempt.error = "malformed puzzle: " + m.error();
            return attempt;
        }
        solution.push_back(*m);
        check.makeMove(*m);
    }
    if (!engine.newGame()) {
        attempt.error = engine.error();
        return attempt;
    }
    chess::Position pos = *start;
    SearchRequest request;
    request.startFen = puzzle.fen;
    limit.applyTo(request);
    // The opponent's move sets the puzzle.
    pos.makeMove(solution[0]);
    request.moves.push_back(puzzle.moves[0]);
    for (std::size_t i = 1; i < puzzle.moves.size(); i += 2) {
        const SearchResult answer = engine.search(request);
        if (answer.status != SearchStatus::Ok) {
            attempt.error = answer.error;
            return attempt;
        }
        attempt.engineMoves.push_back(answer.bestMove);
        const auto played = chess::parseUciMove(pos, answer.bestMove);
        if (!played) {
            attempt.error = "illegal move '" + answer.bestMove + "'";
            return attempt;
        }
        const chess::Move expected = solution[i];
        if (i == 1) attempt.firstMoveAgrees = *played == expected;
        pos.makeMove(*played);
        if (isCheckmate(pos)) {
            attempt.solved = true;
            return attempt;
        }
        if (*played != expected) return attempt;
        if (i + 1 == puzzle.moves.size()) {
            attempt.solved = true;
            return attempt;
        }
        request.moves.push_back(puzzle.moves[i]);
        request.moves.push_back(puzzle.moves[i + 1]);
        pos.makeMove(solution[i + 1]);
    }
    return attempt;
}

std::string ratingBand(int rating) {
    if (rating < 1000) return kRatingBands[0];
    if (rating >= 2500) return kRatingBands[4];
    return kRatingBands[(rating - 500) / 500];
}

PuzzleSummary summarisePuzzles(const std::vector<Puzzle>& puzzles,
                               const std::vector<PuzzleAttempt>& attempts) {
    PuzzleSummary s;
    for (const char* band : kRatingBands) s.ratingBands.push_back({band});
    for (int n = 1; n <= 5; ++n) s.mateThemes.push_back({"mateIn" + std::to_string(n)});
    std::map<std::string, PuzzleTally> themes;
    for (std::size_t i = 0; i < puzzles.size() && i < attempts.size(); ++i) {
        const Puzzle& p = puzzles[i];
        const PuzzleAttempt& a = attempts[i];
        count(s.total, a.solved);
        s.firstMoveAgreements += a.firstMoveAgrees;
        s.engineErrors += !a.error.empty();
        const std::string band = ratingBand(p.rating);
        for (auto& t : s.ratingBands)
            if (t.label == band) count(t, a.solved);
        for (const auto& theme : p.themes) {
            auto& t = themes[theme];
            t.label = theme;
            count(t, a.solved);
            for (auto& m : s.mateThemes)
                if (m.label == theme) count(m, a.solved);
        }
    }
    for (auto& [name, tally] : themes) s.themes.push_back(tally);
    std::stable_sort(
        s.themes.begin(), s.themes.end(),
        [](const PuzzleTally& a, const PuzzleTally& b) { return a.puzzles > b.puzzles; });
    s.attempts = attempts;
    return s;
}

util::Result<PuzzleSummary> runPuzzles(const PuzzleSet& set, const PuzzleRunOptions& options,
                                       const EngineFactory& makeEngine, std::ostream& out) {
    std::vector<PuzzleAttempt> attempts(set.puzzles.size());
    const auto start = std::chrono::steady_clock::now();
    auto solve = [&](Engine& engine, std::size_t i) {
        attempts[i] = solvePuzzle(engine, set.puzzles[i], options.limit);
    };
    std::size_t finished = 0;
    auto report = [&](std::size_t i) {
        finished = i + 1;
        if (options.verbose) out << formatPuzzleLine(set.puzzles[i], attempts[i]) << std::endl;
    };
    auto name = runOnEnginePool(makeEngine, options.concurrency, set.puzzles.size(), solve, report,
                                options.interrupt);
    if (!name) return util::makeError(name.error());
    attempts.resize(finished);
    PuzzleSummary summary = summarisePuzzles(set.puzzles, attempts);
    summary.planned = int(set.puzzles.size());
    summary.interrupted = finished < set.puzzles.size();
    summary.engineName = *name;
    summary.limit = options.limit.describe();
    summary.malformed = int(set.malformed.size());
    summary.filteredOut = set.filteredOut;
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary;
}

std::string formatPuzzleLine(const Puzzle& puzzle, const PuzzleAttempt& attempt) {
    std::string solution, engine;
    for (std::size_t i = 1; i < puzzle.moves.size(); i += 2)
        solution += (i > 1 ? " " : "") + puzzle.moves[i];
    for (std::size_t i = 0; i < attempt.engineMoves.size(); ++i)
        engine += (i ? " " : "") + attempt.engineMoves[i];
    std::string s = puzzle.id + "  " + std::to_string(puzzle.rating) + "  solution " + solution +
                    "  engine " + (engine.empty() ? "-" : engine) + "  " +
                    (attempt.solved ? "ok" : "FAIL");
    if (!attempt.error.empty()) s += " (" + attempt.error + ")";
    return s;
}

std::string formatPuzzleSummary(const PuzzleSummary& s, std::size_t topThemes) {
    std::ostringstream o;
    o << "Engine: " << s.engineName << "  limit: " << s.limit << "\n";
    o << "Puzzles: " << s.total.puzzles << "  malformed lines: " << s.malformed
      << "  filtered out: " << s.filteredOut << "  engine errors: " << s.engineErrors
      << "  time: " << fixedDecimals(s.seconds, 1) << " s\n";
    o << "Solved: " << s.total.solved << "/" << s.total.puzzles << " ("
      << percent(s.total.solved, s.total.puzzles)
      << ")  first move agreement: " << s.firstMoveAgreements << "/" << s.total.puzzles << " ("
      << percent(s.firstMoveAgreements, s.total.puzzles) << ")\n";
    if (s.interrupted)
        o << "Interrupted after " << s.total.puzzles << " of " << s.planned << " puzzles\n";
    std::size_t width = 10;
    for (std::size_t i = 0; i < s.themes.size() && i < topThemes; ++i)
        width = std::max(width, s.themes[i].label.size());
    o << "By rating:\n";
    for (const auto& t : s.ratingBands)
        if (t.puzzles > 0) o << tallyLine(t, width);
    o << "Mates:\n";
    for (const auto& t : s.mateThemes)
        if (t.puzzles > 0) o << tallyLine(t, width);
    o << "Top themes:\n";
    for (std::size_t i = 0; i < s.themes.size() && i < topThemes; ++i)
        o << tallyLine(s.themes[i], width);
    return o.str();
}

std::string puzzleSummaryJson(const PuzzleSummary& s, const std::vector<Puzzle>& puzzles) {
    ReportJson doc;
    doc["engine"] = s.engineName;
    doc["limit"] = s.limit;
    doc["puzzles"] = s.total.puzzles;
    doc["solved"] = s.total.solved;
    doc["first_move_agreements"] = s.firstMoveAgreements;
    doc["malformed_lines"] = s.malformed;
    doc["filtered_out"] = s.filteredOut;
    doc["engine_errors"] = s.engineErrors;
    doc["seconds"] = roundedDecimals(s.seconds, 2);
    doc["interrupted"] = s.interrupted;
    doc["rating_bands"] = tallyJson(s.ratingBands);
    doc["mates"] = tallyJson(s.mateThemes);
    doc["themes"] = tallyJson(s.themes);
    ReportJson results = ReportJson::array();
    for (std::size_t i = 0; i < s.attempts.size() && i < puzzles.size(); ++i) {
        const auto& a = s.attempts[i];
        std::string moves;
        for (std::size_t k = 0; k < a.engineMoves.size(); ++k)
            moves += (k ? " " : "") + a.engineMoves[k];
        results.push_back({{"id", puzzles[i].id},
                           {"rating", puzzles[i].rating},
                           {"solved", a.solved},
                           {"first_move_agrees", a.firstMoveAgrees},
                           {"engine_moves", moves},
                           {"error", a.error}});
    }
    doc["results"] = std::move(results);
    return reportText(doc);
}

} // namespace axon::match

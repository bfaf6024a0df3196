// SPDX-License-Identifier: GPL-3.0-or-later
// EPD suite reading, scoring and reporting. The engine sees each position as a new game, so a
// result depends only on the position and the limit, not on which engine process took it.
#include "match/epd_suite.h"

#include <algorithm>
#include <chrono>
#include <istream>
#include <map>
#include <ostream>
#include <sstream>

#include "chess/fen.h"
#include "chess/san.h"
#include "chess/uci_move.h"
#include "match/report_format.h"
#include "util/text.h"

namespace axon::match {

namespace {

bool isSeparator(char c) {
    return c == '.' || c == '_' || c == '-' || c == ':' || c == '#' || c == ' ' || c == '\t';
}

std::optional<int> parseInteger(std::string_view text) {
    if (text.empty() || text.size() > 9) return std::nullopt;
    std::size_t i = text[0] == '-' || text[0] == '+' ? 1 : 0;
    if (i == text.size()) return std::nullopt;
    int value = 0;
    for (; i < text.size(); ++i) {
        if (text[i] < '0' || text[i] > '9') return std::nullopt;
        value = value * 10 + (text[i] - '0');
    }
    return text[0] == '-' ? -value : value;
}

bool contains(const std::vector<chess::Move>& moves, chess::Move m) {
    return std::find(moves.begin(), moves.end(), m) != moves.end();
}

std::string percent(std::int64_t part, std::int64_t whole) {
    return whole > 0 ? fixedDecimals(100.0 * double(part) / double(whole), 1) + "%" : "-";
}

std::string padRight(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

std::string padLeft(std::string text, std::size_t width) {
    if (text.size() < width) text.insert(0, width - text.size(), ' ');
    return text;
}

// What the position asks for, as shown on a verbose line.
std::string expectedText(const SuitePosition& p) {
    std::string s;
    const auto& pos = p.record.position;
    if (!p.record.bestMoves.empty()) {
        s += "bm";
        for (auto m : p.record.bestMoves) s += " " + chess::toSan(pos, m);
    }
    if (!p.record.avoidMoves.empty()) {
        s += s.empty() ? "am" : "; am";
        for (auto m : p.record.avoidMoves) s += " " + chess::toSan(pos, m);
    }
    if (!p.points.empty()) {
        s += s.empty() ? "points" : "; points";
        for (const auto& mp : p.points)
            s += " " + chess::toSan(pos, mp.move) + "=" + std::to_string(mp.points);
    }
    return s;
}

void addTo(ThemeTally& tally, const PositionScore& score) {
    ++tally.positions;
    tally.solved += score.solved;
    tally.points += score.points;
    tally.maxPoints += score.maxPoints;
}

} // namespace

util::Result<std::vector<MovePoints>> parseMovePoints(const chess::Position& pos,
                                                      std::string_view text) {
    std::vector<MovePoints> list;
    while (true) {
        const auto comma = text.find(',');
        const std::string_view item = util::trimAsciiSpace(text.substr(0, comma));
        const auto eq = item.find('=');
        if (eq == std::string_view::npos)
            return util::makeError("point list item '" + std::string(item) +
                                   "' is not MOVE=POINTS");
        // "e8=Q=10": the points follow the last '='.
        const auto lastEq = item.rfind('=');
        const auto points = parseInteger(util::trimAsciiSpace(item.substr(lastEq + 1)));
        if (!points)
            return util::makeError("point list item '" + std::string(item) +
                                   "': points are not an integer");
        auto move = chess::parseSan(pos, util::trimAsciiSpace(item.substr(0, lastEq)));
        if (!move)
            return util::makeError("point list item '" + std::string(item) + "': " + move.error());
        for (const auto& mp : list)
            if (mp.move == *move)
                return util::makeError("point list names " +
                                       std::string(util::trimAsciiSpace(item.substr(0, lastEq))) +
                                       " twice");
        list.push_back({*move, *points});
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    return list;
}

std::string themeOf(std::string_view id) {
    std::size_t end = id.size();
    while (end > 0 && (id[end - 1] == ' ' || id[end - 1] == '\t')) --end;
    std::size_t digits = end;
    while (digits > 0 && id[digits - 1] >= '0' && id[digits - 1] <= '9') --digits;
    if (digits < end) {
        end = digits;
        while (end > 0 && isSeparator(id[end - 1])) --end;
    }
    if (end == 0) return "(no id)";
    return std::string(id.substr(0, end));
}

Suite readSuite(std::istream& in) {
    Suite suite;
    std::string text;
    int lineNumber = 0;
    while (std::getline(in, text)) {
        ++lineNumber;
        const std::string_view line = util::trimAsciiSpace(text);
        if (line.empty() || line.front() == '#') continue;
        auto record = chess::parseEpd(line);
        if (!record) {
            suite.skipped.push_back({lineNumber, record.error()});
            continue;
        }
        SuitePosition p;
        p.line = lineNumber;
        p.record = std::move(*record);
        p.theme = themeOf(p.record.id);
        const std::string& c0 = p.record.comments[0];
        if (c0.find('=') != std::string::npos) {
            auto points = parseMovePoints(p.record.position, c0);
            if (!points) {
                suite.skipped.push_back({lineNumber, "c0: " + points.error()});
                continue;
            }
            p.points = std::move(*points);
        }
        if (p.record.bestMoves.empty() && p.record.avoidMoves.empty() && p.points.empty()) {
            suite.skipped.push_back({lineNumber, "nothing to score (no bm, am or c0 point list)"});
            continue;
        }
        suite.positions.push_back(std::move(p));
    }
    return suite;
}

PositionScore scorePosition(const SuitePosition& position, chess::Move engineMove) {
    PositionScore score;
    for (const auto& mp : position.points) {
        score.maxPoints = std::max(score.maxPoints, mp.points);
        if (mp.move == engineMove) score.points = mp.points;
    }
    const auto& rec = position.record;
    if (!rec.bestMoves.empty() || !rec.avoidMoves.empty())
        score.solved = (rec.bestMoves.empty() || contains(rec.bestMoves, engineMove)) &&
                       !contains(rec.avoidMoves, engineMove);
    else
        score.solved = !position.points.empty() && score.points == score.maxPoints;
    return score;
}

util::Result<SuiteSummary> runSuite(const Suite& suite, const SuiteRunOptions& options,
                                    const EngineFactory& makeEngine, std::ostream& out) {
    SuiteSummary summary;
    summary.limit = options.limit.describe();
    summary.positions = int(suite.positions.size());
    summary.skipped = int(suite.skipped.size());
    summary.total.theme = "total";
    summary.results.resize(suite.positions.size());

    const auto start = std::chrono::steady_clock::now();
    auto analyse = [&](Engine& engine, std::size_t i) {
        const SuitePosition& p = suite.positions[i];
        PositionResult& r = summary.results[i];
        if (!engine.newGame()) {
            r.error = engine.error();
            return;
        }
        SearchRequest request;
        request.startFen = chess::toFen(p.record.position);
        options.limit.applyTo(request);
        const SearchResult answer = engine.search(request);
        if (answer.status != SearchStatus::Ok) {
            r.error = answer.error;
            return;
        }
        const auto move = chess::parseUciMove(p.record.position, answer.bestMove);
        if (!move) {
            r.engineMove = answer.bestMove;
            r.error = "illegal move '" + answer.bestMove + "'";
            return;
        }
        r.engineMove = chess::toSan(p.record.position, *move);
        r.score = scorePosition(p, *move);
    };
    std::map<std::string, std::size_t> themeIndex;
    std::size_t finished = 0;
    auto tally = [&](std::size_t i) {
        finished = i + 1;
        const SuitePosition& p = suite.positions[i];
        PositionResult& r = summary.results[i];
        // A failed analysis still counts the position's possible points.
        if (!r.error.empty()) {
            ++summary.engineErrors;
            r.score = {};
            for (const auto& mp : p.points)
                r.score.maxPoints = std::max(r.score.maxPoints, mp.points);
        }
        const auto [it, added] = themeIndex.try_emplace(p.theme, summary.themes.size());
        if (added) summary.themes.push_back({p.theme});
        addTo(summary.themes[it->second], r.score);
        addTo(summary.total, r.score);
        if (options.verbose) out << formatPositionLine(p, r) << std::endl;
    };
    auto name = runOnEnginePool(makeEngine, options.concurrency, suite.positions.size(), analyse,
                                tally, options.interrupt);
    if (!name) return util::makeError(name.error());
    summary.planned = summary.positions;
    summary.interrupted = finished < suite.positions.size();
    summary.positions = int(finished);
    summary.results.resize(finished);
    summary.engineName = *name;
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary;
}

std::string formatPositionLine(const SuitePosition& position, const PositionResult& result) {
    std::string s = (position.record.id.empty() ? "line " + std::to_string(position.line)
                                                : position.record.id) +
                    "  " + expectedText(position) + "  engine " +
                    (result.engineMove.empty() ? "-" : result.engineMove) + "  ";
    if (!position.points.empty())
        s += std::to_string(result.score.points) + "/" + std::to_string(result.score.maxPoints) +
             " ";
    s += result.score.solved ? "ok" : "FAIL";
    if (!result.error.empty()) s += " (" + result.error + ")";
    return s;
}

std::string formatSuiteSummary(const SuiteSummary& s) {
    std::ostringstream o;
    const bool pointScored = s.total.maxPoints > 0;
    o << "Engine: " << s.engineName << "  limit: " << s.limit << "\n";
    o << "Positions: " << s.positions << "  skipped lines: " << s.skipped
      << "  engine errors: " << s.engineErrors << "  time: " << fixedDecimals(s.seconds, 1)
      << " s\n";
    o << "Solved: " << s.total.solved << "/" << s.total.positions << " ("
      << percent(s.total.solved, s.total.positions) << ")";
    if (pointScored)
        o << "  Points: " << s.total.points << "/" << s.total.maxPoints << " ("
          << percent(s.total.points, s.total.maxPoints) << ")";
    o << "\n";
    if (s.interrupted)
        o << "Interrupted after " << s.positions << " of " << s.planned << " positions\n";
    std::size_t width = 5;
    for (const auto& t : s.themes) width = std::max(width, t.theme.size());
    o << "Themes:\n";
    for (const auto& t : s.themes) {
        o << "  " << padRight(t.theme, width) << "  " << padLeft(std::to_string(t.solved), 4) << "/"
          << padRight(std::to_string(t.positions), 4) << " "
          << padLeft(percent(t.solved, t.positions), 6);
        if (pointScored)
            o << "  points " << padLeft(std::to_string(t.points), 5) << "/"
              << padRight(std::to_string(t.maxPoints), 5) << " "
              << padLeft(percent(t.points, t.maxPoints), 6);
        o << "\n";
    }
    return o.str();
}

std::string suiteSummaryJson(const SuiteSummary& s, const Suite& suite) {
    ReportJson doc;
    doc["engine"] = s.engineName;
    doc["limit"] = s.limit;
    doc["positions"] = s.positions;
    doc["skipped_lines"] = s.skipped;
    doc["engine_errors"] = s.engineErrors;
    doc["seconds"] = roundedDecimals(s.seconds, 2);
    doc["interrupted"] = s.interrupted;
    doc["solved"] = s.total.solved;
    doc["points"] = s.total.points;
    doc["max_points"] = s.total.maxPoints;
    ReportJson themes = ReportJson::array();
    for (const ThemeTally& t : s.themes)
        themes.push_back({{"theme", t.theme},
                          {"positions", t.positions},
                          {"solved", t.solved},
                          {"points", t.points},
                          {"max_points", t.maxPoints}});
    doc["themes"] = std::move(themes);
    ReportJson results = ReportJson::array();
    for (std::size_t i = 0; i < s.results.size() && i < suite.positions.size(); ++i) {
        const auto& p = suite.positions[i];
        const auto& r = s.results[i];
        results.push_back({{"line", p.line},
                           {"id", p.record.id},
                           {"expected", expectedText(p)},
                           {"engine_move", r.engineMove},
                           {"solved", r.score.solved},
                           {"points", r.score.points},
                           {"max_points", r.score.maxPoints},
                           {"error", r.error}});
    }
    doc["results"] = std::move(results);
    return reportText(doc);
}

} // namespace axon::match

// SPDX-License-Identifier: GPL-3.0-or-later
// CECP over an engine process. The engine stays in force mode except while it thinks: after
// each `go` and its reply the runner sends `force` again, so the engine never starts thinking on
// its own when the opponent's move arrives, and the runner alone decides whose turn it is.
#include "match/xboard_engine.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <utility>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/san.h"
#include "chess/uci_move.h"

namespace axon::match {

namespace {

using std::chrono::milliseconds;

constexpr int kMateBase = 100000; // CECP: mate in N is 100000 + N

bool startsWithWord(const std::string& line, const std::string& word) {
    return line.compare(0, word.size(), word) == 0 &&
           (line.size() == word.size() || line[word.size()] == ' ' || line[word.size()] == '\t');
}

bool isInteger(const std::string& s) {
    std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    return i < s.size() && s.find_first_not_of("0123456789", i) == std::string::npos;
}

// "M:SS" (or "M" whole minutes) for `level`; the base is rounded up to a whole second, since
// `time` before every move tells the engine its real clock anyway.
std::string levelBase(std::int64_t ms) {
    const std::int64_t seconds = (ms + 999) / 1000;
    std::string s = std::to_string(seconds / 60);
    if (seconds % 60)
        s += ":" + std::string(seconds % 60 < 10 ? "0" : "") + std::to_string(seconds % 60);
    return s;
}

std::string secondsText(std::int64_t ms) {
    std::ostringstream s;
    s << double(ms) / 1000.0;
    return s.str();
}

bool claimsResult(const std::string& line) {
    return startsWithWord(line, "1-0") || startsWithWord(line, "0-1") ||
           startsWithWord(line, "1/2-1/2");
}

} // namespace

std::vector<std::string> parseFeatureLine(const std::string& line, XboardFeatures& features,
                                          std::optional<int>& doneValue) {
    std::vector<std::string> names;
    std::size_t i = line.find_first_of(" \t");
    while (i != std::string::npos && i < line.size()) {
        i = line.find_first_not_of(" \t", i);
        if (i == std::string::npos) break;
        const std::size_t eq = line.find('=', i);
        if (eq == std::string::npos) break;
        const std::string key = line.substr(i, eq - i);
        std::string value;
        std::size_t next = eq + 1;
        if (next < line.size() && line[next] == '"') {
            const std::size_t close = line.find('"', next + 1);
            value = line.substr(next + 1,
                                close == std::string::npos ? std::string::npos : close - next - 1);
            next = close == std::string::npos ? line.size() : close + 1;
        } else {
            const std::size_t end = line.find_first_of(" \t", next);
            value = line.substr(next, end == std::string::npos ? std::string::npos : end - next);
            next = end;
        }
        i = next;
        if (key.empty() || key.find_first_of(" \t") != std::string::npos) break;
        names.push_back(key);
        const bool on = value == "1";
        if (key == "ping")
            features.ping = on;
        else if (key == "setboard")
            features.setboard = on;
        else if (key == "san")
            features.san = on;
        else if (key == "usermove")
            features.usermove = on;
        else if (key == "time")
            features.time = on;
        else if (key == "myname")
            features.myname = value;
        else if (key == "variants") {
            features.variants.clear();
            std::istringstream list(value);
            std::string v;
            while (std::getline(list, v, ','))
                if (!v.empty()) features.variants.push_back(v);
        } else if (key == "done" && isInteger(value)) {
            doneValue = std::stoi(value);
            if (*doneValue == 1) features.done = true;
        }
    }
    return names;
}

bool parseThinkingLine(const std::string& line, SearchResult& result) {
    std::istringstream in(line);
    std::string ply, score, time, nodes;
    if (!(in >> ply >> score >> time >> nodes)) return false;
    // Some engines mark the ply ("9." or "9&" for a fail) - allow one trailing mark.
    if (!ply.empty() && !std::isdigit(static_cast<unsigned char>(ply.back()))) ply.pop_back();
    if (!isInteger(ply) || ply[0] == '-' || !isInteger(score) || !isInteger(time) ||
        !isInteger(nodes))
        return false;
    int value = 0;
    try {
        result.depth = std::stoi(ply);
        value = std::stoi(score);
    } catch (...) {
        return false;
    }
    if (std::abs(value) > kMateBase) {
        result.scoreMate = value > 0 ? value - kMateBase : -(-value - kMateBase);
        result.scoreCp.reset();
    } else {
        result.scoreCp = value;
        result.scoreMate.reset();
    }
    return true;
}

std::string moveInReply(const std::string& line) {
    std::istringstream in(line);
    std::string first, second, third;
    in >> first;
    if (first == "move") {
        in >> second;
        return second;
    }
    // Protocol version 1: "My move is: e2e4" (some write "my move is e2e4").
    std::string lower = line;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    const std::size_t at = lower.find("my move is");
    if (at != std::string::npos) {
        std::string rest = line.substr(at + 10);
        const std::size_t start = rest.find_first_not_of(" \t:");
        if (start == std::string::npos) return {};
        std::istringstream words(rest.substr(start));
        words >> second;
        return second;
    }
    // Old GNU Chess style: "12. ... e7e5".
    if (first.size() >= 2 && first.back() == '.' && isInteger(first.substr(0, first.size() - 1))) {
        in >> second >> third;
        if (second == "...") return third;
    }
    return {};
}

std::optional<chess::Move> parseXboardMove(const chess::Position& pos, const std::string& text) {
    if (text.empty()) return std::nullopt;
    std::string coord;
    for (char c : text)
        if (c != '=') coord += char(std::tolower(static_cast<unsigned char>(c)));
    if (coord.size() >= 4 && coord.size() <= 5) {
        // parseUciMove takes castling both as e1g1 and as king-takes-rook (e1h1).
        if (auto m = chess::parseUciMove(pos, coord)) return *m;
    }
    if (auto m = chess::parseSan(pos, text)) return *m;
    return std::nullopt;
}

std::string formatXboardMove(const chess::Position& pos, chess::Move m, bool san) {
    if (san) return chess::toSan(pos, m);
    if (m.type() == chess::MoveType::Castling && pos.isChess960())
        return m.to() > m.from() ? "O-O" : "O-O-O";
    return chess::toUci(m, false);
}

XboardEngine::XboardEngine(EngineConfig config, XboardTimeouts timeouts)
    : ProcessEngine(std::move(config)), m_timeouts(timeouts) {}

bool XboardEngine::readFeatures() {
    m_features = XboardFeatures{};
    auto deadline = Clock::now() + m_timeouts.features;
    bool extended = false; // the engine sent done=0
    std::string line;
    while (true) {
        switch (m_process.readLineUntil(line, deadline)) {
        case ReadStatus::Timeout:
            // Silence after the 2 s is a version 1 engine; after done=0 it is an engine that
            // never finished starting.
            if (!extended) return true;
            return fail("no 'feature done=1' within " +
                        std::to_string(m_timeouts.featuresExtended.count()) + " ms of 'done=0'");
        case ReadStatus::Closed: return fail("exited during the feature handshake");
        case ReadStatus::Line: break;
        }
        if (!startsWithWord(line, "feature")) continue;
        std::optional<int> done;
        for (const auto& name : parseFeatureLine(line, m_features, done))
            m_process.writeLine("accepted " + name);
        if (done && *done == 1) return true;
        if (done && *done == 0) {
            deadline = Clock::now() + m_timeouts.featuresExtended;
            extended = true;
        }
    }
}

bool XboardEngine::waitReady(std::chrono::milliseconds timeout) {
    if (!m_features.ping) return m_process.isRunning() || fail("exited");
    const std::string expected = std::to_string(++m_pingCounter);
    m_process.writeLine("ping " + expected);
    const auto deadline = Clock::now() + timeout;
    std::string line;
    while (true) {
        switch (m_process.readLineUntil(line, deadline)) {
        case ReadStatus::Timeout:
            return fail("no 'pong " + expected + "' within " + std::to_string(timeout.count()) +
                        " ms");
        case ReadStatus::Closed: return fail("exited while waiting for 'pong'");
        case ReadStatus::Line: break;
        }
        std::istringstream in(line);
        std::string word, value;
        in >> word >> value;
        if (word == "pong" && value == expected) return true;
    }
}

bool XboardEngine::ensureStarted() {
    if (running()) return true;
    m_started = false;
    if (!m_process.start(m_config.command, m_config.workingDir)) return fail(m_process.error());
    if (!m_process.writeLine("xboard") || !m_process.writeLine("protover 2"))
        return fail("cannot write to the engine");
    if (!readFeatures()) {
        m_process.kill();
        return false;
    }
    if (m_config.name.empty() && !m_features.myname.empty()) m_name = m_features.myname;
    if (m_config.chess960 && std::find(m_features.variants.begin(), m_features.variants.end(),
                                       "fischerandom") == m_features.variants.end()) {
        m_process.kill();
        return fail("does not support Chess960 (no 'fischerandom' in its variants feature)");
    }
    for (const auto& [key, value] : m_config.options)
        m_process.writeLine("option " + key + "=" + value);
    if (!waitReady(m_timeouts.ready)) {
        m_process.kill();
        return false;
    }
    m_started = true;
    m_needsSetup = true;
    return true;
}

std::string XboardEngine::cannotStartFrom(const std::string& fen) const {
    if (m_features.setboard) return {};
    auto pos = chess::parseFen(fen);
    if (pos && chess::toFen(*pos) == chess::toFen(chess::startPosition())) return {};
    return m_name + " cannot start from '" + fen +
           "': it lacks 'feature setboard=1', so only books starting from the standard start "
           "position (PGN move lists) can be used with it";
}

bool XboardEngine::newGame() {
    if (!ensureStarted()) return false;
    m_process.writeLine("new");
    m_process.writeLine("force");
    m_needsSetup = true;
    m_startFen.clear();
    m_moves.clear();
    if (!waitReady(m_timeouts.ready)) {
        terminate();
        return false;
    }
    return true;
}

void XboardEngine::terminate() {
    ProcessEngine::terminate();
    m_needsSetup = true;
}

bool XboardEngine::sendTimeControl(const TimeControl& tc) {
    switch (tc.kind) {
    case TimeControl::Kind::Clock:
        return m_process.writeLine("level " + std::to_string(tc.movesPerPeriod) + " " +
                                   levelBase(tc.baseMs) + " " + secondsText(tc.incrementMs));
    case TimeControl::Kind::MoveTime:
        // `st` takes whole seconds in most engines; round down but never to zero.
        return m_process.writeLine("st " +
                                   std::to_string(std::max<std::int64_t>(1, tc.moveTimeMs / 1000)));
    case TimeControl::Kind::Depth: return m_process.writeLine("sd " + std::to_string(tc.depth));
    case TimeControl::Kind::Nodes: return fail("node-limited searches are not part of CECP");
    }
    return false;
}

bool XboardEngine::sendMove(chess::Move m) {
    const std::string text = formatXboardMove(m_board, m, m_features.san);
    if (!m_process.writeLine(m_features.usermove ? "usermove " + text : text))
        return fail("cannot write to the engine");
    m_moves.push_back(chess::toUci(m, m_board.isChess960()));
    m_board.makeMove(m);
    return true;
}

bool XboardEngine::syncBoard(const SearchRequest& request) {
    const bool continues = !m_needsSetup && request.startFen == m_startFen &&
                           m_moves.size() <= request.moves.size() &&
                           std::equal(m_moves.begin(), m_moves.end(), request.moves.begin());
    if (!continues) {
        if (!m_needsSetup) {
            m_process.writeLine("new");
            m_process.writeLine("force");
        }
        const std::string problem = cannotStartFrom(request.startFen);
        if (!problem.empty()) return fail(problem);
        auto start = chess::parseFen(request.startFen);
        if (!start) return fail("bad start position: " + start.error());
        m_board = *start;
        m_board.setChess960(m_config.chess960 || start->isChess960());
        if (m_board.isChess960()) m_process.writeLine("variant fischerandom");
        // `post` and `easy` after `new`: some engines reset them there.
        m_process.writeLine("post");
        m_process.writeLine("easy");
        if (!sendTimeControl(request.timeControl)) return false;
        if (m_features.setboard) m_process.writeLine("setboard " + chess::toFen(m_board));
        m_startFen = request.startFen;
        m_moves.clear();
        m_needsSetup = false;
    }
    for (std::size_t i = m_moves.size(); i < request.moves.size(); ++i) {
        auto m = chess::parseUciMove(m_board, request.moves[i]);
        if (!m) return fail("bad move in the request: " + m.error());
        if (!sendMove(*m)) return false;
    }
    return true;
}

SearchResult XboardEngine::search(const SearchRequest& request) {
    SearchResult result;
    if (!running()) {
        result.error = m_name + ": not running";
        return result;
    }
    if (!syncBoard(request)) {
        // The engine's board is out of step: end it and let the next game start a fresh one.
        terminate();
        result.error = m_error;
        return result;
    }
    if (request.useClock && m_features.time) {
        const bool white = m_board.sideToMove() == chess::White;
        const std::int64_t own = white ? request.whiteMs : request.blackMs;
        const std::int64_t other = white ? request.blackMs : request.whiteMs;
        m_process.writeLine("time " + std::to_string(std::max<std::int64_t>(0, own / 10)));
        m_process.writeLine("otim " + std::to_string(std::max<std::int64_t>(0, other / 10)));
    }
    const auto start = Clock::now();
    if (!m_process.writeLine("go")) {
        terminate();
        result.error = m_name + ": cannot write to the engine";
        return result;
    }
    const auto deadline = start + request.deadline;
    std::string claim;
    std::string line;
    while (true) {
        const ReadStatus status = m_process.readLineUntil(line, deadline);
        result.elapsed = std::chrono::duration_cast<milliseconds>(Clock::now() - start);
        if (status == ReadStatus::Closed) {
            terminate();
            result.error = m_name + ": exited during the search";
            return result;
        }
        if (status == ReadStatus::Timeout) {
            result.status = SearchStatus::Timeout;
            result.error = m_name + ": no move within " + std::to_string(request.deadline.count()) +
                           " ms" + (claim.empty() ? "" : " (it claimed '" + claim + "')");
            // Its board may or may not hold the move it is about to make: start over next time.
            m_process.writeLine("?");
            m_process.writeLine("force");
            m_needsSetup = true;
            // Without ping a late move could not be told from the next game's: restart it.
            if (!m_features.ping || !waitReady(m_timeouts.stop)) terminate();
            return result;
        }
        const bool resigns = startsWithWord(line, "resign") ||
                             (claimsResult(line) && line.find("resign") != std::string::npos);
        if (resigns) {
            result.status = SearchStatus::Ok;
            result.resigned = true;
            m_process.writeLine("force");
            m_needsSetup = true;
            return result;
        }
        if (claimsResult(line)) {
            // The runner judges the game by its own rules; a claim alone decides nothing.
            claim = line;
            continue;
        }
        // "Error (unknown command): easy" and the like are harmless; a rejected move is not.
        if (startsWithWord(line, "Illegal")) {
            terminate();
            result.error = m_name + ": rejected a move: " + line;
            return result;
        }
        const std::string moveText = moveInReply(line);
        if (!moveText.empty()) {
            result.status = SearchStatus::Ok;
            m_process.writeLine("force");
            if (auto m = parseXboardMove(m_board, moveText)) {
                result.bestMove = chess::toUci(*m, m_board.isChess960());
                m_moves.push_back(result.bestMove);
                m_board.makeMove(*m);
            } else {
                result.bestMove = moveText; // the game reports it as illegal
                m_needsSetup = true;
            }
            return result;
        }
        parseThinkingLine(line, result);
    }
}

} // namespace axon::match

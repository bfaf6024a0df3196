// SPDX-License-Identifier: GPL-3.0-or-later
// UCI over an engine process: every exchange bounded by a timeout, failures reported not thrown.
#include "match/uci_engine.h"

#include <sstream>
#include <utility>

namespace axon::match {

namespace {

using std::chrono::milliseconds;

bool startsWithWord(const std::string& line, const std::string& word) {
    return line.compare(0, word.size(), word) == 0 &&
           (line.size() == word.size() || line[word.size()] == ' ' || line[word.size()] == '\t');
}

} // namespace

void parseInfoLine(const std::string& line, SearchResult& result) {
    std::istringstream in(line);
    std::string token;
    in >> token;
    if (token != "info") return;
    // Bound-only scores (lowerbound/upperbound) are kept too: the last reported score is what a
    // GUI shows, and a final line normally has an exact one anyway.
    while (in >> token) {
        if (token == "depth") {
            int d = 0;
            if (in >> d) result.depth = d;
        } else if (token == "score") {
            std::string kind;
            int value = 0;
            if (!(in >> kind >> value)) return;
            if (kind == "cp") {
                result.scoreCp = value;
                result.scoreMate.reset();
            } else if (kind == "mate") {
                result.scoreMate = value;
                result.scoreCp.reset();
            }
        } else if (token == "pv" || token == "string") {
            return; // the rest is moves or free text
        }
    }
}

UciEngine::UciEngine(EngineConfig config, UciTimeouts timeouts)
    : ProcessEngine(std::move(config)), m_timeouts(timeouts) {}

bool UciEngine::waitFor(const std::string& token, milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    std::string line;
    while (true) {
        switch (m_process.readLineUntil(line, deadline)) {
        case ReadStatus::Timeout:
            return fail("no '" + token + "' within " + std::to_string(timeout.count()) + " ms");
        case ReadStatus::Closed: return fail("exited while waiting for '" + token + "'");
        case ReadStatus::Line:
            if (startsWithWord(line, token)) return true;
            if (token == "uciok" && m_config.name.empty() && startsWithWord(line, "id")) {
                std::istringstream in(line);
                std::string id, field;
                in >> id >> field;
                if (field == "name") {
                    std::string rest;
                    std::getline(in >> std::ws, rest);
                    if (!rest.empty()) m_name = rest;
                }
            }
            break;
        }
    }
}

bool UciEngine::ensureStarted() {
    if (running()) return true;
    m_started = false;
    if (!m_process.start(m_config.command, m_config.workingDir)) return fail(m_process.error());
    if (!m_process.writeLine("uci")) return fail("cannot write to the engine");
    if (!waitFor("uciok", m_timeouts.handshake)) {
        m_process.kill();
        return false;
    }
    if (m_config.chess960) m_process.writeLine("setoption name UCI_Chess960 value true");
    for (const auto& [key, value] : m_config.options)
        m_process.writeLine("setoption name " + key + " value " + value);
    m_process.writeLine("isready");
    if (!waitFor("readyok", m_timeouts.ready)) {
        m_process.kill();
        return false;
    }
    m_started = true;
    return true;
}

bool UciEngine::newGame() {
    if (!ensureStarted()) return false;
    m_process.writeLine("ucinewgame");
    m_process.writeLine("isready");
    if (!waitFor("readyok", m_timeouts.ready)) {
        terminate();
        return false;
    }
    return true;
}

namespace {

// The `position` and `go` lines of one search.
std::string searchCommands(const SearchRequest& request) {
    std::string out = "position fen " + request.startFen;
    if (!request.moves.empty()) {
        out += " moves";
        for (const auto& m : request.moves) out += " " + m;
    }
    out += "\ngo";
    if (request.useClock) {
        out += " wtime " + std::to_string(request.whiteMs) + " btime " +
               std::to_string(request.blackMs) + " winc " + std::to_string(request.whiteIncMs) +
               " binc " + std::to_string(request.blackIncMs);
        if (request.movesToGo > 0) out += " movestogo " + std::to_string(request.movesToGo);
    } else if (request.nodes > 0) {
        out += " nodes " + std::to_string(request.nodes);
    } else if (request.depth > 0) {
        out += " depth " + std::to_string(request.depth);
    } else if (request.moveTimeMs > 0) {
        out += " movetime " + std::to_string(request.moveTimeMs);
    }
    return out;
}

} // namespace

SearchResult UciEngine::search(const SearchRequest& request) {
    SearchResult result;
    if (!running()) {
        result.status = SearchStatus::Crashed;
        result.error = m_name + ": not running";
        return result;
    }
    const auto start = Clock::now();
    if (!m_process.writeLine(searchCommands(request))) {
        terminate();
        result.error = m_name + ": cannot write to the engine";
        return result;
    }
    readAnswer(request, start, result, true);
    return result;
}

std::vector<SearchResult> UciEngine::searchInOrder(const std::vector<SearchRequest>& requests) {
    std::vector<SearchResult> results;
    if (requests.empty()) return results;
    if (!running()) {
        results.emplace_back().error = m_name + ": not running";
        return results;
    }
    // One write for the batch: the engine finds each next search waiting in its input.
    std::string commands;
    for (const SearchRequest& request : requests) commands += searchCommands(request) + "\n";
    commands.pop_back();
    if (!m_process.writeLine(commands)) {
        terminate();
        results.emplace_back().error = m_name + ": cannot write to the engine";
        return results;
    }
    // Each answer's deadline counts from the previous answer: the engine starts a search when
    // the one before it ends.
    auto start = Clock::now();
    for (const SearchRequest& request : requests) {
        SearchResult& result = results.emplace_back();
        readAnswer(request, start, result, false);
        if (result.status != SearchStatus::Ok) {
            // Answers to the searches still queued would be read as the next batch's.
            if (result.status == SearchStatus::Timeout) terminate();
            break;
        }
        start = Clock::now();
    }
    return results;
}

void UciEngine::readAnswer(const SearchRequest& request, Clock::time_point start,
                           SearchResult& result, bool stopOnTimeout) {
    const auto deadline = start + request.deadline;
    std::string line;
    while (true) {
        const ReadStatus status = m_process.readLineUntil(line, deadline);
        result.elapsed = std::chrono::duration_cast<milliseconds>(Clock::now() - start);
        if (status == ReadStatus::Closed) {
            terminate();
            result.status = SearchStatus::Crashed;
            result.error = m_name + ": exited during the search";
            return;
        }
        if (status == ReadStatus::Timeout) {
            result.status = SearchStatus::Timeout;
            result.error =
                m_name + ": no bestmove within " + std::to_string(request.deadline.count()) + " ms";
            // Ask for the move anyway so a merely slow engine stays usable for the next game;
            // one that does not answer even then is killed and restarted.
            if (stopOnTimeout) {
                m_process.writeLine("stop");
                if (!waitFor("bestmove", m_timeouts.stop)) terminate();
            }
            return;
        }
        if (startsWithWord(line, "info")) {
            parseInfoLine(line, result);
        } else if (startsWithWord(line, "bestmove")) {
            std::istringstream in(line);
            std::string word;
            in >> word >> result.bestMove;
            result.status = SearchStatus::Ok;
            return;
        }
    }
}

} // namespace axon::match

// SPDX-License-Identifier: GPL-3.0-or-later
// The in-process teacher: a search on the calling thread, its last reported score and best move
// taken as a UCI teacher's answer would be (match::parseInfoLine's rules).
#include "data/in_process_teacher.h"

#include <chrono>

#include "search/score.h"

namespace axon::data {

InProcessTeacher::InProcessTeacher(std::vector<std::pair<std::string, std::string>> options)
    : m_options(std::move(options)) {}

bool InProcessTeacher::ensureStarted() {
    if (m_engine) return true;
    auto engine = std::make_unique<engine::Engine>();
    for (const auto& [option, value] : m_options) {
        if (auto problem = engine->options().set(option, value)) {
            m_error = "option " + option + ": " + *problem;
            return false;
        }
    }
    m_engine = std::move(engine);
    return true;
}

bool InProcessTeacher::newGame() {
    if (!ensureStarted()) return false;
    m_engine->newGame();
    return true;
}

match::SearchResult InProcessTeacher::search(const match::SearchRequest& request) {
    match::SearchResult result;
    if (!ensureStarted()) {
        result.error = m_error;
        return result;
    }
    if (request.useClock) {
        result.error = "the in-process teacher searches by nodes, depth or move time";
        return result;
    }
    if (auto problem = m_engine->setPosition(request.startFen, request.moves)) {
        result.error = *problem;
        return result;
    }
    search::SearchLimits limits;
    limits.nodes = std::uint64_t(request.nodes);
    limits.depth = request.depth;
    limits.moveTimeMs = request.moveTimeMs;
    engine::Engine::Callbacks callbacks;
    callbacks.hashfull = false; // not reported: no table sampling
    callbacks.onInfo = [&](const search::SearchInfo& info) {
        // As a UCI teacher's last info line: bounds kept, tablebase scores as their display
        // centipawns (uci::Session's formatScore).
        result.depth = info.depth;
        if (search::isMateScore(info.score)) {
            result.scoreMate = search::mateDistance(info.score);
            result.scoreCp.reset();
        } else {
            result.scoreCp =
                search::isTbScore(info.score) ? search::tbDisplayScore(info.score) : info.score;
            result.scoreMate.reset();
        }
    };
    chess::Move best;
    callbacks.onBestMove = [&](chess::Move move, chess::Move) { best = move; };
    const auto start = std::chrono::steady_clock::now();
    m_engine->search(limits, std::move(callbacks));
    result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    result.bestMove = m_engine->moveToString(best);
    result.status = match::SearchStatus::Ok;
    return result;
}

void InProcessTeacher::terminate() { m_engine.reset(); }

match::EngineFactory
inProcessTeacherFactory(std::vector<std::pair<std::string, std::string>> options) {
    return [options = std::move(options)]() -> std::unique_ptr<match::Engine> {
        return std::make_unique<InProcessTeacher>(options);
    };
}

} // namespace axon::data

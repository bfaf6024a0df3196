// SPDX-License-Identifier: GPL-3.0-or-later
// Engine facade: option declarations and the glue between positions, limits and the searcher.
#include "engine/engine.h"

#include <algorithm>
#include <chrono>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci_move.h"
#include "engine/eval_file.h"
#include "eval/evaluate.h"
#include "search/params.h"
#include "util/prng.h"

namespace axon::engine {

using namespace chess;

Engine::Engine(EngineLimits limits) : m_position(startPosition()) {
    m_options.addSpin("Hash", 16, 1, limits.maxHashMb,
                      [this](long long mb) { m_searcher.setHash(std::size_t(mb)); });
    m_options.addSpin("Threads", 1, 1, limits.maxThreads,
                      [this](long long n) { m_searcher.setThreads(int(n)); });
    m_options.addSpin("MultiPV", 1, 1, SearchSettings::kMaxMultiPv,
                      [this](long long n) { m_multiPv = int(n); });
    // The GUI decides when to ponder; the option only tells it that we can.
    m_options.addCheck("Ponder", false, [](bool) {});
    m_options.addSpin("Move Overhead", 10, 0, 5000,
                      [this](long long ms) { m_moveOverheadMs = int(ms); });
    // Periodic `info depth .. nodes .. nps .. currmove ..` lines between completed iterations,
    // for front ends that show a long analysis live; 0 (the default) keeps UCI output standard.
    m_options.addSpin("Progress Interval", 0, 0, 60000,
                      [this](long long ms) { m_progressIntervalMs = int(ms); });
    m_options.addButton("Clear Hash", [this] { m_searcher.clear(); });
    m_options.addCheck("UCI_Chess960", false, [this](bool v) { m_chess960 = v; });
    // Strength limiting (search/skill.h): UCI_LimitStrength with UCI_Elo takes precedence over
    // Skill Level, whose 20 is full strength.
    m_options.addCheck("UCI_LimitStrength", false, [this](bool v) { m_limitStrength = v; });
    m_options.addSpin("UCI_Elo", kDefaultElo, search::kSkillMinElo, search::kSkillMaxElo,
                      [this](long long elo) { m_elo = int(elo); });
    m_options.addSpin("Skill Level", search::kSkillMaxLevel, 0, search::kSkillMaxLevel,
                      [this](long long level) { m_skillLevel = int(level); });
    // 0 draws a seed from the clock (a human sees different games each session); any other
    // value makes strength-limited play reproducible.
    // Setting it also restarts the game count the seed is mixed with, so setting the same seed
    // again before a game replays that game's choices.
    m_options.addSpin("Skill Seed", 0, 0, 2147483647, [this](long long seed) {
        m_gameNumber = 0;
        m_skillSeed =
            seed ? std::uint64_t(seed)
                 : std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    });
    m_options.set("Skill Seed", "0");
    m_options.addCheck("UCI_ShowWDL", false, [this](bool v) { m_showWdl = v; });
    // A network file, "<embedded>" (the built-in network) or "<pst>" (the hand-written
    // evaluation). A file that fails to load leaves the current evaluation in place.
    m_evalSource = eval::EvalSource{embeddedNetwork(), {}};
    m_options.addString("EvalFile", kEmbeddedEvalName,
                        [this](const std::string& value) -> std::optional<std::string> {
                            auto source = loadEvalSource(value);
                            if (!source) return source.error();
                            m_evalSource = std::move(*source);
                            return std::nullopt;
                        });
    // Syzygy tablebases, with Stockfish's names and meanings (docs/tablebases.md): directories
    // separated by ':' (';' on Windows); a directory that does not exist refuses the option and
    // keeps the tables loaded before.
    m_tablebases = *tablebase::Tablebases::open("");
    m_options.addString("SyzygyPath", "<empty>",
                        [this](const std::string& value) -> std::optional<std::string> {
                            auto tables = tablebase::Tablebases::open(value);
                            if (!tables) return tables.error();
                            m_tablebases = std::move(*tables);
                            return std::nullopt;
                        });
    m_options.addSpin("SyzygyProbeDepth", 1, 1, 100,
                      [this](long long d) { m_tbSettings.probeDepth = int(d); });
    m_options.addCheck("Syzygy50MoveRule", true, [this](bool v) { m_tbSettings.useRule50 = v; });
    m_options.addSpin("SyzygyProbeLimit", 7, 0, 7,
                      [this](long long n) { m_tbSettings.probeLimit = int(n); });
    // Only a tune build has these (search/params.h): SPSA sets them through the match runner.
    for (const search::params::Tunable& t : search::params::tunables())
        m_options.addSpin(std::string("Tune_") + t.name, t.defaultValue, t.min, t.max,
                          [value = t.value](long long v) { *value = int(v); });
}

Engine::~Engine() {
    m_searcher.stop();
    m_searcher.wait();
}

std::optional<std::string> Engine::setPosition(const std::string& fen,
                                               const std::vector<std::string>& moves) {
    auto parsed = parseFen(fen.empty() ? Position::kStartFen : fen);
    if (!parsed) return parsed.error();
    Position pos = std::move(*parsed);
    for (const std::string& text : moves) {
        auto move = parseUciMove(pos, text);
        if (!move) return move.error();
        pos.makeMove(*move);
    }
    m_position = std::move(pos);
    return std::nullopt;
}

std::optional<std::string> checkSearchSettings(const SearchSettings& settings) {
    auto range = [](const char* name, const std::optional<int>& value, int min,
                    int max) -> std::optional<std::string> {
        if (!value || (*value >= min && *value <= max)) return std::nullopt;
        return std::string(name) + " must be from " + std::to_string(min) + " to " +
               std::to_string(max) + ", not " + std::to_string(*value);
    };
    if (auto error = range("multipv", settings.multiPv, 1, SearchSettings::kMaxMultiPv))
        return error;
    if (auto error = range("elo", settings.elo, search::kSkillMinElo, search::kSkillMaxElo))
        return error;
    return range("skill", settings.skillLevel, 0, search::kSkillMaxLevel);
}

void Engine::go(const search::SearchLimits& limits, Callbacks callbacks,
                const SearchSettings& settings) {
    m_searcher.start(makeRequest(limits, std::move(callbacks), settings));
}

void Engine::search(const search::SearchLimits& limits, Callbacks callbacks,
                    const SearchSettings& settings) {
    m_searcher.run(makeRequest(limits, std::move(callbacks), settings));
}

search::Searcher::Request Engine::makeRequest(const search::SearchLimits& limits,
                                              Callbacks callbacks, const SearchSettings& settings) {
    search::Searcher::Request request;
    request.position = m_position;
    request.limits = limits;
    request.multiPv = settings.multiPv.value_or(m_multiPv);
    request.moveOverheadMs = m_moveOverheadMs;
    request.skill = skill(settings);
    request.evalSource = m_evalSource;
    if (!m_tablebases->empty() && m_tbSettings.probeLimit > 0) request.tablebases = m_tablebases;
    request.tbSettings = m_tbSettings;
    // One seed per search from the option, the game number and the position: the same game
    // replayed with the same Skill Seed repeats its moves.
    util::Prng mix(m_skillSeed ^ (m_gameNumber * 0x9E3779B97F4A7C15ULL) ^ m_position.key());
    request.skill.seed = mix.next();
    request.callbacks.onInfo = std::move(callbacks.onInfo);
    request.callbacks.onCurrMove = std::move(callbacks.onCurrMove);
    request.callbacks.hashfull = callbacks.hashfull;
    if (callbacks.onProgress && m_progressIntervalMs > 0) {
        request.callbacks.onProgress = std::move(callbacks.onProgress);
        request.callbacks.progressIntervalMs = m_progressIntervalMs;
    }
    request.onDone = [cb = std::move(callbacks.onBestMove)](const search::SearchResult& r) {
        if (cb) cb(r.bestMove, r.ponderMove);
    };
    return request;
}

void Engine::stop() { m_searcher.stop(); }
void Engine::ponderhit() { m_searcher.ponderhit(); }
void Engine::wait() { m_searcher.wait(); }
void Engine::newGame() {
    m_searcher.clear();
    ++m_gameNumber;
}

search::SkillSettings Engine::skill(const SearchSettings& settings) const {
    if (settings.elo) return search::skillForElo(*settings.elo);
    if (settings.skillLevel) return search::skillForLevel(*settings.skillLevel);
    if (m_limitStrength) return search::skillForElo(m_elo);
    return search::skillForLevel(m_skillLevel);
}

std::string Engine::tablebaseSummary() const {
    const auto& tb = *m_tablebases;
    if (tb.empty()) return "No tablebases found";
    return "Found " + std::to_string(tb.wdlCount()) + " tablebases (" +
           std::to_string(tb.wdlCount()) + " WDL, " + std::to_string(tb.dtzCount()) +
           " DTZ, up to " + std::to_string(tb.maxPieces()) + " pieces)";
}

std::vector<std::string> Engine::takeTablebaseErrors() const { return m_tablebases->takeErrors(); }

void Engine::setTablebases(std::shared_ptr<const tablebase::Tablebases> tables) {
    m_searcher.wait();
    if (tables) m_tablebases = std::move(tables);
}

TablebaseReport Engine::tablebaseReport(const Position& position) const {
    TablebaseReport report;
    Position pos = position;
    const MoveList legal(pos);
    const auto wdl = m_tablebases->probeWdl(pos);
    const auto dtz = m_tablebases->probeDtz(pos);
    if (!wdl || !dtz) return report;
    std::vector<Move> moves(legal.begin(), legal.end());
    std::optional<tablebase::RootRanking> ranking;
    if (!moves.empty()) {
        ranking = m_tablebases->rankRootMoves(pos, moves, m_tbSettings.useRule50);
        if (!ranking) return report;
    }
    report.inTables = true;
    report.wdl = *wdl;
    report.dtz = *dtz;
    if (ranking) {
        std::vector<tablebase::RankedMove> ranked = ranking->moves;
        // Best rank first; among equals the quickest win and the longest defence (lowest DTZ).
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
            return a.rank != b.rank ? a.rank > b.rank : a.dtz < b.dtz;
        });
        for (const auto& m : ranked) report.moves.push_back({m.move, m.wdl, m.dtz});
    }
    return report;
}

std::string Engine::evalBreakdown() const {
    std::string out = "evaluation: " + describeEvalSource(m_evalSource) + "\n";
    if (m_evalSource.network || m_evalSource.floatModel)
        out += "network (side to move) " +
               std::to_string(eval::evaluateOnce(m_evalSource, m_position)) + " cp\n\n" +
               "hand-written terms, for comparison:\n";
    return out + eval::explain(m_position);
}

PieceContributions Engine::pieceContributions(const Position& pos) const {
    return eval::pieceContributions(m_evalSource, pos);
}

std::string Engine::moveToString(Move m) const { return toUci(m, m_chess960); }

} // namespace axon::engine

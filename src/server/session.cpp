// SPDX-License-Identifier: GPL-3.0-or-later
// A web client's engine session: requests applied to its game and engine, searches started
// through the shared slots, their info lines throttled, their best move played on request.
#include "server/session.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <new>

#include "chess/fen.h"
#include "chess/movegen.h"

namespace axon::server {

using namespace chess;

namespace {

const char* optionTypeName(engine::Options::Type type) {
    switch (type) {
    case engine::Options::Type::Check: return "check";
    case engine::Options::Type::Spin: return "spin";
    case engine::Options::Type::Button: return "button";
    case engine::Options::Type::String: return "string";
    }
    return "string";
}

const char* gameOverReason(GameStatus status) {
    switch (status) {
    case GameStatus::Checkmate: return "checkmate";
    case GameStatus::Stalemate: return "stalemate";
    case GameStatus::FiftyMoveRule: return "fifty-move rule";
    case GameStatus::ThreefoldRepetition: return "repetition";
    case GameStatus::InsufficientMaterial: return "insufficient material";
    case GameStatus::Ongoing: break;
    }
    return "ongoing";
}

// The options a client may set. Anything that names a file (EvalFile) or outlives the session
// stays off the network, and per-search settings (MultiPV, strength, Chess960) travel with
// `go` and the game instead: an allow-list, so an option added later is not offered by default.
constexpr std::array<std::string_view, 5> kNetworkOptions = {"Hash", "Threads", "Clear Hash",
                                                             "Move Overhead", "Skill Seed"};

bool offeredOverNetwork(std::string_view name) {
    return std::find(kNetworkOptions.begin(), kNetworkOptions.end(), name) != kNetworkOptions.end();
}

std::string offeredOptionList() {
    std::string out;
    for (const std::string_view name : kNetworkOptions) {
        if (!out.empty()) out += ", ";
        out += name;
    }
    return out;
}

} // namespace

std::int64_t Session::nowMs() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

Session::Session(std::uint64_t id, SessionConfig config, SearchSlots& slots, HashBudget& hashBudget,
                 Send send)
    : m_id(id), m_config(config), m_slots(slots), m_hashBudget(hashBudget), m_send(std::move(send)),
      m_lastActivityMs(nowMs()), m_throttle(config.infoIntervalMs) {
    m_engine.options().set("Hash", std::to_string(m_config.hashMb));
    m_engine.options().set("Threads", std::to_string(m_config.threads));
    // Not offered to clients: the server decides how often progress goes out.
    m_engine.options().set("Progress Interval", std::to_string(m_config.progressIntervalMs));
    m_engine.setTablebases(m_config.tablebases);
}

Session::~Session() {
    close();
    m_hashBudget.giveBack(m_extraHashMb);
}

void Session::greet() {
    Json options = Json::array();
    std::string state;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& o : m_engine.options().all()) {
            if (!offeredOverNetwork(o.name)) continue;
            Json entry = {{"name", o.name},
                          {"type", optionTypeName(o.type)},
                          {"default", o.defaultValue},
                          {"value", o.value}};
            if (o.type == engine::Options::Type::Spin) {
                entry["min"] = o.min;
                entry["max"] = o.name == "Hash"      ? m_config.maxHashMb
                               : o.name == "Threads" ? m_config.maxThreads
                                                     : o.max;
            }
            options.push_back(std::move(entry));
        }
        state = formatState(nullptr, m_game, false);
    }
    const Json hello = {{"type", "hello"},
                        {"engine", "Axon"},
                        {"protocol", 1},
                        {"maxThinkMs", m_config.maxThinkMs},
                        {"analysisUnlimited", m_config.uncappedAnalysis},
                        {"maxMessageBytes", m_config.maxMessageBytes},
                        {"idleTimeoutMs", m_config.idleTimeoutMs},
                        {"options", std::move(options)}};
    m_send(hello.dump());
    m_send(state);
}

void Session::reply(const Json&, const std::string& text) { m_send(text); }

void Session::handleMessage(std::string_view text) {
    {
        std::lock_guard lock(m_mutex);
        if (m_closed) return;
        m_lastActivityMs = nowMs();
    }
    if (text.size() > m_config.maxMessageBytes)
        return m_send(formatError(nullptr, "message too large: " + std::to_string(text.size()) +
                                               " bytes (at most " +
                                               std::to_string(m_config.maxMessageBytes) + ")"));
    ParsedMessage parsed = parseClientMessage(text);
    if (!parsed.request) return m_send(formatError(parsed.id, parsed.error));
    std::visit([&](const auto& request) { handle(parsed.id, request); }, *parsed.request);
}

std::optional<std::string> Session::busy() const {
    if (m_search == SearchState::Idle) return std::nullopt;
    return std::string("the engine is searching: send stop first");
}

void Session::handle(const Json& id, const NewGameRequest& r) {
    std::string out;
    {
        std::lock_guard lock(m_mutex);
        if (auto error = busy()) {
            out = formatError(id, "newGame: " + *error);
        } else if (auto game = Game::fromFen(r.fen, r.chess960); !game) {
            out = formatError(id, "newGame: " + game.error());
        } else {
            m_game = std::move(*game);
            m_engine.newGame();
            out = formatState(id, m_game, false);
        }
    }
    reply(id, out);
}

void Session::handle(const Json& id, const PositionRequest& r) {
    std::string out;
    {
        std::lock_guard lock(m_mutex);
        auto game = r.pgn ? Game::fromPgn(*r.pgn) : Game::fromFen(r.fen, r.chess960);
        if (auto error = busy()) {
            out = formatError(id, "position: " + *error);
        } else if (!game) {
            out = formatError(id, "position: " + game.error());
        } else {
            std::optional<std::string> moveError;
            for (const std::string& move : r.moves) {
                if ((moveError = game->play(move))) break; // the message names the move
            }
            if (moveError) {
                out = formatError(id, "position: " + *moveError + " (position unchanged)");
            } else {
                m_game = std::move(*game);
                out = formatState(id, m_game, false);
            }
        }
    }
    reply(id, out);
}

void Session::handle(const Json& id, const MoveRequest& r) {
    std::string out;
    {
        std::lock_guard lock(m_mutex);
        if (auto error = busy()) {
            out = formatError(id, "move: " + *error);
        } else if (m_game.status() != GameStatus::Ongoing) {
            out = formatError(id, std::string("move: the game is over (") +
                                      gameOverReason(m_game.status()) + ")");
        } else if (auto moveError = m_game.play(r.move)) {
            out = formatError(id, "move: " + *moveError);
        } else {
            out = formatState(id, m_game, false);
        }
    }
    reply(id, out);
}

void Session::handle(const Json& id, const UndoRequest& r) {
    std::string out;
    {
        std::lock_guard lock(m_mutex);
        if (auto error = busy())
            out = formatError(id, "undo: " + *error);
        else if (auto undoError = m_game.undo(r.plies))
            out = formatError(id, *undoError);
        else
            out = formatState(id, m_game, false);
    }
    reply(id, out);
}

void Session::handle(const Json& id, const GoRequest& r) {
    int threads = 1; // the search slots it takes: one per search thread
    {
        std::lock_guard lock(m_mutex);
        std::optional<std::string> error = busy();
        if (!error && m_game.status() != GameStatus::Ongoing)
            error = std::string("the game is over (") + gameOverReason(m_game.status()) + ")";
        if (error) return reply(id, formatError(id, "go: " + *error));
        // Strength and lines belong to this search only: a limit chosen for a game must not
        // weaken a later analysis, and no request rewrites the session's options.
        const engine::SearchSettings settings{r.multipv, r.elo, r.skill};
        if (auto settingsError = engine::checkSearchSettings(settings))
            return reply(id, formatError(id, "go: " + *settingsError));
        m_searchSettings = settings;
        m_search = SearchState::Queued;
        m_searchId = id;
        m_searchLimits = clampGo(r, m_config.maxThinkMs, m_config.uncappedAnalysis);
        m_searchThreads = threads = threadsLocked();
        m_searchPlays = r.play;
        m_cancelQueued = false;
    }
    int position = 0;
    std::weak_ptr<Session> weak = weak_from_this();
    const auto outcome = m_slots.acquire(
        m_id, threads,
        [weak] {
            auto self = weak.lock();
            return self && self->startQueued();
        },
        position);
    std::string out;
    bool giveBack = false;
    bool started = false;
    {
        std::lock_guard lock(m_mutex);
        switch (outcome) {
        case SearchSlots::Outcome::Started:
            started = !m_closed && startSearchLocked(out);
            if (!started) {
                m_search = SearchState::Idle;
                giveBack = true;
            }
            break;
        case SearchSlots::Outcome::Queued: out = formatQueued(id, position); break;
        case SearchSlots::Outcome::Refused:
            m_search = SearchState::Idle;
            out = formatError(id, "go: the server is busy (every search slot taken and the queue "
                                  "full): try again later");
            break;
        }
    }
    if (giveBack) m_slots.release(threads);
    if (started)
        announceSearch(out);
    else if (!out.empty())
        reply(id, out);
}

bool Session::startSearchLocked(std::string& out) {
    if (auto error = m_engine.setPosition(m_game.startFen(), m_game.uciMoves())) {
        out = formatError(m_searchId, "go: " + *error);
        return false;
    }
    m_searchRoot = m_game.position();
    m_throttle = InfoThrottle(m_config.infoIntervalMs);
    m_search = SearchState::Running;
    m_searchStartMs = nowMs();
    m_deadlineMs = m_searchLimits.maxTimeMs > 0 ? m_searchStartMs + m_searchLimits.maxTimeMs : 0;
    m_stopSent = false;
    m_yielded = false;
    m_announced = false;
    engine::Engine::Callbacks callbacks;
    // The session outlives its searches: close() waits for the search before it returns.
    callbacks.onInfo = [this](const search::SearchInfo& info) { onInfo(info); };
    callbacks.onBestMove = [this](Move best, Move ponder) { onBestMove(best, ponder); };
    callbacks.onProgress = [this](const search::SearchProgress& p) { onProgress(p); };
    m_engine.go(m_searchLimits.limits, std::move(callbacks), m_searchSettings);
    out = formatSearching(m_searchId, m_searchLimits);
    return true;
}

bool Session::startQueued() {
    std::string out;
    bool started = false;
    {
        std::lock_guard lock(m_mutex);
        if (m_closed || m_search != SearchState::Queued) return false;
        if (m_cancelQueued) {
            m_search = SearchState::Idle;
            out = formatBestMove(m_searchId, Move::none(), Move::none(), m_game.position(),
                                 m_game.chess960(), false);
        } else {
            started = startSearchLocked(out);
            if (!started) m_search = SearchState::Idle;
        }
    }
    if (started)
        announceSearch(out);
    else
        m_send(out);
    return started;
}

void Session::announceSearch(const std::string& searching) {
    m_send(searching);
    // Until the held output is gone the search keeps holding what it reports, so nothing it
    // sends itself overtakes what is sent here.
    for (;;) {
        std::vector<std::string> held;
        {
            std::lock_guard lock(m_mutex);
            if (m_held.empty() || m_closed) {
                m_held.clear();
                m_announced = true;
                return;
            }
            held.swap(m_held);
        }
        for (const std::string& text : held) m_send(text);
    }
}

void Session::handle(const Json& id, const StopRequest&) {
    std::string out;
    {
        std::lock_guard lock(m_mutex);
        if (m_search == SearchState::Running) {
            // The best move follows from the search thread (and is played if asked).
            m_engine.stop();
            m_stopSent = true;
        } else if (m_search == SearchState::Queued) {
            if (m_slots.cancel(m_id)) {
                m_search = SearchState::Idle;
                out = formatBestMove(m_searchId, Move::none(), Move::none(), m_game.position(),
                                     m_game.chess960(), false);
            } else {
                m_cancelQueued = true; // the dispatcher is starting it: startQueued drops it
            }
        }
    }
    (void)id;
    if (!out.empty()) m_send(out);
}

void Session::handle(const Json& id, const SetOptionRequest& r) {
    std::string out;
    {
        std::lock_guard lock(m_mutex);
        const engine::Options::Option* option = m_engine.options().find(r.name);
        auto budget = [&](const char* name, int max) -> std::optional<std::string> {
            if (!option || option->name != name) return std::nullopt;
            try {
                if (std::stoll(r.value) > max)
                    return std::string(name) + " is at most " + std::to_string(max) +
                           " on this server";
            } catch (const std::exception&) {
                // Not a number: the registry reports it.
            }
            return std::nullopt;
        };
        std::optional<std::string> error;
        if (!option || !offeredOverNetwork(option->name))
            error = "'" + r.name.substr(0, 64) + "' is not an option this server offers (" +
                    offeredOptionList() + ")";
        if (!error) error = busy();
        if (!error) error = budget("Hash", m_config.maxHashMb);
        if (!error) error = budget("Threads", m_config.maxThreads);
        if (!error)
            error = option->name == "Hash" ? setHashLocked(r.value)
                                           : m_engine.options().set(r.name, r.value);
        if (error) {
            out = formatError(id, "setOption: " + *error);
        } else {
            option = m_engine.options().find(r.name);
            Json j = {{"type", "option"}, {"name", option->name}, {"value", option->value}};
            if (!id.is_null()) j["id"] = id;
            out = j.dump();
        }
    }
    reply(id, out);
}

std::optional<std::string> Session::setHashLocked(const std::string& value) {
    long long mb = 0;
    try {
        mb = std::stoll(value);
    } catch (const std::exception&) {
        return m_engine.options().set("Hash", value); // the registry words the error
    }
    // Only what exceeds the session's default is paid for from the shared budget.
    const std::int64_t extra = std::max<std::int64_t>(0, mb - m_config.hashMb);
    const std::int64_t more = extra - m_extraHashMb;
    if (more > 0 && !m_hashBudget.take(more))
        return "Hash " + std::to_string(mb) + " MiB does not fit in the server's hash budget (" +
               std::to_string(m_config.hashMb + m_extraHashMb + m_hashBudget.leftMb()) +
               " MiB at most for this session now; --total-hash)";
    std::optional<std::string> error;
    try {
        error = m_engine.options().set("Hash", value);
    } catch (const std::bad_alloc&) {
        // The table allocates the new one before it frees the old: the old one is kept.
        error = "not enough memory for a " + std::to_string(mb) + " MiB hash table";
    }
    if (error) {
        if (more > 0) m_hashBudget.giveBack(more);
        return error;
    }
    if (more < 0) m_hashBudget.giveBack(-more);
    m_extraHashMb = extra;
    return std::nullopt;
}

int Session::threadsLocked() const {
    const engine::Options::Option* option = m_engine.options().find("Threads");
    try {
        return option ? std::max(1, std::stoi(option->value)) : 1;
    } catch (const std::exception&) {
        return 1;
    }
}

void Session::handle(const Json& id, const StateRequest&) {
    std::string out;
    {
        std::lock_guard lock(m_mutex);
        out = formatState(id, m_game, m_search != SearchState::Idle);
    }
    reply(id, out);
}

void Session::handle(const Json& id, const EvalPiecesRequest& r) {
    // Reads the evaluation only: answered while a search runs too, and changes nothing.
    std::string out;
    {
        std::lock_guard lock(m_mutex);
        if (!r.fen) {
            out = formatPieces(id, m_game.fen(), m_engine.pieceContributions(m_game.position()));
        } else if (auto pos = parseFen(*r.fen); !pos) {
            out = formatError(id, "evalPieces: bad FEN: " + pos.error());
        } else {
            out = formatPieces(id, toFen(*pos), m_engine.pieceContributions(*pos));
        }
    }
    reply(id, out);
}

void Session::handle(const Json& id, const TablebaseRequest& r) {
    // Reads the tables only: answered while a search runs too, and changes nothing.
    std::string out;
    {
        std::lock_guard lock(m_mutex);
        const bool available = m_config.tablebases && !m_config.tablebases->empty();
        if (!r.fen) {
            out = formatTablebase(id, m_game.position(),
                                  m_engine.tablebaseReport(m_game.position()), available);
        } else if (auto pos = parseFen(*r.fen); !pos) {
            out = formatError(id, "tablebase: bad FEN: " + pos.error());
        } else {
            out = formatTablebase(id, *pos, m_engine.tablebaseReport(*pos), available);
        }
    }
    reply(id, out);
}

void Session::onInfo(const search::SearchInfo& info) {
    std::vector<std::string> out;
    {
        std::lock_guard lock(m_mutex);
        if (m_closed) return;
        for (const auto& line : m_throttle.offer(info, nowMs()))
            out.push_back(formatInfo(m_searchId, line, m_searchRoot, m_game.chess960()));
        if (!m_announced) {
            m_held.insert(m_held.end(), out.begin(), out.end());
            return;
        }
    }
    for (const std::string& text : out) m_send(text);
}

void Session::onProgress(const search::SearchProgress& progress) {
    std::vector<std::string> out;
    {
        std::lock_guard lock(m_mutex);
        // Before its `searching` message a search's progress is dropped, not held: the next
        // report follows within an interval.
        if (m_closed || !m_announced) return;
        // The info lines the throttle held (the last lines of a completed depth) go first: the
        // next line may be a whole iteration away.
        for (const auto& line : m_throttle.due(nowMs()))
            out.push_back(formatInfo(m_searchId, line, m_searchRoot, m_game.chess960()));
        out.push_back(formatProgress(m_searchId, progress, m_searchRoot, m_game.chess960()));
    }
    for (const std::string& text : out) m_send(text);
}

void Session::onBestMove(Move best, Move ponder) {
    std::vector<std::string> out;
    int threads = 1;
    {
        std::lock_guard lock(m_mutex);
        threads = m_searchThreads;
        m_search = SearchState::Idle;
        m_lastActivityMs = nowMs();
        if (!m_closed) {
            for (const auto& line : m_throttle.flush())
                out.push_back(formatInfo(m_searchId, line, m_searchRoot, m_game.chess960()));
            // The game cannot have changed during the search (moves are refused meanwhile),
            // but the check costs nothing and keeps an illegal move off the board.
            const bool play = m_searchPlays && best &&
                              m_game.position().key() == m_searchRoot.key() &&
                              MoveList(m_game.position()).contains(best);
            if (play) m_game.playLegal(best);
            out.push_back(formatBestMove(m_searchId, best, ponder, m_searchRoot, m_game.chess960(),
                                         play, m_yielded));
            if (play) out.push_back(formatState(m_searchId, m_game, false));
            if (!m_announced) {
                m_held.insert(m_held.end(), out.begin(), out.end());
                out.clear();
            }
        }
    }
    m_slots.release(threads);
    for (const std::string& text : out) m_send(text);
}

bool Session::tick(std::int64_t now) {
    std::lock_guard lock(m_mutex);
    if (m_closed) return false;
    if (m_search == SearchState::Running && !m_stopSent) {
        // An uncapped analysis has no deadline, but once it has had the time any search gets
        // it gives its threads to a search waiting for them (another tab, another client).
        const bool yield = m_deadlineMs == 0 && now - m_searchStartMs >= m_config.maxThinkMs &&
                           m_slots.queued() > 0;
        if ((m_deadlineMs > 0 && now >= m_deadlineMs) || yield) {
            m_engine.stop();
            m_stopSent = true;
            m_yielded = yield;
        }
    }
    return m_search == SearchState::Idle && now - m_lastActivityMs > m_config.idleTimeoutMs;
}

void Session::close() {
    bool wasQueued = false;
    {
        std::lock_guard lock(m_mutex);
        if (m_closed) return;
        m_closed = true;
        wasQueued = m_search == SearchState::Queued;
    }
    // A queued search not yet handed a slot is dropped; one being handed it sees m_closed.
    if (wasQueued && m_slots.cancel(m_id)) {
        std::lock_guard lock(m_mutex);
        m_search = SearchState::Idle;
    }
    // Without the lock: the search thread takes it to report its best move (then ignored).
    m_engine.stop();
    m_engine.wait();
}

} // namespace axon::server

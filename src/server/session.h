// SPDX-License-Identifier: GPL-3.0-or-later
// One WebSocket connection's engine session: its own engine (hash, threads; the few options a
// client may set are an allow-list), its game, and at most one search at a time, started through
// the server's search slots and bounded by the server's think-time cap. Messages arrive on the
// connection's thread, engine callbacks on the search thread, housekeeping ticks on the server's
// reaper thread: the state is guarded by one mutex, and nothing is sent while holding it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"
#include "server/game.h"
#include "server/hash_budget.h"
#include "server/info_throttle.h"
#include "server/protocol.h"
#include "server/search_slots.h"

namespace axon::server {

struct SessionConfig {
    int threads = 1;                 // search threads of a new session
    int hashMb = 16;                 // hash table of a new session
    int maxThreads = 1;              // the most setOption Threads may ask (at least threads)
    int maxHashMb = 16;              // the most setOption Hash may ask (at least hashMb)
    std::int64_t maxThinkMs = 10000; // every search ends by then, but an uncapped analysis
    // An analysis (a go that does not play its move) runs until the client stops it: a local
    // client under --local-analysis unlimited. It still yields to a waiting search once it has
    // run maxThinkMs.
    bool uncappedAnalysis = false;
    std::int64_t idleTimeoutMs = 30 * 60 * 1000;
    std::int64_t infoIntervalMs = 50;      // info lines: at most ~20 per second
    std::int64_t progressIntervalMs = 200; // progress messages: about 5 per second
    std::size_t maxMessageBytes = 64 * 1024;
    // The server's Syzygy tables (axon serve --syzygy-path), shared by every session; a client
    // cannot name files (SyzygyPath is not offered over the network).
    std::shared_ptr<const tablebase::Tablebases> tablebases;
};

class Session : public std::enable_shared_from_this<Session> {
  public:
    // Sends one text message to the client; thread-safe, and a no-op once the connection is gone.
    using Send = std::function<void(const std::string&)>;

    // `hashBudget` pays for Hash beyond config.hashMb (server/hash_budget.h).
    Session(std::uint64_t id, SessionConfig config, SearchSlots& slots, HashBudget& hashBudget,
            Send send);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // The greeting: `hello` (server limits, engine options) and the initial `state`.
    void greet();
    // One complete client message (text frame payload).
    void handleMessage(std::string_view text);
    // The connection is gone (or the server stops): the search is stopped and waited for, a
    // queued one dropped. Idempotent; no message is sent afterwards.
    void close();
    // Housekeeping at `nowMs` (steady clock): stops a search past its time cap. Returns true
    // when the session has been idle (no message, no search) longer than the idle timeout.
    bool tick(std::int64_t nowMs);

    std::uint64_t id() const { return m_id; }
    static std::int64_t nowMs();

  private:
    enum class SearchState { Idle, Queued, Running };

    void reply(const Json& id, const std::string& text);
    void handle(const Json& id, const NewGameRequest& r);
    void handle(const Json& id, const PositionRequest& r);
    void handle(const Json& id, const MoveRequest& r);
    void handle(const Json& id, const UndoRequest& r);
    void handle(const Json& id, const GoRequest& r);
    void handle(const Json& id, const StopRequest& r);
    void handle(const Json& id, const SetOptionRequest& r);
    void handle(const Json& id, const StateRequest& r);
    void handle(const Json& id, const EvalPiecesRequest& r);
    void handle(const Json& id, const TablebaseRequest& r);
    // Refuses (with a reason) changes to the game or engine while a search is on.
    std::optional<std::string> busy() const;
    // Starts the prepared search; the caller holds the mutex and a search slot. Sets `out` to
    // the message to send: `searching`, or an error when it could not start (false: the
    // caller gives the slot back).
    bool startSearchLocked(std::string& out);
    bool startQueued();
    // Sends a started search's `searching` message, then what the search reported before it
    // went out: the search's thread may report before the thread that started it has answered.
    void announceSearch(const std::string& searching);
    void onInfo(const search::SearchInfo& info);
    void onProgress(const search::SearchProgress& progress);
    // setOption Hash: the new size within --max-hash and the server's hash budget.
    std::optional<std::string> setHashLocked(const std::string& value);
    int threadsLocked() const;
    void onBestMove(chess::Move best, chess::Move ponder);

    const std::uint64_t m_id;
    const SessionConfig m_config;
    SearchSlots& m_slots;
    HashBudget& m_hashBudget;
    const Send m_send;

    mutable std::mutex m_mutex;
    engine::Engine m_engine;
    Game m_game;
    bool m_closed = false;
    std::int64_t m_lastActivityMs;
    // The search asked for, queued or running.
    SearchState m_search = SearchState::Idle;
    Json m_searchId;
    ClampedLimits m_searchLimits;
    engine::SearchSettings m_searchSettings;
    bool m_searchPlays = false;
    bool m_cancelQueued = false;
    chess::Position m_searchRoot;
    std::int64_t m_deadlineMs = 0;
    bool m_stopSent = false;
    std::int64_t m_searchStartMs = 0;
    int m_searchThreads = 1;        // search slots the running or queued search holds or asks for
    bool m_yielded = false;         // stopped to let a waiting search run (uncapped analysis)
    std::int64_t m_extraHashMb = 0; // taken from the hash budget
    InfoThrottle m_throttle;
    // The running search's output, held until its `searching` message is out (announceSearch).
    bool m_announced = true;
    std::vector<std::string> m_held;
};

} // namespace axon::server

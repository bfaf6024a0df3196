// SPDX-License-Identifier: GPL-3.0-or-later
// `axon serve`: civetweb glue. Every request first passes the access policy (Host, and Origin
// for WebSocket handshakes: access_policy.h); then static files on every path, the WebSocket
// JSON API on /ws with one engine Session per connection, the session cap, message reassembly
// and size limit, and a reaper thread that enforces think-time caps and closes idle sessions.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "server/access_policy.h"
#include "server/hash_budget.h"
#include "server/search_slots.h"
#include "server/session.h"

struct mg_connection;
struct mg_context;

namespace axon::server {

// Whether a local client's analysis runs until it is stopped (--local-analysis).
enum class LocalAnalysis { Unlimited, Capped };

struct ServerConfig {
    std::string host = "127.0.0.1"; // IPv4 address to bind ("localhost" means 127.0.0.1)
    int port = 8080;                // 0: any free port (see Server::port())
    std::filesystem::path webRoot;  // empty: only the built-in page
    int maxSessions = 32;
    // Search threads at once over all sessions: a search takes its session's Threads; the others
    // queue. 0: the cores (at least session.threads).
    int totalThreads = 0;
    int maxQueued = 64; // searches waiting for threads; more are refused
    // The most one session may ask with setOption: 0 means totalThreads, and 1024 MiB (at
    // least session.hashMb).
    int maxThreads = 0;
    int maxHashMb = 0;
    // Hash over all sessions: 0 means maxSessions x session.hashMb + maxHashMb (every session at
    // its default, one at the most). It must hold maxSessions x session.hashMb.
    std::int64_t totalHashMb = 0;
    // A local client (loopback address, loopback Host, no or loopback Origin) analyses without
    // the think-time cap unless this says Capped; play and other clients are always capped.
    LocalAnalysis localAnalysis = LocalAnalysis::Unlimited;
    // --allow-host and --allow-origin: names and origins accepted beyond the server's own.
    std::vector<std::string> allowedHosts;
    std::vector<std::string> allowedOrigins;
    SessionConfig session;
    std::int64_t tickIntervalMs = 20; // how often think-time caps and idle sessions are checked
};

class Server {
  public:
    explicit Server(ServerConfig config);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Binds and starts serving; an error message when it cannot (port taken, bad host).
    std::optional<std::string> start();
    // Closes every session (their searches stopped) and the listening socket. Idempotent.
    void stop();

    int port() const { return m_port; }
    std::string url() const;
    // Sessions open and not being closed.
    int sessionCount() const;
    int totalThreads() const { return m_totalThreads; }
    // The session settings with every default resolved (maxThreads, maxHashMb).
    const SessionConfig& sessionConfig() const { return m_sessionConfig; }

  private:
    struct Connection;

    static int onBeginRequest(mg_connection* conn);
    static int onHttp(mg_connection* conn, void* self);
    static int onWsConnect(const mg_connection* conn, void* self);
    static void onWsReady(mg_connection* conn, void* self);
    static int onWsData(mg_connection* conn, int bits, char* data, std::size_t length, void* self);
    static void onWsClose(const mg_connection* conn, void* self);
    static void onConnectionClose(const mg_connection* conn);
    int handleData(Connection& c, int bits, const char* data, std::size_t length);
    void forget(const mg_connection* conn);
    void reaperLoop();

    ServerConfig m_config;
    SessionConfig m_sessionConfig;
    int m_totalThreads = 1;
    std::int64_t m_totalHashMb = 0;
    std::unique_ptr<SearchSlots> m_slots;
    std::unique_ptr<HashBudget> m_hashBudget;
    mg_context* m_context = nullptr;
    int m_port = 0;
    // Fixed before civetweb starts; the port is known only once it listens, hence the atomic.
    AccessPolicy m_policy;
    std::atomic<int> m_policyPort{0};

    mutable std::mutex m_mutex;
    std::map<std::uint64_t, std::shared_ptr<Connection>> m_connections;
    std::uint64_t m_nextId = 1;
    bool m_stopping = false;
    std::condition_variable m_reaperWake;
    std::thread m_reaper;
};

// Whether `host` (as --host takes it) keeps the server on this machine.
bool isLoopbackBind(const std::string& host);

// The `axon serve` command: starts the server, prints the URL (and a warning when it listens
// beyond loopback), serves until SIGINT or SIGTERM, then shuts down cleanly. Returns the
// process exit code.
int runServer(const ServerConfig& config);

} // namespace axon::server

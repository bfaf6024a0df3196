// SPDX-License-Identifier: GPL-3.0-or-later
// civetweb glue for `axon serve`: handlers, connection bookkeeping, the reaper, signals.
#include "server/server.h"

#include <civetweb.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <iostream>
#include <pthread.h>
#include <vector>

#include "server/http_response.h"
#include "server/static_files.h"

namespace axon::server {

namespace {

// Close frame status codes (RFC 6455, 7.4.1).
constexpr int kCloseNormal = 1000;
constexpr int kCloseGoingAway = 1001;
constexpr int kCloseTryAgainLater = 1013;

std::string closePayload(int code, const std::string& reason) {
    std::string payload;
    payload += char((code >> 8) & 0xFF);
    payload += char(code & 0xFF);
    payload += reason.substr(0, 120);
    return payload;
}

// Whether a handshake comes from this machine (isLocalClient over its peer and headers).
bool localClient(const mg_connection* conn) {
    const mg_request_info* info = mg_get_request_info(conn);
    if (!info) return false;
    const auto header = [&](const char* name) -> std::optional<std::string_view> {
        const char* value = mg_get_header(conn, name);
        if (!value) return std::nullopt;
        return std::string_view(value);
    };
    return isLocalClient(info->remote_addr, header("Host"), header("Origin"));
}

int log(const mg_connection*, const char* message) {
    std::cerr << "axon serve: " << message << std::endl;
    return 1;
}

} // namespace

struct Server::Connection {
    std::uint64_t id = 0;
    std::mutex writeMutex;
    mg_connection* conn = nullptr; // null once civetweb is done with it
    std::shared_ptr<Session> session;
    bool refused = false;             // over the session cap: told so, then closed
    bool local = false;               // a client on this machine (localClient)
    std::atomic<bool> closing{false}; // a close frame was sent: further frames end the connection
    // Reassembly of a fragmented text message (civetweb hands over frames one by one).
    std::string partial;
    bool discarding = false; // the message in progress is over the size limit
    bool binary = false;

    void send(const std::string& text) {
        std::lock_guard lock(writeMutex);
        if (conn) mg_websocket_write(conn, MG_WEBSOCKET_OPCODE_TEXT, text.data(), text.size());
    }
    void sendClose(int code, const std::string& reason) {
        closing = true;
        const std::string payload = closePayload(code, reason);
        std::lock_guard lock(writeMutex);
        if (conn)
            mg_websocket_write(conn, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, payload.data(),
                               payload.size());
    }
};

Server::Server(ServerConfig config) : m_config(std::move(config)) {
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    SessionConfig& s = m_sessionConfig = m_config.session;
    m_totalThreads = m_config.totalThreads > 0 ? m_config.totalThreads : std::max(cores, s.threads);
    s.maxThreads = m_config.maxThreads > 0 ? m_config.maxThreads : m_totalThreads;
    s.maxHashMb = m_config.maxHashMb > 0 ? m_config.maxHashMb : std::max(1024, s.hashMb);
    m_totalHashMb = m_config.totalHashMb > 0
                        ? m_config.totalHashMb
                        : std::int64_t(m_config.maxSessions) * s.hashMb + s.maxHashMb;
}

Server::~Server() { stop(); }

std::string Server::url() const {
    const std::string host = m_config.host == "0.0.0.0" ? "127.0.0.1" : m_config.host;
    return "http://" + host + ":" + std::to_string(m_port) + "/";
}

int Server::sessionCount() const {
    std::lock_guard lock(m_mutex);
    int count = 0;
    for (const auto& [id, c] : m_connections)
        if (c->session && !c->closing) ++count;
    return count;
}

std::optional<std::string> Server::start() {
    if (m_context) return "the server is already running";
    std::string host = m_config.host == "localhost" ? "127.0.0.1" : m_config.host;
    unsigned a, b, c, d;
    char tail = 0;
    if (std::sscanf(host.c_str(), "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) != 4 || a > 255 ||
        b > 255 || c > 255 || d > 255)
        return "--host must be an IPv4 address such as 127.0.0.1 (or localhost), not '" +
               m_config.host + "'";
    if (m_config.port < 0 || m_config.port > 65535) return "--port must be from 0 to 65535";
    const SessionConfig& s = m_sessionConfig;
    if (s.threads > s.maxThreads)
        return "--threads (" + std::to_string(s.threads) + ") is more than --max-threads (" +
               std::to_string(s.maxThreads) + ")";
    if (s.maxThreads > m_totalThreads)
        return "--max-threads (" + std::to_string(s.maxThreads) +
               ") is more than --total-threads (" + std::to_string(m_totalThreads) + ")";
    if (s.hashMb > s.maxHashMb)
        return "--hash (" + std::to_string(s.hashMb) + ") is more than --max-hash (" +
               std::to_string(s.maxHashMb) + ")";
    const std::int64_t guaranteed = std::int64_t(m_config.maxSessions) * s.hashMb;
    if (m_totalHashMb < guaranteed)
        return "--total-hash (" + std::to_string(m_totalHashMb) + " MiB) must hold every " +
               "session's --hash: --max-sessions x --hash = " + std::to_string(guaranteed) + " MiB";
    for (const std::string& name : m_config.allowedHosts)
        if (auto error = checkAllowedHost(name)) return error;
    for (const std::string& origin : m_config.allowedOrigins)
        if (auto error = checkAllowedOrigin(origin)) return error;
    m_policy = AccessPolicy{host, m_config.port, m_config.allowedHosts, m_config.allowedOrigins};
    m_policyPort = m_config.port;
    if (!(mg_check_feature(16) & 16))
        return "this civetweb library was built without WebSocket support";

    m_slots = std::make_unique<SearchSlots>(m_totalThreads, m_config.maxQueued);
    m_hashBudget = std::make_unique<HashBudget>(m_totalHashMb - guaranteed);
    const std::string ports = host + ":" + std::to_string(m_config.port);
    // Each WebSocket holds a civetweb worker thread for its lifetime: room for every session,
    // refused connections on their way out, and plain HTTP requests.
    const std::string threads = std::to_string(m_config.maxSessions + 16);
    const char* options[] = {"listening_ports", ports.c_str(), "num_threads", threads.c_str(),
                             "request_timeout_ms", "10000",
                             // A silent peer is pinged every 5 s and dropped after a few
                             // unanswered pings; the read loop also notices shutdown then.
                             "websocket_timeout_ms", "5000", "enable_websocket_ping_pong", "yes",
                             // Replies are many small frames: Nagle's algorithm against the
                             // client's delayed ACKs would hold each burst back by ~40 ms.
                             "tcp_nodelay", "1", nullptr};
    mg_callbacks callbacks{};
    callbacks.log_message = log;
    callbacks.begin_request = onBeginRequest;
    callbacks.connection_close = onConnectionClose;
    mg_init_library(0);
    m_context = mg_start(&callbacks, this, options);
    if (!m_context) {
        m_slots.reset();
        mg_exit_library();
        return "cannot listen on " + ports + " (address in use, or not an address of this machine)";
    }
    mg_server_port listening[4];
    const int n = mg_get_server_ports(m_context, 4, listening);
    m_port = n > 0 ? listening[0].port : m_config.port;
    m_policyPort = m_port;
    mg_set_websocket_handler(m_context, "/ws", onWsConnect, onWsReady, onWsData, onWsClose, this);
    mg_set_request_handler(m_context, "/", onHttp, this);
    {
        std::lock_guard lock(m_mutex);
        m_stopping = false;
    }
    m_reaper = std::thread([this] { reaperLoop(); });
    return std::nullopt;
}

void Server::stop() {
    if (!m_context) return;
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_reaperWake.notify_all();
    if (m_reaper.joinable()) m_reaper.join();
    // Tell every client why, then let civetweb end the connections; each close handler stops
    // its session's search.
    std::vector<std::pair<std::shared_ptr<Connection>, std::shared_ptr<Session>>> open;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [id, c] : m_connections) open.emplace_back(c, c->session);
    }
    for (const auto& [c, session] : open) {
        if (session) session->close();
        c->sendClose(kCloseGoingAway, "server shutting down");
    }
    mg_stop(m_context);
    m_context = nullptr;
    mg_exit_library();
    m_slots.reset();
}

int Server::onBeginRequest(mg_connection* conn) {
    auto* server = static_cast<Server*>(mg_get_user_data(mg_get_context(conn)));
    const mg_request_info* info = mg_get_request_info(conn);
    RequestHeaders headers;
    if (const char* host = mg_get_header(conn, "Host")) headers.host = host;
    if (const char* origin = mg_get_header(conn, "Origin")) headers.origin = origin;
    const char* upgrade = mg_get_header(conn, "Upgrade");
    const std::string_view path = info->local_uri ? info->local_uri : "";
    headers.webSocket = (upgrade && mg_strcasecmp(upgrade, "websocket") == 0) || path == "/ws";
    AccessPolicy policy = server->m_policy;
    policy.port = server->m_policyPort;
    const std::optional<std::string> refusal = refuseRequest(policy, headers);
    if (!refusal) return 0; // civetweb goes on: a static file, or the WebSocket handshake
    std::cerr << "axon serve: refused " << (headers.webSocket ? "a WebSocket" : "a request")
              << " from " << info->remote_addr << ": " << *refusal << std::endl;
    sendStatus(conn, 403, "Forbidden", *refusal, false);
    return 403;
}

int Server::onHttp(mg_connection* conn, void* self) {
    auto* server = static_cast<Server*>(self);
    try {
        serveStatic(conn, server->m_config.webRoot);
    } catch (const std::exception& e) {
        std::cerr << "axon serve: HTTP request failed: " << e.what() << std::endl;
    }
    return 200;
}

int Server::onWsConnect(const mg_connection* conn, void* self) {
    auto* server = static_cast<Server*>(self);
    std::lock_guard lock(server->m_mutex);
    if (server->m_stopping) return 1;
    auto connection = std::make_shared<Connection>();
    connection->id = server->m_nextId++;
    int sessions = 0;
    for (const auto& [id, c] : server->m_connections)
        if (!c->refused) ++sessions;
    // Over the cap the handshake still completes, so the client can be told why it is closed.
    connection->refused = sessions >= server->m_config.maxSessions;
    connection->local = localClient(conn);
    server->m_connections[connection->id] = connection;
    mg_set_user_connection_data(conn, connection.get());
    return 0;
}

void Server::onWsReady(mg_connection* conn, void* self) {
    auto* server = static_cast<Server*>(self);
    auto* c = static_cast<Connection*>(mg_get_user_connection_data(conn));
    if (!c) return;
    {
        std::lock_guard lock(c->writeMutex);
        c->conn = conn;
    }
    if (c->refused) {
        c->send(formatError(nullptr, "the server is full (" +
                                         std::to_string(server->m_config.maxSessions) +
                                         " sessions): try again later"));
        c->sendClose(kCloseTryAgainLater, "server full");
        return;
    }
    try {
        std::shared_ptr<Connection> owner;
        {
            std::lock_guard lock(server->m_mutex);
            auto it = server->m_connections.find(c->id);
            if (it != server->m_connections.end()) owner = it->second;
        }
        if (!owner) return;
        std::weak_ptr<Connection> weak = owner;
        SessionConfig config = server->m_sessionConfig;
        config.uncappedAnalysis =
            c->local && server->m_config.localAnalysis == LocalAnalysis::Unlimited;
        auto session =
            std::make_shared<Session>(c->id, config, *server->m_slots, *server->m_hashBudget,
                                      [weak](const std::string& text) {
                                          if (auto target = weak.lock()) target->send(text);
                                      });
        {
            std::lock_guard lock(server->m_mutex);
            c->session = session;
        }
        session->greet();
    } catch (const std::exception& e) {
        c->send(formatError(nullptr, std::string("cannot start a session: ") + e.what()));
        c->sendClose(kCloseTryAgainLater, "no session");
    }
}

int Server::onWsData(mg_connection* conn, int bits, char* data, std::size_t length, void* self) {
    auto* server = static_cast<Server*>(self);
    auto* c = static_cast<Connection*>(mg_get_user_connection_data(conn));
    if (!c) return 0;
    try {
        return server->handleData(*c, bits, data, length);
    } catch (const std::exception& e) {
        // A failure in one message must not take the connection (or the server) down.
        c->send(formatError(nullptr, std::string("internal error: ") + e.what()));
        return 1;
    }
}

int Server::handleData(Connection& c, int bits, const char* data, std::size_t length) {
    const int opcode = bits & 0x0F;
    const bool final = (bits & 0x80) != 0;
    if (opcode == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE) {
        // Answer the client's close (echoing its status code) and end the connection.
        if (!c.closing) {
            c.closing = true;
            std::lock_guard lock(c.writeMutex);
            if (c.conn)
                mg_websocket_write(c.conn, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, data,
                                   std::min<std::size_t>(length, 2));
        }
        return 0;
    }
    std::shared_ptr<Session> session;
    {
        std::lock_guard lock(m_mutex);
        session = c.session;
    }
    if (c.closing || c.refused || !session) return 0;
    if (opcode == MG_WEBSOCKET_OPCODE_PING || opcode == MG_WEBSOCKET_OPCODE_PONG) return 1;
    const std::size_t limit = m_config.session.maxMessageBytes;
    if (opcode == MG_WEBSOCKET_OPCODE_TEXT || opcode == MG_WEBSOCKET_OPCODE_BINARY) {
        c.partial.clear();
        c.discarding = false;
        c.binary = opcode == MG_WEBSOCKET_OPCODE_BINARY;
    }
    if (!c.discarding) {
        if (c.partial.size() + length > limit) {
            c.discarding = true;
            std::string().swap(c.partial);
        } else {
            c.partial.append(data, length);
        }
    }
    if (!final) return 1;
    if (c.binary) {
        c.send(formatError(nullptr, "binary messages are not supported: send JSON text"));
    } else if (c.discarding) {
        c.send(formatError(nullptr,
                           "message too large (at most " + std::to_string(limit) + " bytes)"));
    } else {
        session->handleMessage(c.partial);
    }
    c.partial.clear();
    c.discarding = false;
    return 1;
}

void Server::onWsClose(const mg_connection* conn, void* self) {
    static_cast<Server*>(self)->forget(conn);
}

void Server::onConnectionClose(const mg_connection* conn) {
    // Only a WebSocket whose handshake failed still has its data here (onWsClose clears it).
    if (mg_get_user_connection_data(conn))
        static_cast<Server*>(mg_get_user_data(mg_get_context(conn)))->forget(conn);
}

void Server::forget(const mg_connection* conn) {
    auto* c = static_cast<Connection*>(mg_get_user_connection_data(conn));
    if (!c) return;
    mg_set_user_connection_data(conn, nullptr);
    {
        std::lock_guard lock(c->writeMutex);
        c->conn = nullptr;
    }
    std::shared_ptr<Connection> owner;
    {
        std::lock_guard lock(m_mutex);
        auto it = m_connections.find(c->id);
        if (it != m_connections.end()) {
            owner = std::move(it->second);
            m_connections.erase(it);
        }
    }
    // Stops and waits for its search; the session (and its engine) goes with the last owner.
    std::shared_ptr<Session> session;
    {
        std::lock_guard lock(m_mutex);
        if (owner) session = owner->session;
    }
    if (session) session->close();
}

void Server::reaperLoop() {
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        m_reaperWake.wait_for(lock, std::chrono::milliseconds(m_config.tickIntervalMs));
        if (m_stopping) break;
        std::vector<std::pair<std::shared_ptr<Connection>, std::shared_ptr<Session>>> open;
        for (const auto& [id, c] : m_connections)
            if (c->session && !c->closing) open.emplace_back(c, c->session);
        lock.unlock();
        const std::int64_t now = Session::nowMs();
        for (const auto& [c, session] : open) {
            if (!session->tick(now)) continue;
            c->send(formatError(nullptr, "closing an idle session (no message for " +
                                             std::to_string(m_config.session.idleTimeoutMs / 1000) +
                                             " s)"));
            session->close();
            c->sendClose(kCloseNormal, "idle");
        }
        lock.lock();
    }
}

bool isLoopbackBind(const std::string& host) {
    return host == "localhost" || host.rfind("127.", 0) == 0;
}

int runServer(const ServerConfig& config) {
    // SIGINT and SIGTERM are taken synchronously by this thread: blocked here before any
    // thread starts, so civetweb's and the engines' threads inherit the mask.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    // A client that vanishes mid-write must not kill the server.
    std::signal(SIGPIPE, SIG_IGN);

    Server server(config);
    if (auto error = server.start()) {
        std::cerr << "axon serve: " << *error << std::endl;
        return 1;
    }
    if (!isLoopbackBind(config.host))
        std::cerr << "axon serve: WARNING: listening on " << config.host
                  << ", not loopback: anyone who can reach this machine over the network can "
                     "use this engine (its CPU time and memory). Bind to 127.0.0.1 unless that "
                     "is what you want; see docs/server.md, Security."
                  << std::endl;
    std::cout << "Axon is serving at " << server.url() << " (WebSocket API at ws://"
              << server.url().substr(7) << "ws)" << std::endl;
    std::cout << (config.webRoot.empty()
                      ? std::string("web front end not built: serving a placeholder page")
                      : "web root: " + config.webRoot.string())
              << std::endl;
    const SessionConfig& s = server.sessionConfig();
    std::cout << "sessions at most " << config.maxSessions << ", search threads at once "
              << server.totalThreads() << ", think time at most " << s.maxThinkMs << " ms"
              << (config.localAnalysis == LocalAnalysis::Unlimited
                      ? " (analysis from this machine: until stopped)"
                      : "")
              << "; per session " << s.threads << " thread(s) and " << s.hashMb
              << " MiB hash, at most " << s.maxThreads << " and " << s.maxHashMb
              << " MiB; Ctrl-C stops" << std::endl;
    int received = 0;
    sigwait(&signals, &received);
    std::cout << "axon serve: " << (received == SIGINT ? "SIGINT" : "SIGTERM") << ", shutting down"
              << std::endl;
    server.stop();
    std::cout << "axon serve: stopped" << std::endl;
    return 0;
}

} // namespace axon::server

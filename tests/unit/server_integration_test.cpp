// SPDX-License-Identifier: GPL-3.0-or-later
// `axon serve` end to end, in process on an ephemeral port: WebSocket sessions that play and
// analyse, errors that leave the connection working, concurrent clients, limits (session cap,
// message size, think time, idle reaping), and the HTTP side (index, 404, traversal, headers).
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci_move.h"
#include "server/server.h"
#include "tablebase/tablebases.h"
#include "test_helpers.h"
#include "ws_test_client.h"

using namespace axon;
using axon::test::WsClient;
using Json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

server::ServerConfig testConfig() {
    server::ServerConfig config;
    config.port = 0;
    config.maxSessions = 4;
    config.totalThreads = 2;
    config.session.hashMb = 2;
    config.session.maxThinkMs = 2000;
    return config;
}

// Connects and reads the greeting (hello, then the initial state).
void connectAndGreet(WsClient& client, int port) {
    std::string error;
    ASSERT_TRUE(client.connect(port, error)) << error;
    auto hello = client.next();
    ASSERT_TRUE(hello);
    EXPECT_EQ((*hello)["type"], "hello");
    EXPECT_TRUE((*hello)["maxThinkMs"].is_number());
    EXPECT_FALSE((*hello)["options"].empty());
    auto state = client.next();
    ASSERT_TRUE(state);
    EXPECT_EQ((*state)["type"], "state");
}

// Sends `request` as it is over a fresh connection; the whole response until the server closes,
// except that with `upgrade` a 101's headers end it (the WebSocket stays open). Empty when
// nothing could be connected.
std::string httpExchange(int port, const std::string& request, bool upgrade = false) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval timeout{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(std::uint16_t(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return "";
    }
    ::send(fd, request.data(), request.size(), 0);
    std::string response;
    char buffer[4096];
    ssize_t n;
    while ((n = ::recv(fd, buffer, sizeof buffer, 0)) > 0) {
        response.append(buffer, std::size_t(n));
        if (upgrade && response.rfind("HTTP/1.1 101", 0) == 0 &&
            response.find("\r\n\r\n") != std::string::npos)
            break;
    }
    ::close(fd);
    return response;
}

// A raw HTTP/1.1 request (the path sent exactly as given); the whole response.
std::string httpGet(int port, const std::string& path, const std::string& method = "GET",
                    const std::string& host = "127.0.0.1") {
    return httpExchange(port, method + " " + path + " HTTP/1.1\r\nHost: " + host +
                                  "\r\nConnection: close\r\n\r\n");
}

// A browser's WebSocket handshake to /ws with the given Host and Origin headers (none when
// empty); the response (its headers only, when the server switches protocols).
std::string wsHandshake(int port, const std::string& host, const std::string& origin) {
    std::string request = "GET /ws HTTP/1.1\r\n";
    if (!host.empty()) request += "Host: " + host + "\r\n";
    if (!origin.empty()) request += "Origin: " + origin + "\r\n";
    request += "Upgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    return httpExchange(port, request, true);
}

// A WebSocket client on a bare socket, so that a test can drop it the way a crashed tab or a
// lost network does: no close frame, the TCP connection reset.
class DroppableSocket {
  public:
    ~DroppableSocket() { drop(); }
    bool open(int port) {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        timeval timeout{0, 200 * 1000};
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(std::uint16_t(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return false;
        const std::string request = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                                    "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                                    "Sec-WebSocket-Version: 13\r\n\r\n";
        ::send(m_fd, request.data(), request.size(), 0);
        return readUntil("\"hello\"", 10s) && m_received.rfind("HTTP/1.1 101", 0) == 0;
    }
    void sendText(const std::string& text) { // one masked frame (zero mask), text < 126 bytes
        std::string frame{char(0x81), char(0x80 | text.size()), 0, 0, 0, 0};
        frame += text;
        ::send(m_fd, frame.data(), frame.size(), MSG_NOSIGNAL);
    }
    // Reads (frames unparsed) until `needle` has arrived since the last call, or the timeout.
    bool readUntil(const std::string& needle, std::chrono::milliseconds timeout) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        char buffer[4096];
        while (m_received.find(needle, m_searchFrom) == std::string::npos) {
            if (std::chrono::steady_clock::now() > deadline) return false;
            const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
            if (n == 0) return false;
            if (n > 0) m_received.append(buffer, std::size_t(n));
        }
        m_searchFrom = m_received.find(needle, m_searchFrom) + needle.size();
        return true;
    }
    void drop() { // RST instead of FIN: SO_LINGER with a zero timeout
        if (m_fd < 0) return;
        linger hard{1, 0};
        ::setsockopt(m_fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
        ::close(m_fd);
        m_fd = -1;
    }

  private:
    int m_fd = -1;
    std::string m_received;
    std::size_t m_searchFrom = 0;
};

bool accepted(const std::string& response) { return response.rfind("HTTP/1.1 101", 0) == 0; }
bool forbidden(const std::string& response) { return response.rfind("HTTP/1.1 403", 0) == 0; }

bool isLegalIn(const std::string& fen, const std::string& uci) {
    auto pos = chess::parseFen(fen);
    return pos && chess::parseUciMove(*pos, uci).ok();
}

} // namespace

TEST(ServerIntegration, PlaysAGameWithTheEngineAndReportsErrors) {
    server::Server srv(testConfig());
    ASSERT_FALSE(srv.start());
    WsClient client;
    connectAndGreet(client, srv.port());

    client.send({{"type", "newGame"}, {"id", 1}});
    auto state = client.waitFor("state");
    ASSERT_TRUE(state);
    EXPECT_EQ((*state)["id"], 1);
    EXPECT_EQ((*state)["legalMoves"].size(), 20u);

    client.send({{"type", "move"}, {"move", "e4"}, {"id", 2}});
    state = client.waitFor("state");
    ASSERT_TRUE(state);
    EXPECT_EQ((*state)["moves"][0]["uci"], "e2e4");
    EXPECT_EQ((*state)["turn"], "black");
    const std::string before = (*state)["fen"];

    // Errors, each answered, none changing the game or closing the connection.
    client.sendText("{this is not json");
    auto error = client.next();
    ASSERT_TRUE(error);
    EXPECT_EQ((*error)["type"], "error");
    client.send({{"type", "fly"}, {"id", 3}});
    error = client.next();
    ASSERT_TRUE(error);
    EXPECT_EQ((*error)["type"], "error");
    EXPECT_EQ((*error)["id"], 3);
    client.send({{"type", "move"}, {"move", "e2e4"}, {"id", 4}}); // white's move, black to play
    error = client.next();
    ASSERT_TRUE(error);
    EXPECT_EQ((*error)["type"], "error");
    EXPECT_EQ((*error)["id"], 4);
    client.send({{"type", "go"}, {"nodes", "lots"}, {"id", 5}});
    error = client.next();
    ASSERT_TRUE(error);
    EXPECT_EQ((*error)["type"], "error");
    client.send({{"type", "go"}, {"elo", 100}, {"nodes", 100}, {"id", 6}}); // below UCI_Elo's range
    error = client.next();
    ASSERT_TRUE(error);
    EXPECT_EQ((*error)["type"], "error");
    EXPECT_NE((*error)["message"].get<std::string>().find("elo must be from 1000 to 2400"),
              std::string::npos)
        << *error;
    client.send({{"type", "setOption"}, {"name", "Hash"}, {"value", 4096}, {"id", 7}});
    error = client.next();
    ASSERT_TRUE(error);
    EXPECT_EQ((*error)["type"], "error"); // over the server's hash budget
    client.send({{"type", "setOption"}, {"name", "NoSuchOption"}, {"value", 1}, {"id", 8}});
    error = client.next();
    ASSERT_TRUE(error);
    EXPECT_EQ((*error)["type"], "error");
    client.send({{"type", "setOption"}, {"name", "Move Overhead"}, {"value", 30}, {"id", 9}});
    auto option = client.next();
    ASSERT_TRUE(option);
    EXPECT_EQ((*option)["type"], "option");
    EXPECT_EQ((*option)["value"], "30");

    client.send({{"type", "state"}, {"id", 10}});
    state = client.waitFor("state");
    ASSERT_TRUE(state);
    EXPECT_EQ((*state)["fen"], before);
    EXPECT_EQ((*state)["id"], 10);

    // The engine plays black's move.
    client.send({{"type", "go"}, {"nodes", 20000}, {"play", true}, {"id", 11}});
    std::vector<Json> before_best;
    auto best = client.waitFor("bestmove", &before_best);
    ASSERT_TRUE(best);
    EXPECT_EQ((*best)["id"], 11);
    EXPECT_TRUE((*best)["played"].get<bool>());
    const std::string engineMove = (*best)["move"];
    EXPECT_TRUE(isLegalIn(before, engineMove)) << engineMove;
    ASSERT_FALSE(before_best.empty());
    EXPECT_EQ(before_best.front()["type"], "searching");
    int infos = 0, lastDepth = 0;
    for (const Json& m : before_best) {
        if (m["type"] != "info") continue;
        ++infos;
        EXPECT_EQ(m["id"], 11);
        EXPECT_GE(m["depth"].get<int>(), lastDepth);
        lastDepth = m["depth"];
        EXPECT_FALSE(m["pv"].empty());
        EXPECT_EQ(m["pv"].size(), m["pvSan"].size());
        EXPECT_EQ(m["pv"][0].get<std::string>().size() >= 4, true);
        EXPECT_TRUE(m["score"].contains("cp") || m["score"].contains("mate"));
    }
    EXPECT_GE(infos, 1);
    state = client.waitFor("state");
    ASSERT_TRUE(state);
    ASSERT_EQ((*state)["moves"].size(), 2u);
    EXPECT_EQ((*state)["moves"][1]["uci"], engineMove);
    EXPECT_EQ((*state)["turn"], "white");

    // Take both back, then load a position by PGN and by FEN + SAN moves.
    client.send({{"type", "undo"}, {"plies", 2}});
    state = client.waitFor("state");
    ASSERT_TRUE(state);
    EXPECT_TRUE((*state)["moves"].empty());
    client.send({{"type", "position"}, {"pgn", "1. f3 e5 2. g4 Qh4# 0-1"}});
    state = client.waitFor("state");
    ASSERT_TRUE(state);
    EXPECT_EQ((*state)["status"], "checkmate");
    EXPECT_EQ((*state)["winner"], "black");
    client.send({{"type", "go"}, {"nodes", 100}, {"id", 12}});
    error = client.next();
    ASSERT_TRUE(error);
    EXPECT_EQ((*error)["type"], "error"); // the game is over
    client.send({{"type", "position"},
                 {"fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"},
                 {"moves", Json{"O-O", "Kd7"}}});
    state = client.waitFor("state");
    ASSERT_TRUE(state);
    EXPECT_EQ((*state)["moves"][0]["uci"], "e1g1");
    EXPECT_EQ((*state)["moves"][1]["san"], "Kd7");
    client.send({{"type", "position"}, {"moves", Json{"e4", "e4"}}, {"id", 13}});
    error = client.next();
    ASSERT_TRUE(error);
    EXPECT_EQ((*error)["type"], "error");
    client.send({{"type", "state"}});
    state = client.waitFor("state");
    ASSERT_TRUE(state);
    EXPECT_EQ((*state)["moves"].size(), 2u); // unchanged by the rejected position
    srv.stop();
}

TEST(ServerIntegration, AnalysisStopsOnRequestAndAtTheThinkCap) {
    auto config = testConfig();
    config.session.maxThinkMs = 400;
    config.localAnalysis = server::LocalAnalysis::Capped; // this client is local
    server::Server srv(config);
    ASSERT_FALSE(srv.start());
    WsClient client;
    std::string connectError;
    ASSERT_TRUE(client.connect(srv.port(), connectError)) << connectError;
    auto hello = client.waitFor("hello");
    ASSERT_TRUE(hello);
    EXPECT_FALSE((*hello)["analysisUnlimited"].get<bool>());
    ASSERT_TRUE(client.waitFor("state"));

    client.send({{"type", "go"}, {"infinite", true}, {"multipv", 2}, {"id", "a"}});
    auto searching = client.waitFor("searching");
    ASSERT_TRUE(searching);
    EXPECT_TRUE((*searching)["clamped"].get<bool>());
    EXPECT_EQ((*searching)["maxTimeMs"], 400);
    // Changing the game during a search is refused.
    client.send({{"type", "move"}, {"move", "e4"}, {"id", "m"}});
    auto error = client.waitFor("error");
    ASSERT_TRUE(error);
    EXPECT_EQ((*error)["id"], "m");
    const auto start = std::chrono::steady_clock::now();
    std::vector<Json> infos;
    auto best = client.waitFor("bestmove", &infos, 10s);
    ASSERT_TRUE(best);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    EXPECT_LT(elapsed, 5s); // stopped by the cap, not left running
    EXPECT_FALSE((*best)["played"].get<bool>());
    bool sawSecondLine = false;
    for (const Json& m : infos)
        if (m["type"] == "info" && m["multipv"] == 2) sawSecondLine = true;
    EXPECT_TRUE(sawSecondLine);

    // A stop ends a long search at once.
    client.send({{"type", "go"}, {"movetime", 60000}, {"id", "b"}});
    searching = client.waitFor("searching");
    ASSERT_TRUE(searching);
    EXPECT_TRUE((*searching)["clamped"].get<bool>());
    client.send({{"type", "stop"}});
    best = client.waitFor("bestmove", nullptr, 5s);
    ASSERT_TRUE(best);
    EXPECT_EQ((*best)["id"], "b");
    EXPECT_TRUE(isLegalIn(chess::Position::kStartFen, (*best)["move"]));
    srv.stop();
}

// A local client's analysis (the server's own page) runs until it is stopped, with progress
// several times a second; it yields to a search that waits for its threads once it has run the
// think-time cap; hash and threads are set within the server's limits and budget.
TEST(ServerIntegration, LocalAnalysisRunsUntilStoppedWithLiveProgress) {
    auto config = testConfig();
    config.session.maxThinkMs = 300;
    config.totalThreads = 2;
    config.maxHashMb = 64;
    config.totalHashMb = 4 * 2 + 64; // every session's 2 MiB, and 64 more to share
    server::Server srv(config);
    ASSERT_FALSE(srv.start());
    WsClient a, b;
    std::string connectError;
    ASSERT_TRUE(a.connect(srv.port(), connectError)) << connectError;
    auto hello = a.waitFor("hello");
    ASSERT_TRUE(hello);
    EXPECT_TRUE((*hello)["analysisUnlimited"].get<bool>());
    for (const Json& option : (*hello)["options"]) {
        if (option["name"] == "Hash") {
            EXPECT_EQ(option["max"], 64);
        } else if (option["name"] == "Threads") {
            EXPECT_EQ(option["max"], 2);
        }
    }
    ASSERT_TRUE(a.waitFor("state"));
    connectAndGreet(b, srv.port());

    // Limits: over --max-hash or --max-threads, then over the shared budget.
    auto setOption = [](WsClient& c, const char* name, const char* value) {
        c.send({{"type", "setOption"}, {"name", name}, {"value", value}});
        auto reply = c.next();
        EXPECT_TRUE(reply);
        return reply ? *reply : Json();
    };
    EXPECT_EQ(setOption(a, "Hash", "65")["type"], "error");
    EXPECT_EQ(setOption(a, "Threads", "3")["type"], "error");
    EXPECT_EQ(setOption(a, "Hash", "64")["type"], "option"); // 62 of the 64 shared
    Json refused = setOption(b, "Hash", "8");
    EXPECT_EQ(refused["type"], "error");
    EXPECT_NE(refused["message"].get<std::string>().find("budget"), std::string::npos)
        << refused.dump();
    EXPECT_EQ(setOption(b, "Hash", "4")["type"], "option");  // 2 more: exactly what is left
    EXPECT_EQ(setOption(a, "Hash", "32")["type"], "option"); // gives 32 back
    EXPECT_EQ(setOption(b, "Hash", "32")["type"], "option");
    EXPECT_EQ(setOption(a, "Threads", "2")["type"], "option");

    // Far past the 300 ms cap the analysis still runs, and progress keeps coming.
    a.send({{"type", "go"}, {"infinite", true}, {"multipv", 2}, {"id", "deep"}});
    auto searching = a.waitFor("searching");
    ASSERT_TRUE(searching);
    EXPECT_TRUE((*searching)["maxTimeMs"].is_null());
    EXPECT_FALSE((*searching)["clamped"].get<bool>());
    std::vector<Json> progress;
    const auto until = std::chrono::steady_clock::now() + 1500ms;
    while (std::chrono::steady_clock::now() < until) {
        auto m = a.next(200ms);
        if (!m) continue;
        ASSERT_NE((*m)["type"], "bestmove") << "stopped at the cap";
        if ((*m)["type"] == "progress") progress.push_back(*m);
    }
    // About five a second (200 ms), more than a few even on a loaded machine.
    EXPECT_GE(progress.size(), 3u);
    for (std::size_t i = 1; i < progress.size(); ++i) {
        EXPECT_EQ(progress[i]["id"], "deep");
        EXPECT_GT(progress[i]["nodes"].get<std::uint64_t>(),
                  progress[i - 1]["nodes"].get<std::uint64_t>());
        EXPECT_GE(progress[i]["time"].get<int>(), progress[i - 1]["time"].get<int>());
        ASSERT_TRUE(progress[i].contains("currmove")) << progress[i].dump();
        EXPECT_TRUE(isLegalIn(chess::Position::kStartFen, progress[i]["currmove"]));
        EXPECT_FALSE(progress[i]["currmoveSan"].get<std::string>().empty());
    }

    // Another search waits for the two threads: the analysis, past the cap, yields to it.
    b.send({{"type", "go"}, {"nodes", 3000}, {"id", "short"}});
    auto queued = b.next();
    ASSERT_TRUE(queued);
    EXPECT_EQ((*queued)["type"], "queued") << queued->dump();
    auto yielded = a.waitFor("bestmove", nullptr, 10s);
    ASSERT_TRUE(yielded);
    EXPECT_TRUE((*yielded)["yielded"].get<bool>());
    EXPECT_TRUE(b.waitFor("bestmove", nullptr, 10s));

    // Without a waiter it runs until told to stop.
    a.send({{"type", "go"}, {"infinite", true}, {"id", "again"}});
    ASSERT_TRUE(a.waitFor("searching"));
    std::this_thread::sleep_for(700ms);
    a.send({{"type", "stop"}});
    std::vector<Json> skipped;
    auto stopped = a.waitFor("bestmove", &skipped, 10s);
    ASSERT_TRUE(stopped);
    EXPECT_EQ((*stopped)["id"], "again");
    EXPECT_FALSE(stopped->contains("yielded"));
    EXPECT_TRUE(isLegalIn(chess::Position::kStartFen, (*stopped)["move"]));
    srv.stop();
}

// The tablebase panel's request: every legal move's result and DTZ, best first, with the
// server's tables; without them, "available" false.
TEST(ServerIntegration, TablebaseAnswersWithTheServersTablesOnly) {
    const std::string tables = test::sharedData("syzygy").string();
    AXON_REQUIRE_DATA(tables);
    server::ServerConfig config = testConfig();
    auto opened = tablebase::Tablebases::open(tables);
    ASSERT_TRUE(opened.ok()) << opened.error();
    config.session.tablebases = *opened;
    server::Server srv(config);
    ASSERT_FALSE(srv.start());
    WsClient client;
    connectAndGreet(client, srv.port());
    client.send({{"type", "tablebase"}, {"fen", "8/8/8/4k3/7R/8/8/K7 w - - 0 1"}, {"id", 1}});
    auto answer = client.waitFor("tablebase");
    ASSERT_TRUE(answer);
    EXPECT_EQ((*answer)["id"], 1);
    EXPECT_EQ((*answer)["available"], true);
    EXPECT_EQ((*answer)["inTables"], true);
    EXPECT_EQ((*answer)["wdl"], "win");
    EXPECT_GT((*answer)["dtz"].get<int>(), 0);
    const Json& moves = (*answer)["moves"];
    ASSERT_EQ(moves.size(), 17u); // Ka1: 3 moves, Rh4: 14
    EXPECT_EQ(moves[0]["wdl"], "win");
    // Rd4, Re4+ and Rf4 give the rook away: drawn, and ranked last.
    int draws = 0;
    for (const Json& m : moves) draws += m["wdl"] == "draw";
    EXPECT_EQ(draws, 3) << moves;
    EXPECT_EQ(moves.back()["wdl"], "draw");
    for (std::size_t i = 1; i < moves.size(); ++i)
        if (moves[i]["wdl"] == moves[i - 1]["wdl"] && moves[i]["wdl"] == "win") {
            EXPECT_GE(moves[i]["dtz"].get<int>(), moves[i - 1]["dtz"].get<int>()) << moves;
        }
    // Too many pieces, and a bad FEN.
    client.send({{"type", "tablebase"}, {"id", 2}});
    answer = client.waitFor("tablebase");
    ASSERT_TRUE(answer);
    EXPECT_EQ((*answer)["inTables"], false);
    client.send({{"type", "tablebase"}, {"fen", "nonsense"}, {"id", 3}});
    auto error = client.waitFor("error");
    ASSERT_TRUE(error);
    EXPECT_NE((*error)["message"].get<std::string>().find("tablebase: bad FEN"), std::string::npos);
    srv.stop();

    server::Server bare(testConfig());
    ASSERT_FALSE(bare.start());
    WsClient other;
    connectAndGreet(other, bare.port());
    other.send({{"type", "tablebase"}, {"fen", "8/8/8/4k3/8/8/8/K6R w - - 0 1"}, {"id", 4}});
    answer = other.waitFor("tablebase");
    ASSERT_TRUE(answer);
    EXPECT_EQ((*answer)["available"], false);
    EXPECT_EQ((*answer)["inTables"], false);
    bare.stop();
}

TEST(ServerIntegration, EvalPiecesForTheGameOrAFenDuringASearchTooAndBadFensRefused) {
    server::Server srv(testConfig());
    ASSERT_FALSE(srv.start());
    WsClient client;
    connectAndGreet(client, srv.port());

    // The game's position (the start) when no FEN is given.
    client.send({{"type", "evalPieces"}, {"id", 1}});
    auto pieces = client.waitFor("pieces");
    ASSERT_TRUE(pieces);
    EXPECT_EQ((*pieces)["id"], 1);
    EXPECT_EQ((*pieces)["fen"], chess::Position::kStartFen);
    const Json& list = (*pieces)["pieces"];
    ASSERT_EQ(list.size(), 30u); // every piece but the kings
    for (const Json& p : list) EXPECT_NE(p["piece"].get<std::string>(), "K");
    EXPECT_EQ(list[3], Json({{"square", "d1"}, {"piece", "Q"}, {"cp", list[3]["cp"]}}));
    EXPECT_GT(list[3]["cp"].get<int>(), 0);
    EXPECT_LT(list[26]["cp"].get<int>(), 0); // d8, Black's queen
    EXPECT_EQ(list[26]["square"], "d8");

    // Bad input: each answered with an error naming the problem, the session going on.
    const std::pair<Json, std::string> bad[] = {
        {"not a fen", "evalPieces: bad FEN"},
        {"8/8/8/8/8/8/8/8 w - - 0 1", "evalPieces: bad FEN"}, // no kings
        {42, "'fen' must be a string"},
    };
    int id = 10;
    for (const auto& [fen, message] : bad) {
        client.send({{"type", "evalPieces"}, {"fen", fen}, {"id", ++id}});
        auto error = client.next();
        ASSERT_TRUE(error);
        EXPECT_EQ((*error)["type"], "error") << *error;
        EXPECT_EQ((*error)["id"], id);
        EXPECT_NE((*error)["message"].get<std::string>().find(message), std::string::npos)
            << *error;
    }

    // During an analysis: answered at once, for the FEN given, the search going on.
    client.send({{"type", "go"}, {"infinite", true}, {"id", "a"}});
    ASSERT_TRUE(client.waitFor("searching"));
    const std::string pinned = "4k3/8/8/8/1b6/8/3N4/4K3 b - - 0 1";
    client.send({{"type", "evalPieces"}, {"fen", pinned}, {"id", 20}});
    std::vector<Json> skipped;
    pieces = client.waitFor("pieces", &skipped);
    ASSERT_TRUE(pieces);
    for (const Json& m : skipped) EXPECT_NE(m["type"], "bestmove");
    EXPECT_EQ((*pieces)["id"], 20);
    EXPECT_EQ((*pieces)["fen"], pinned);
    engine::Engine reference;
    auto pos = chess::parseFen(pinned);
    ASSERT_TRUE(pos.ok());
    const engine::PieceContributions expected = reference.pieceContributions(*pos);
    EXPECT_EQ((*pieces)["base"], expected.base);
    ASSERT_EQ((*pieces)["pieces"].size(), 2u);
    EXPECT_EQ((*pieces)["pieces"][0]["cp"], expected.pieces[0].cp);
    EXPECT_EQ((*pieces)["pieces"][1]["cp"], expected.pieces[1].cp);
    client.send({{"type", "stop"}});
    auto best = client.waitFor("bestmove", nullptr, 5s);
    ASSERT_TRUE(best);
    EXPECT_EQ((*best)["id"], "a");
    srv.stop();
}

TEST(ServerIntegration, ConcurrentClientsAreIndependent) {
    auto config = testConfig();
    config.totalThreads = 1; // the second search queues behind the first
    server::Server srv(config);
    ASSERT_FALSE(srv.start());
    WsClient a, b;
    connectAndGreet(a, srv.port());
    connectAndGreet(b, srv.port());
    EXPECT_EQ(srv.sessionCount(), 2);
    a.send({{"type", "move"}, {"move", "d4"}});
    ASSERT_TRUE(a.waitFor("state"));
    b.send({{"type", "move"}, {"move", "Nf3"}});
    ASSERT_TRUE(b.waitFor("state"));

    a.send({{"type", "go"}, {"movetime", 300}, {"play", true}});
    b.send({{"type", "go"}, {"nodes", 5000}, {"play", true}});
    auto bestA = a.waitFor("bestmove");
    auto bestB = b.waitFor("bestmove");
    ASSERT_TRUE(bestA);
    ASSERT_TRUE(bestB);
    auto stateA = a.waitFor("state");
    auto stateB = b.waitFor("state");
    ASSERT_TRUE(stateA);
    ASSERT_TRUE(stateB);
    EXPECT_EQ((*stateA)["moves"][0]["uci"], "d2d4");
    EXPECT_EQ((*stateB)["moves"][0]["uci"], "g1f3");
    EXPECT_EQ((*stateA)["moves"][1]["uci"], (*bestA)["move"]);
    EXPECT_EQ((*stateB)["moves"][1]["uci"], (*bestB)["move"]);

    // A client that disconnects mid-search leaves the other working.
    a.send({{"type", "go"}, {"infinite", true}});
    ASSERT_TRUE(a.waitFor("searching"));
    a.disconnect();
    b.send({{"type", "go"}, {"nodes", 2000}});
    auto queuedOrSearching = b.next();
    ASSERT_TRUE(queuedOrSearching);
    ASSERT_TRUE(b.waitFor("bestmove", nullptr, 10s));
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (srv.sessionCount() != 1 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(20ms);
    EXPECT_EQ(srv.sessionCount(), 1);
    srv.stop();
}

TEST(ServerIntegration, LimitsOnSessionsMessageSizeAndIdleTime) {
    auto config = testConfig();
    config.maxSessions = 1;
    config.session.maxMessageBytes = 1024;
    config.session.idleTimeoutMs = 1500;
    server::Server srv(config);
    ASSERT_FALSE(srv.start());
    WsClient a;
    connectAndGreet(a, srv.port());

    // Over the cap: told so, then closed.
    WsClient b;
    std::string connectError;
    ASSERT_TRUE(b.connect(srv.port(), connectError)) << connectError;
    auto refusal = b.next();
    ASSERT_TRUE(refusal);
    EXPECT_EQ((*refusal)["type"], "error");
    EXPECT_NE((*refusal)["message"].get<std::string>().find("full"), std::string::npos);
    EXPECT_TRUE(b.waitClosed(5s));

    // Too large: an error, and the connection goes on (whole or in fragments).
    a.sendText(std::string(4000, ' ') + R"({"type":"state"})");
    auto error = a.next();
    ASSERT_TRUE(error);
    EXPECT_EQ((*error)["type"], "error");
    EXPECT_NE((*error)["message"].get<std::string>().find("too large"), std::string::npos);
    a.sendFragmented(std::string(3000, ' ') + R"({"type":"state"})", 4);
    error = a.next();
    ASSERT_TRUE(error);
    EXPECT_EQ((*error)["type"], "error");
    a.sendFragmented(R"({"type":"state","id":"fragments"})", 3);
    auto state = a.next();
    ASSERT_TRUE(state);
    EXPECT_EQ((*state)["type"], "state");
    EXPECT_EQ((*state)["id"], "fragments");

    // Idle: closed by the server after the timeout.
    auto idle = a.next(10s);
    ASSERT_TRUE(idle);
    EXPECT_EQ((*idle)["type"], "error");
    EXPECT_NE((*idle)["message"].get<std::string>().find("idle"), std::string::npos);
    EXPECT_TRUE(a.waitClosed(5s));
    EXPECT_EQ(srv.sessionCount(), 0); // closed at once, though the socket may linger
    a.disconnect();
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (srv.sessionCount() != 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(20ms);
    EXPECT_EQ(srv.sessionCount(), 0);
    srv.stop();
}

TEST(ServerIntegration, ServesStaticFilesSafely) {
    namespace fs = std::filesystem;
    const fs::path base = fs::temp_directory_path() / ("axon-web-" + std::to_string(::getpid()));
    fs::remove_all(base);
    fs::create_directories(base / "root" / "assets");
    std::ofstream(base / "root" / "index.html") << "<title>Axon web</title>";
    std::ofstream(base / "root" / "assets" / "engine.wasm") << "wasm";
    std::ofstream(base / "secret.txt") << "TOP SECRET";

    auto config = testConfig();
    config.webRoot = base / "root";
    server::Server srv(config);
    ASSERT_FALSE(srv.start());
    std::string r = httpGet(srv.port(), "/");
    EXPECT_NE(r.find("HTTP/1.1 200"), std::string::npos) << r;
    EXPECT_NE(r.find("<title>Axon web</title>"), std::string::npos);
    EXPECT_NE(r.find("Cross-Origin-Opener-Policy: same-origin"), std::string::npos);
    EXPECT_NE(r.find("Cross-Origin-Embedder-Policy: require-corp"), std::string::npos);
    EXPECT_NE(r.find("Content-Type: text/html"), std::string::npos);
    r = httpGet(srv.port(), "/assets/engine.wasm");
    EXPECT_NE(r.find("Content-Type: application/wasm"), std::string::npos) << r;
    r = httpGet(srv.port(), "/assets/engine.wasm", "HEAD");
    EXPECT_NE(r.find("Content-Length: 4"), std::string::npos) << r;
    EXPECT_EQ(r.find("wasm\r\n\r\nwasm"), std::string::npos);
    r = httpGet(srv.port(), "/nothing-here.js");
    EXPECT_NE(r.find("HTTP/1.1 404"), std::string::npos) << r;
    EXPECT_NE(r.find("Cross-Origin-Embedder-Policy: require-corp"), std::string::npos);
    r = httpGet(srv.port(), "/", "POST");
    EXPECT_NE(r.find("HTTP/1.1 405"), std::string::npos) << r;
    for (const std::string& bad : std::vector<std::string>{
             "/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt",
             "/%2E%2E%2Fsecret.txt", "/assets/%2e%2e/%2e%2e/secret.txt",
             "/" + (base / "secret.txt").string()}) {
        r = httpGet(srv.port(), bad);
        EXPECT_EQ(r.find("TOP SECRET"), std::string::npos) << bad << "\n" << r;
        EXPECT_TRUE(r.find("HTTP/1.1 403") != std::string::npos ||
                    r.find("HTTP/1.1 404") != std::string::npos)
            << bad << "\n"
            << r;
    }
    srv.stop();

    // Without a web root: the built-in page says how to build the front end.
    auto plain = testConfig();
    server::Server bare(plain);
    ASSERT_FALSE(bare.start());
    r = httpGet(bare.port(), "/");
    EXPECT_NE(r.find("HTTP/1.1 200"), std::string::npos);
    EXPECT_NE(r.find("npm run build"), std::string::npos);
    EXPECT_NE(httpGet(bare.port(), "/app.js").find("HTTP/1.1 404"), std::string::npos);
    EXPECT_NE(httpGet(bare.port(), "/%2e%2e/x").find("HTTP/1.1 403"), std::string::npos);
    bare.stop();
    fs::remove_all(base);
}

TEST(ServerIntegration, RefusesABadHostAndATakenPort) {
    auto config = testConfig();
    config.host = "not-an-address";
    server::Server bad(config);
    auto error = bad.start();
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("IPv4"), std::string::npos);

    server::Server first(testConfig());
    ASSERT_FALSE(first.start());
    auto taken = testConfig();
    taken.port = first.port();
    server::Server second(taken);
    EXPECT_TRUE(second.start().has_value());
    first.stop();
}

// Cross-site WebSocket hijacking and DNS rebinding: any page in the user's browser can make it
// connect to 127.0.0.1, so only the server's own page (and origins allowed on the command line)
// may open a session, and only requests naming the server by an IP address, a loopback name or
// an allowed name are served.
TEST(ServerIntegration, RefusesForeignOriginsAndHosts) {
    auto config = testConfig();
    config.allowedOrigins = {"http://localhost:5173"};
    config.allowedHosts = {"chess.example.org"};
    // Room for every accepted handshake below: the server holds a connection until it notices
    // the socket closed, and over the cap a handshake is accepted only to say "server full".
    config.maxSessions = 16;
    server::Server srv(config);
    ASSERT_FALSE(srv.start());
    const std::string port = std::to_string(srv.port());
    const std::string self = "127.0.0.1:" + port;

    // The app's own page, under either loopback name, and a client that is not a browser.
    EXPECT_TRUE(accepted(wsHandshake(srv.port(), self, "http://" + self)));
    EXPECT_TRUE(accepted(wsHandshake(srv.port(), self, "http://localhost:" + port)));
    EXPECT_TRUE(accepted(wsHandshake(srv.port(), "localhost:" + port, "http://localhost:" + port)));
    EXPECT_TRUE(accepted(wsHandshake(srv.port(), self, "")));
    EXPECT_TRUE(accepted(wsHandshake(srv.port(), self, "http://localhost:5173"))); // allowed

    // Another web page, a sandboxed one, another local port, another scheme's default port.
    std::string r = wsHandshake(srv.port(), self, "http://evil.example.com");
    EXPECT_TRUE(forbidden(r)) << r;
    EXPECT_NE(r.find("origin 'http://evil.example.com' refused"), std::string::npos) << r;
    EXPECT_EQ(r.find("hello"), std::string::npos);
    for (const std::string& origin :
         {std::string("null"), "http://localhost:" + std::to_string(srv.port() + 1),
          std::string("http://127.0.0.1"), std::string("file://"),
          "http://127.0.0.1:" + port + ".evil.example.com", std::string("http://localhost:5174"),
          std::string("https://localhost:5173")})
        EXPECT_TRUE(forbidden(wsHandshake(srv.port(), self, origin))) << origin;

    // DNS rebinding: the page's own name arrives as Host, and its origin matches it.
    r = wsHandshake(srv.port(), "evil.example.com:" + port, "http://evil.example.com:" + port);
    EXPECT_TRUE(forbidden(r)) << r;
    EXPECT_NE(r.find("Host 'evil.example.com'"), std::string::npos) << r;
    r = httpGet(srv.port(), "/", "GET", "evil.example.com:" + port);
    EXPECT_TRUE(forbidden(r)) << r;
    EXPECT_NE(r.find("Cross-Origin-Resource-Policy: same-origin"), std::string::npos) << r;
    EXPECT_TRUE(forbidden(wsHandshake(srv.port(), "", "http://" + self))); // no Host at all
    EXPECT_TRUE(forbidden(httpGet(srv.port(), "/", "GET", "127.0.0.1:" + port + "@evil")));
    // An allowed name (a reverse proxy's), and its subdomains only when given with a dot.
    EXPECT_TRUE(httpGet(srv.port(), "/", "GET", "chess.example.org").rfind("HTTP/1.1 200", 0) == 0);
    EXPECT_TRUE(forbidden(httpGet(srv.port(), "/", "GET", "www.chess.example.org")));
    EXPECT_TRUE(accepted(
        wsHandshake(srv.port(), "chess.example.org:" + port, "http://chess.example.org:" + port)));

    // A refused handshake leaves no session behind (the accepted ones above close as their
    // sockets do, which a sanitizer build may take a moment to notice); a client still plays.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (srv.sessionCount() != 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(srv.sessionCount(), 0);
    WsClient client;
    connectAndGreet(client, srv.port());
    srv.stop();

    // Bad allow-lists are start-up errors, not silently ignored entries.
    auto badOrigin = testConfig();
    badOrigin.allowedOrigins = {"localhost:5173"};
    auto error = server::Server(badOrigin).start();
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("--allow-origin"), std::string::npos);
    auto badHost = testConfig();
    badHost.allowedHosts = {"http://chess.example.org"};
    error = server::Server(badHost).start();
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("--allow-host"), std::string::npos);
}

// Options that name files or change the process are not the network's to set: a page cannot
// load a file as a network (or learn whether it exists), and per-search settings travel with
// `go` instead of rewriting the session's options.
TEST(ServerIntegration, OffersOnlyAnAllowListOfOptions) {
    server::Server srv(testConfig());
    ASSERT_FALSE(srv.start());
    WsClient client;
    std::string connectError;
    ASSERT_TRUE(client.connect(srv.port(), connectError)) << connectError;
    auto hello = client.waitFor("hello");
    ASSERT_TRUE(hello);
    std::vector<std::string> names;
    for (const Json& option : (*hello)["options"]) names.push_back(option["name"]);
    EXPECT_EQ(names, (std::vector<std::string>{"Hash", "Threads", "Move Overhead", "Clear Hash",
                                               "Skill Seed"}));
    ASSERT_TRUE(client.waitFor("state"));

    std::vector<std::string> replies;
    for (const char* file : {"/etc/passwd", "/no/such/file.nnue", "<pst>"}) {
        client.send({{"type", "setOption"}, {"name", "EvalFile"}, {"value", file}, {"id", 1}});
        auto error = client.next();
        ASSERT_TRUE(error);
        EXPECT_EQ((*error)["type"], "error");
        replies.push_back((*error)["message"]);
        EXPECT_NE(replies.back().find("not an option this server offers"), std::string::npos)
            << replies.back();
    }
    // The same answer whatever the file: nothing to learn about the user's disk.
    EXPECT_EQ(replies[0], replies[1]);
    EXPECT_EQ(replies[1], replies[2]);
    for (const char* name : {"evalfile", "MultiPV", "UCI_Elo", "UCI_Chess960", "Ponder"}) {
        client.send({{"type", "setOption"}, {"name", name}, {"value", "1"}});
        auto error = client.next();
        ASSERT_TRUE(error);
        EXPECT_EQ((*error)["type"], "error") << name;
    }

    // MultiPV from `go` applies to that search only.
    auto linesOf = [&](const Json& go) {
        client.send(go);
        std::vector<Json> skipped;
        EXPECT_TRUE(client.waitFor("bestmove", &skipped));
        int most = 0;
        for (const Json& m : skipped)
            if (m["type"] == "info") most = std::max(most, m["multipv"].get<int>());
        return most;
    };
    EXPECT_EQ(linesOf({{"type", "go"}, {"nodes", 5000}, {"multipv", 3}}), 3);
    EXPECT_EQ(linesOf({{"type", "go"}, {"nodes", 5000}}), 1);
    srv.stop();
}

// Connections that vanish mid-search (a closed laptop, a crashed tab): each session's search is
// stopped, its slot and queue place given back, and the session forgotten, over and over.
TEST(ServerIntegration, DroppedConnectionsLeaveNothingBehind) {
    auto config = testConfig();
    config.totalThreads = 1; // a leaked slot would make every later search wait
    // Room for the sessions of earlier rounds that a busy machine has not forgotten yet: a
    // refused ("server full") connection would never be told "queued".
    config.maxSessions = 16;
    config.session.maxThinkMs = 60000;
    server::Server srv(config);
    ASSERT_FALSE(srv.start());
    const std::string go = R"({"type":"go","infinite":true})";
    // The message, not the greeting's `state`, which has a "searching" field too.
    const std::string searchingMessage = R"("type":"searching")";
    for (int round = 0; round < 24; ++round) {
        // Each round starts once the sessions dropped before it are gone, so its first search
        // finds the slot free whatever the machine's load.
        const auto forgotten = std::chrono::steady_clock::now() + 15s;
        while (srv.sessionCount() > 0 && std::chrono::steady_clock::now() < forgotten)
            std::this_thread::sleep_for(10ms);
        ASSERT_EQ(srv.sessionCount(), 0) << "round " << round;
        DroppableSocket searching;
        ASSERT_TRUE(searching.open(srv.port())) << "round " << round;
        searching.sendText(go);
        switch (round % 4) {
        case 0: break; // dropped before the search may even have started
        case 1: ASSERT_TRUE(searching.readUntil(searchingMessage, 10s)) << round; break;
        case 2: ASSERT_TRUE(searching.readUntil("\"info\"", 10s)) << round; break;
        case 3: { // a second session waits in the queue and is dropped there, then the first
            ASSERT_TRUE(searching.readUntil(searchingMessage, 10s)) << round;
            DroppableSocket queued;
            ASSERT_TRUE(queued.open(srv.port())) << round;
            queued.sendText(go);
            ASSERT_TRUE(queued.readUntil("\"queued\"", 10s)) << round;
            queued.drop();
            break;
        }
        }
        searching.drop();
    }
    const auto deadline = std::chrono::steady_clock::now() + 15s;
    while (srv.sessionCount() > 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(20ms);
    EXPECT_EQ(srv.sessionCount(), 0);

    // The one search slot is free: a new client searches at once, not after a queue.
    WsClient client;
    connectAndGreet(client, srv.port());
    client.send({{"type", "go"}, {"nodes", 2000}, {"id", 1}});
    auto reply = client.next();
    ASSERT_TRUE(reply);
    EXPECT_EQ((*reply)["type"], "searching") << *reply;
    EXPECT_TRUE(client.waitFor("bestmove"));
    srv.stop();
}

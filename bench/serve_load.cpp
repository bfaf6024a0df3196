// SPDX-License-Identifier: GPL-3.0-or-later
// Load check for `axon serve` (bench/serve-load.sh): N concurrent WebSocket sessions, each
// playing M engine moves (go with a node limit and play:true) against random replies, timing
// each go from request to bestmove. Prints p50/p90/p99/max move latency and every error.
//
// Usage: axon_serve_load PORT [SESSIONS=50] [MOVES=6] [NODES=2000]
#include <civetweb.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/prng.h"

namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Client {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::string> messages;
    bool closed = false;
    mg_connection* conn = nullptr;

    static int onData(mg_connection*, int bits, char* data, std::size_t length, void* self) {
        auto* c = static_cast<Client*>(self);
        std::lock_guard lock(c->mutex);
        if ((bits & 0x0F) == MG_WEBSOCKET_OPCODE_TEXT) c->messages.emplace_back(data, length);
        if ((bits & 0x0F) == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE) c->closed = true;
        c->wake.notify_all();
        return 1;
    }
    static void onClose(const mg_connection*, void* self) {
        auto* c = static_cast<Client*>(self);
        std::lock_guard lock(c->mutex);
        c->closed = true;
        c->wake.notify_all();
    }
    // The next message of `type` (others skipped; an `error` is returned as is).
    std::optional<Json> waitFor(const std::string& type, std::chrono::seconds timeout) {
        const auto deadline = Clock::now() + timeout;
        std::unique_lock lock(mutex);
        while (true) {
            if (!wake.wait_until(lock, deadline, [&] { return !messages.empty() || closed; }))
                return std::nullopt;
            if (messages.empty()) return std::nullopt;
            Json j = Json::parse(messages.front(), nullptr, false);
            messages.pop_front();
            if (j.is_object() && (j["type"] == type || j["type"] == "error")) return j;
        }
    }
    // One write per frame: civetweb's client writes header and payload separately, and on a
    // socket without TCP_NODELAY the payload then waits for the server's delayed ACK (~40 ms),
    // which would be measured as move latency. Browsers do not do that.
    void send(const Json& j) {
        const std::string text = j.dump();
        std::string frame;
        frame += char(0x80 | MG_WEBSOCKET_OPCODE_TEXT);
        if (text.size() < 126) {
            frame += char(0x80 | text.size());
        } else {
            frame += char(0x80 | 126);
            frame += char((text.size() >> 8) & 0xFF);
            frame += char(text.size() & 0xFF);
        }
        frame.append(4, '\0'); // a zero mask leaves the payload as it is
        frame += text;
        mg_lock_connection(conn);
        mg_write(conn, frame.data(), frame.size());
        mg_unlock_connection(conn);
    }
};

struct Totals {
    std::mutex mutex;
    std::vector<double> latenciesMs;
    std::vector<std::string> errors;
    std::atomic<int> moves{0};
};

void runSession(int index, int port, int moves, long nodes, Totals& totals) {
    auto fail = [&](const std::string& why) {
        std::lock_guard lock(totals.mutex);
        totals.errors.push_back("session " + std::to_string(index) + ": " + why);
    };
    Client client;
    char error[256] = {};
    client.conn = mg_connect_websocket_client("127.0.0.1", port, 0, error, sizeof error, "/ws",
                                              nullptr, &Client::onData, &Client::onClose, &client);
    if (!client.conn) return fail(std::string("connect: ") + error);
    axon::util::Prng prng(0x5EED0000u + unsigned(index));
    std::optional<Json> state = client.waitFor("state", std::chrono::seconds(30));
    if (!state || (*state)["type"] != "state")
        return fail("no initial state"), mg_close_connection(client.conn);
    for (int i = 0; i < moves; ++i) {
        const auto start = Clock::now();
        client.send({{"type", "go"}, {"nodes", nodes}, {"play", true}, {"id", i}});
        std::optional<Json> best = client.waitFor("bestmove", std::chrono::seconds(60));
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        if (!best || (*best)["type"] != "bestmove") {
            fail(best ? (*best)["message"].get<std::string>() : "no bestmove within 60 s");
            break;
        }
        {
            std::lock_guard lock(totals.mutex);
            totals.latenciesMs.push_back(ms);
        }
        ++totals.moves;
        state = client.waitFor("state", std::chrono::seconds(30));
        if (!state || (*state)["type"] != "state")
            return fail("no state after the engine move"), mg_close_connection(client.conn);
        const Json& legal = (*state)["legalMoves"];
        if (legal.empty()) {
            client.send({{"type", "newGame"}});
        } else {
            client.send({{"type", "move"}, {"move", legal[prng.below(legal.size())]}});
        }
        state = client.waitFor("state", std::chrono::seconds(30));
        if (!state || (*state)["type"] != "state")
            return fail("no state after the reply"), mg_close_connection(client.conn);
    }
    mg_close_connection(client.conn);
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t i =
        std::min(v.size() - 1, std::size_t(p / 100.0 * double(v.size() - 1) + 0.5));
    return v[i];
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: axon_serve_load PORT [SESSIONS=50] [MOVES=6] [NODES=2000]\n";
        return 2;
    }
    const int port = std::atoi(argv[1]);
    const int sessions = argc > 2 ? std::atoi(argv[2]) : 50;
    const int moves = argc > 3 ? std::atoi(argv[3]) : 6;
    const long nodes = argc > 4 ? std::atol(argv[4]) : 2000;
    if (port <= 0 || sessions <= 0 || moves <= 0 || nodes <= 0) {
        std::cerr << "axon_serve_load: PORT, SESSIONS, MOVES and NODES must be positive\n";
        return 2;
    }
    mg_init_library(0);
    Totals totals;
    const auto start = Clock::now();
    std::vector<std::thread> threads;
    for (int i = 0; i < sessions; ++i)
        threads.emplace_back(runSession, i, port, moves, nodes, std::ref(totals));
    for (auto& t : threads) t.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    mg_exit_library();

    const auto& l = totals.latenciesMs;
    std::printf("sessions %d, engine moves %d of %d, nodes %ld per move, %.1f s wall\n", sessions,
                totals.moves.load(), sessions * moves, nodes, seconds);
    std::printf(
        "move latency ms (go sent -> bestmove received): p50 %.1f  p90 %.1f  p99 %.1f  max %.1f\n",
        percentile(l, 50), percentile(l, 90), percentile(l, 99), percentile(l, 100));
    std::printf("errors: %zu\n", totals.errors.size());
    for (const auto& e : totals.errors) std::printf("  %s\n", e.c_str());
    return totals.errors.empty() && totals.moves == sessions * moves ? 0 : 1;
}

// SPDX-License-Identifier: GPL-3.0-or-later
// A small blocking WebSocket client for the server tests, over civetweb's client API: messages
// are queued by civetweb's client thread and taken with a timeout.
#pragma once

#include <civetweb.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace axon::test {

class WsClient {
  public:
    using Json = nlohmann::json;

    WsClient() = default;
    ~WsClient() { disconnect(); }
    WsClient(const WsClient&) = delete;
    WsClient& operator=(const WsClient&) = delete;

    bool connect(int port, std::string& error) {
        char buffer[256] = {};
        m_conn = mg_connect_websocket_client("127.0.0.1", port, 0, buffer, sizeof buffer, "/ws",
                                             nullptr, &WsClient::onData, &WsClient::onClose, this);
        if (!m_conn) error = buffer;
        return m_conn != nullptr;
    }
    void disconnect() {
        if (m_conn) mg_close_connection(m_conn);
        m_conn = nullptr;
    }
    // One write per frame (civetweb's client writes header and payload apart, and the payload
    // then waits for the server's delayed ACK).
    void sendText(const std::string& text) { writeRawFrame(0x80 | MG_WEBSOCKET_OPCODE_TEXT, text); }
    void send(const Json& message) { sendText(message.dump()); }
    // Sends a message in several frames (text, then continuations).
    void sendFragmented(const std::string& text, std::size_t pieces) {
        const std::size_t step = (text.size() + pieces - 1) / pieces;
        for (std::size_t i = 0; i < text.size(); i += step) {
            const bool first = i == 0, last = i + step >= text.size();
            const int opcode =
                (first ? MG_WEBSOCKET_OPCODE_TEXT : MG_WEBSOCKET_OPCODE_CONTINUATION) |
                (last ? 0x80 : 0);
            // civetweb's client write always sets FIN; build the frame header ourselves.
            writeRawFrame(opcode, text.substr(i, step));
        }
    }

    // The next message, or nullopt after `timeout`.
    std::optional<Json> next(std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
        std::unique_lock lock(m_mutex);
        if (!m_wake.wait_for(lock, timeout, [&] { return !m_messages.empty() || m_closed; }))
            return std::nullopt;
        if (m_messages.empty()) return std::nullopt;
        std::string text = std::move(m_messages.front());
        m_messages.pop_front();
        Json j = Json::parse(text, nullptr, false);
        return j;
    }
    // Messages until (and including) the first of `type`; the earlier ones go to `skipped`.
    std::optional<Json> waitFor(const std::string& type, std::vector<Json>* skipped = nullptr,
                                std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (true) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return std::nullopt;
            auto message = next(left);
            if (!message) return std::nullopt;
            if ((*message)["type"] == type) return message;
            if (skipped) skipped->push_back(*message);
        }
    }
    bool closed() {
        std::lock_guard lock(m_mutex);
        return m_closed;
    }
    bool waitClosed(std::chrono::milliseconds timeout) {
        std::unique_lock lock(m_mutex);
        return m_wake.wait_for(lock, timeout, [&] { return m_closed; });
    }

  private:
    static int onData(mg_connection*, int bits, char* data, std::size_t length, void* self) {
        auto* client = static_cast<WsClient*>(self);
        const int opcode = bits & 0x0F;
        std::lock_guard lock(client->m_mutex);
        if (opcode == MG_WEBSOCKET_OPCODE_TEXT) client->m_messages.emplace_back(data, length);
        if (opcode == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE) client->m_closed = true;
        client->m_wake.notify_all();
        return opcode == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE ? 0 : 1;
    }
    static void onClose(const mg_connection*, void* self) {
        auto* client = static_cast<WsClient*>(self);
        std::lock_guard lock(client->m_mutex);
        client->m_closed = true;
        client->m_wake.notify_all();
    }
    void writeRawFrame(int firstByte, const std::string& payload) {
        // Masked client frame (RFC 6455 5.2); the mask is zero, which leaves the data as is.
        std::string frame;
        frame += char(firstByte);
        if (payload.size() < 126) {
            frame += char(0x80 | payload.size());
        } else if (payload.size() < 65536) {
            frame += char(0x80 | 126);
            frame += char((payload.size() >> 8) & 0xFF);
            frame += char(payload.size() & 0xFF);
        } else {
            frame += char(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8)
                frame += char((payload.size() >> shift) & 0xFF);
        }
        frame.append(4, '\0');
        frame += payload;
        mg_lock_connection(m_conn);
        mg_write(m_conn, frame.data(), frame.size());
        mg_unlock_connection(m_conn);
    }

    mg_connection* m_conn = nullptr;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::string> m_messages;
    bool m_closed = false;
};

} // namespace axon::test

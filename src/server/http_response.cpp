// SPDX-License-Identifier: GPL-3.0-or-later
// HTTP response writing over civetweb.
#include "server/http_response.h"

#include <civetweb.h>

namespace axon::server {

namespace {

// Headers every response carries: cross-origin isolation (SharedArrayBuffer for a threaded
// WebAssembly engine), and no MIME sniffing.
constexpr const char* kCommonHeaders = "Cross-Origin-Opener-Policy: same-origin\r\n"
                                       "Cross-Origin-Embedder-Policy: require-corp\r\n"
                                       "Cross-Origin-Resource-Policy: same-origin\r\n"
                                       "X-Content-Type-Options: nosniff\r\n"
                                       "Cache-Control: no-cache\r\n"
                                       "Connection: close\r\n";

} // namespace

void sendHeaders(mg_connection* conn, int status, const char* reason, const std::string& type,
                 std::uintmax_t length) {
    mg_printf(conn, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %ju\r\n%s\r\n", status,
              reason, type.c_str(), length, kCommonHeaders);
}

void sendText(mg_connection* conn, int status, const char* reason, const std::string& type,
              std::string_view body, bool head) {
    sendHeaders(conn, status, reason, type, body.size());
    if (!head) mg_write(conn, body.data(), body.size());
}

void sendStatus(mg_connection* conn, int status, const char* reason, std::string_view detail,
                bool head) {
    std::string body = std::to_string(status) + " " + reason + "\n";
    if (!detail.empty()) body.append(detail).append("\n");
    sendText(conn, status, reason, "text/plain; charset=utf-8", body, head);
}

} // namespace axon::server

// SPDX-License-Identifier: GPL-3.0-or-later
// HTTP responses of `axon serve`: the headers every response carries (cross-origin isolation
// for a threaded WebAssembly build, no MIME sniffing, no caching, one request per connection)
// and the writers of a status line, headers and body.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

struct mg_connection;

namespace axon::server {

// Status line and headers for a body of `length` bytes of `type`.
void sendHeaders(mg_connection* conn, int status, const char* reason, const std::string& type,
                 std::uintmax_t length);
// A whole response; with `head` the body is left out (HEAD requests).
void sendText(mg_connection* conn, int status, const char* reason, const std::string& type,
              std::string_view body, bool head);
// A plain-text status page: "403 Forbidden", then `detail` on a line of its own if given.
void sendStatus(mg_connection* conn, int status, const char* reason, std::string_view detail,
                bool head);

} // namespace axon::server

// SPDX-License-Identifier: GPL-3.0-or-later
// Who may use `axon serve`. Every other web page the user has open can make the browser send
// requests to a server on 127.0.0.1, so two headers are checked before civetweb serves a file
// or upgrades a connection:
//   Host    on every request. A DNS-rebinding page reaches the loopback server under its own
//           domain name, and the browser then sends that name as Host; accepted are IP
//           literals, loopback names (localhost, *.localhost), the bound address and names
//           given with --allow-host.
//   Origin  on every WebSocket handshake (cross-site WebSocket hijacking: a WebSocket is not
//           bound by the same-origin policy). Accepted are the server's own origin (the
//           origin's host and port are the request's Host, or a loopback name on the server's
//           port) and origins given with --allow-origin; "null" and foreign origins are not.
//           A handshake without Origin does not come from a browser page and is accepted.
// Pure functions over header values, unit-tested without a network.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace axon::server {

struct AccessPolicy {
    std::string boundHost = "127.0.0.1"; // the address the server listens on
    int port = 0;                        // the port it listens on (the real one, not 0)
    // --allow-host: further Host names (case-insensitive); ".example.org" allows its subdomains.
    std::vector<std::string> allowedHosts;
    // --allow-origin: further origins, exactly as a browser sends them ("https://app.example").
    std::vector<std::string> allowedOrigins;
};

struct RequestHeaders {
    std::optional<std::string_view> host;   // the Host header, if present
    std::optional<std::string_view> origin; // the Origin header, if present
    bool webSocket = false;                 // a WebSocket handshake (Upgrade, or the /ws path)
};

// nullopt when the request may proceed; otherwise why it is refused (a 403's body).
std::optional<std::string> refuseRequest(const AccessPolicy& policy, const RequestHeaders& headers);

// A Host header's or origin's authority split into a lower-case host and a port (-1 when the
// text gives none). IPv6 literals keep their brackets ("[::1]"). nullopt when malformed.
struct Authority {
    std::string host;
    int port = -1;
};
std::optional<Authority> parseAuthority(std::string_view text);

// "http://host[:port]" and "https://..." with no path; nullopt for "null" or anything else.
struct Origin {
    std::string scheme;
    Authority authority;
};
std::optional<Origin> parseOrigin(std::string_view text);

// localhost, *.localhost, 127.0.0.0/8 and [::1]: names that never leave the machine.
bool isLoopbackHost(std::string_view host);
// A dotted-quad IPv4 address or a bracketed IPv6 literal: no DNS name, so nothing to rebind.
bool isIpLiteral(std::string_view host);

// Whether a client is on this machine: a loopback peer address, a loopback Host, and no Origin
// (not a browser page) or a loopback one. An allowed origin on another host (--allow-origin) is
// not local. Local clients may analyse without the think-time cap (--local-analysis).
bool isLocalClient(std::string_view remoteAddress, std::optional<std::string_view> host,
                   std::optional<std::string_view> origin);

// Checks an --allow-host or --allow-origin value; an error message when it is not usable.
std::optional<std::string> checkAllowedHost(std::string_view name);
std::optional<std::string> checkAllowedOrigin(std::string_view origin);

} // namespace axon::server

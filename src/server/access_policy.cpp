// SPDX-License-Identifier: GPL-3.0-or-later
// The Host and Origin checks of `axon serve` (see access_policy.h for the threat they answer).
#include "server/access_policy.h"

#include <algorithm>
#include <cctype>

namespace axon::server {

namespace {

std::string lowerCase(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool isDigits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
}

// A DNS name as a Host header may carry it: letters, digits, '-', '_' and dots between labels.
bool isHostName(std::string_view host) {
    if (host.empty() || host.size() > 253 || host.front() == '.' || host.back() == '.')
        return false;
    std::size_t label = 0;
    for (const char c : host) {
        if (c == '.') {
            if (label == 0) return false; // an empty label: ".." inside the name
            label = 0;
            continue;
        }
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
        if (++label > 63) return false;
    }
    return true;
}

bool isIpv4(std::string_view host) {
    int parts = 0;
    std::size_t start = 0;
    while (start <= host.size()) {
        std::size_t end = host.find('.', start);
        if (end == std::string_view::npos) end = host.size();
        const std::string_view part = host.substr(start, end - start);
        if (!isDigits(part) || part.size() > 3 || std::stoi(std::string(part)) > 255) return false;
        ++parts;
        start = end + 1;
    }
    return parts == 4;
}

bool isBracketedIpv6(std::string_view host) {
    if (host.size() < 4 || host.front() != '[' || host.back() != ']') return false;
    const std::string_view inside = host.substr(1, host.size() - 2);
    return inside.find(':') != std::string_view::npos &&
           std::all_of(inside.begin(), inside.end(), [](char c) {
               return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
           });
}

int defaultPort(std::string_view scheme) { return scheme == "https" ? 443 : 80; }

bool hostAllowed(const AccessPolicy& policy, const std::string& host) {
    if (isIpLiteral(host) || isLoopbackHost(host) || host == lowerCase(policy.boundHost))
        return true;
    for (const std::string& allowed : policy.allowedHosts) {
        const std::string name = lowerCase(allowed);
        if (name == host) return true;
        // ".example.org" allows every subdomain of example.org (and not example.org itself).
        if (name.size() > 1 && name.front() == '.' && host.size() > name.size() &&
            host.compare(host.size() - name.size(), name.size(), name) == 0)
            return true;
    }
    return false;
}

} // namespace

std::optional<Authority> parseAuthority(std::string_view text) {
    Authority out;
    std::string_view host = text, port;
    if (!text.empty() && text.front() == '[') {
        const std::size_t close = text.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        host = text.substr(0, close + 1);
        const std::string_view rest = text.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':') return std::nullopt;
            port = rest.substr(1);
            if (port.empty()) return std::nullopt;
        }
        if (!isBracketedIpv6(host)) return std::nullopt;
    } else {
        const std::size_t colon = text.find(':');
        if (colon != std::string_view::npos) {
            host = text.substr(0, colon);
            port = text.substr(colon + 1);
            if (port.empty()) return std::nullopt; // also rejects a second ':' (bare IPv6)
        }
        if (!isHostName(host)) return std::nullopt;
    }
    if (!port.empty()) {
        if (!isDigits(port) || port.size() > 5) return std::nullopt;
        out.port = std::stoi(std::string(port));
        if (out.port > 65535) return std::nullopt;
    }
    out.host = lowerCase(host);
    return out;
}

std::optional<Origin> parseOrigin(std::string_view text) {
    const std::size_t separator = text.find("://");
    if (separator == std::string_view::npos) return std::nullopt; // "null", or no scheme
    Origin out;
    out.scheme = lowerCase(text.substr(0, separator));
    if (out.scheme != "http" && out.scheme != "https") return std::nullopt;
    const std::string_view rest = text.substr(separator + 3);
    // An origin is scheme, host and port: no user info, path, query or fragment.
    if (rest.find_first_of("/?#@") != std::string_view::npos) return std::nullopt;
    auto authority = parseAuthority(rest);
    if (!authority) return std::nullopt;
    out.authority = std::move(*authority);
    return out;
}

bool isLocalClient(std::string_view remoteAddress, std::optional<std::string_view> host,
                   std::optional<std::string_view> origin) {
    // civetweb writes an IPv6 peer without brackets.
    const bool loopbackPeer = remoteAddress == "::1" || isLoopbackHost(remoteAddress);
    if (!loopbackPeer || !host) return false;
    const auto authority = parseAuthority(*host);
    if (!authority || !isLoopbackHost(authority->host)) return false;
    if (!origin) return true;
    const auto parsed = parseOrigin(*origin);
    return parsed && isLoopbackHost(parsed->authority.host);
}

bool isLoopbackHost(std::string_view hostText) {
    const std::string host = lowerCase(hostText);
    if (host == "localhost" || host == "[::1]") return true;
    // RFC 6761: browsers resolve *.localhost to loopback themselves, never through DNS.
    constexpr std::string_view kSuffix = ".localhost";
    if (host.size() > kSuffix.size() &&
        host.compare(host.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
        return isHostName(host);
    return isIpv4(host) && host.rfind("127.", 0) == 0;
}

bool isIpLiteral(std::string_view host) { return isIpv4(host) || isBracketedIpv6(host); }

std::optional<std::string> checkAllowedHost(std::string_view name) {
    const std::string_view bare = !name.empty() && name.front() == '.' ? name.substr(1) : name;
    if (!isHostName(bare))
        return "--allow-host '" + std::string(name) +
               "' is not a host name (a name such as chess.example.org, or .example.org for "
               "its subdomains, without a port)";
    return std::nullopt;
}

std::optional<std::string> checkAllowedOrigin(std::string_view origin) {
    if (!parseOrigin(origin))
        return "--allow-origin '" + std::string(origin) +
               "' is not an origin (scheme, host and optional port, such as "
               "https://chess.example.org or http://localhost:5173)";
    return std::nullopt;
}

std::optional<std::string> refuseRequest(const AccessPolicy& policy,
                                         const RequestHeaders& headers) {
    if (!headers.host) return "missing Host header";
    const std::optional<Authority> host = parseAuthority(*headers.host);
    if (!host) return "malformed Host header";
    if (!hostAllowed(policy, host->host))
        return "Host '" + host->host +
               "' is not this server's (a page that renamed 127.0.0.1?); start axon serve with "
               "--allow-host " +
               host->host + " to allow it";
    if (!headers.webSocket || !headers.origin) return std::nullopt;

    const std::string_view originText = *headers.origin;
    for (const std::string& allowed : policy.allowedOrigins) {
        auto a = parseOrigin(allowed), o = parseOrigin(originText);
        if (a && o && a->scheme == o->scheme && a->authority.host == o->authority.host &&
            (a->authority.port < 0 ? defaultPort(a->scheme) : a->authority.port) ==
                (o->authority.port < 0 ? defaultPort(o->scheme) : o->authority.port))
            return std::nullopt;
    }
    const std::string refusal = "WebSocket from origin '" + std::string(originText.substr(0, 200)) +
                                "' refused: only this server's own page may connect (start "
                                "axon serve with --allow-origin ORIGIN to allow another)";
    const std::optional<Origin> origin = parseOrigin(originText);
    if (!origin) return refusal;
    const int originPort =
        origin->authority.port < 0 ? defaultPort(origin->scheme) : origin->authority.port;
    // The page's own origin: the same host and port as the request it sends (the Host check
    // above has vouched for that name). Behind a proxy the Host may carry no port: the
    // scheme's default then.
    const int hostPort = host->port < 0 ? defaultPort(origin->scheme) : host->port;
    if (origin->authority.host == host->host && originPort == hostPort) return std::nullopt;
    // A page of this server under another loopback name (localhost vs 127.0.0.1).
    if ((isLoopbackHost(origin->authority.host) ||
         origin->authority.host == lowerCase(policy.boundHost)) &&
        originPort == policy.port)
        return std::nullopt;
    return refusal;
}

} // namespace axon::server

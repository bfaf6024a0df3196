// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes what `axon serve` reads from an HTTP request before anything is served: the raw URL
// path (mapped into the web root, src/server/static_files.h) and the Host and Origin headers
// (the access policy, src/server/access_policy.h). Input: the path, the Host and the Origin on
// three lines (a missing line is a missing header). Checks: a path is either refused or names a
// file below the root without "..", "." or hidden segments; a request the policy lets through
// names the server by an IP address or a loopback name, and a WebSocket it lets through comes
// from the server's own origin (the policy under test allows nothing extra).
#include <filesystem>
#include <string>

#include "fuzz_check.h"
#include "server/access_policy.h"
#include "server/static_files.h"

using namespace axon::server;
using axon::fuzz::require;

namespace {

std::optional<std::string_view> nextLine(std::string_view& text, bool& more) {
    if (!more) return std::nullopt;
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (end == std::string_view::npos) {
        more = false;
        text = {};
    } else {
        text.remove_prefix(end + 1);
    }
    return line;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text = axon::fuzz::asText(data, size);
    bool more = true;
    const std::string_view path = nextLine(text, more).value_or("");
    const std::optional<std::string_view> host = nextLine(text, more);
    const std::optional<std::string_view> origin = nextLine(text, more);

    if (auto relative = safeRelativePath(path)) {
        require(relative->is_relative(), "a mapped path is relative to the root",
                std::string(path));
        for (const auto& segment : *relative) {
            const std::string name = segment.string();
            require(!name.empty() && name[0] != '.', "no '.', '..' or hidden segments",
                    std::string(path));
            require(name.find('/') == std::string::npos && name.find('\0') == std::string::npos,
                    "segments are plain names", std::string(path));
        }
    }
    std::string decoded;
    (void)percentDecode(path, decoded);

    AccessPolicy policy;
    policy.boundHost = "127.0.0.1";
    policy.port = 8080;
    for (const bool webSocket : {false, true}) {
        if (refuseRequest(policy, RequestHeaders{host, origin, webSocket})) continue;
        require(host.has_value(), "a request without Host is refused");
        const auto authority = parseAuthority(*host);
        require(authority && (isIpLiteral(authority->host) || isLoopbackHost(authority->host)),
                "a served Host is an IP address or a loopback name", std::string(*host));
        if (!webSocket || !origin) continue;
        const auto parsed = parseOrigin(*origin);
        require(parsed.has_value(), "an accepted origin parses", std::string(*origin));
        const int port = parsed->authority.port >= 0 ? parsed->authority.port
                         : parsed->scheme == "https" ? 443
                                                     : 80;
        require(parsed->authority.host == authority->host ||
                    (isLoopbackHost(parsed->authority.host) && port == policy.port),
                "an accepted origin is the server's own", std::string(*origin));
    }
    return 0;
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The Host and Origin checks of `axon serve` without a network: which pages may open a session
// and which Host names are served (DNS rebinding, cross-site WebSocket hijacking).
#include <gtest/gtest.h>

#include "server/access_policy.h"

using namespace axon::server;

namespace {

AccessPolicy loopbackPolicy() {
    AccessPolicy policy;
    policy.boundHost = "127.0.0.1";
    policy.port = 8080;
    return policy;
}

std::optional<std::string> ws(const AccessPolicy& policy, std::optional<std::string_view> host,
                              std::optional<std::string_view> origin) {
    return refuseRequest(policy, RequestHeaders{host, origin, true});
}

std::optional<std::string> http(const AccessPolicy& policy, std::optional<std::string_view> host,
                                std::optional<std::string_view> origin = std::nullopt) {
    return refuseRequest(policy, RequestHeaders{host, origin, false});
}

} // namespace

TEST(ServerAccessPolicy, ParsesAuthorities) {
    auto a = parseAuthority("LocalHost:8080");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->host, "localhost");
    EXPECT_EQ(a->port, 8080);
    a = parseAuthority("[::1]:9");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->host, "[::1]");
    EXPECT_EQ(a->port, 9);
    a = parseAuthority("example.org");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->port, -1);
    for (const char* bad : {"", ":80", "host:", "host:80:80", "host:8o", "host:65536",
                            "host:123456", "::1", "[::1", "[::1]x", "[zz::1]", "a..b", ".a", "a.",
                            "a b", "a/b", "a@b", "127.0.0.1:80@evil", "host\r\nX: y"})
        EXPECT_FALSE(parseAuthority(bad)) << bad;
}

TEST(ServerAccessPolicy, ParsesOrigins) {
    auto o = parseOrigin("HTTP://LocalHost:8080");
    ASSERT_TRUE(o);
    EXPECT_EQ(o->scheme, "http");
    EXPECT_EQ(o->authority.host, "localhost");
    EXPECT_EQ(o->authority.port, 8080);
    for (const char* bad : {"null", "", "localhost:8080", "file://", "file:///etc/passwd",
                            "ftp://a.org", "http://", "http://a.org/", "http://a.org/path",
                            "http://u@a.org", "http://a.org?x", "chrome-extension://abc"})
        EXPECT_FALSE(parseOrigin(bad)) << bad;
}

TEST(ServerAccessPolicy, KnowsLoopbackNamesAndIpLiterals) {
    for (const char* name :
         {"localhost", "LOCALHOST", "app.localhost", "127.0.0.1", "127.1.2.3", "[::1]"})
        EXPECT_TRUE(isLoopbackHost(name)) << name;
    for (const char* name : {"localhost.evil.com", "evillocalhost", "128.0.0.1", "127.0.0",
                             "127.0.0.1.evil.com", "10.0.0.1", "[::2]", ".localhost"})
        EXPECT_FALSE(isLoopbackHost(name)) << name;
    for (const char* ip : {"10.0.0.1", "192.168.1.20", "0.0.0.0", "[fe80::1]", "[::ffff:1.2.3.4]"})
        EXPECT_TRUE(isIpLiteral(ip)) << ip;
    for (const char* name : {"1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.04x", "evil.com", "[]"})
        EXPECT_FALSE(isIpLiteral(name)) << name;
}

TEST(ServerAccessPolicy, ServesOnlyRequestsNamingThisServer) {
    const AccessPolicy policy = loopbackPolicy();
    for (const char* host : {"127.0.0.1:8080", "localhost:8080", "localhost", "[::1]:8080",
                             "192.168.1.20:8080", "axon.localhost:8080"})
        EXPECT_FALSE(http(policy, host)) << host;
    for (const char* host : {"evil.example.com", "evil.example.com:8080", "localhost.evil.com",
                             "127.0.0.1.nip.io:8080", "", "a b"})
        EXPECT_TRUE(http(policy, host)) << host;
    auto refusal = http(policy, std::nullopt);
    ASSERT_TRUE(refusal);
    EXPECT_EQ(*refusal, "missing Host header");
    refusal = http(policy, "rebind.example:8080");
    ASSERT_TRUE(refusal);
    EXPECT_NE(refusal->find("--allow-host rebind.example"), std::string::npos) << *refusal;
    // A foreign Origin on a plain request is the browser's business (no CORS headers are sent).
    EXPECT_FALSE(http(policy, "127.0.0.1:8080", "http://evil.example.com"));
}

TEST(ServerAccessPolicy, AllowsExtraHostNames) {
    AccessPolicy policy = loopbackPolicy();
    policy.allowedHosts = {"Chess.Example.org", ".lan.example"};
    EXPECT_FALSE(http(policy, "chess.example.org"));
    EXPECT_FALSE(http(policy, "chess.example.org:443"));
    EXPECT_TRUE(http(policy, "www.chess.example.org"));
    EXPECT_FALSE(http(policy, "pc.lan.example:8080"));
    EXPECT_TRUE(http(policy, "lan.example"));
    EXPECT_TRUE(http(policy, "evil-lan.example"));
    // A non-loopback bind serves its own address (an IP literal) and nothing more.
    policy = loopbackPolicy();
    policy.boundHost = "0.0.0.0";
    EXPECT_FALSE(http(policy, "10.1.2.3:8080"));
    EXPECT_TRUE(http(policy, "my-laptop:8080"));
}

TEST(ServerAccessPolicy, AcceptsWebSocketsFromTheServersOwnPageOnly) {
    const AccessPolicy policy = loopbackPolicy();
    EXPECT_FALSE(ws(policy, "127.0.0.1:8080", "http://127.0.0.1:8080"));
    EXPECT_FALSE(ws(policy, "127.0.0.1:8080", "http://localhost:8080"));
    EXPECT_FALSE(ws(policy, "localhost:8080", "http://127.0.0.1:8080"));
    EXPECT_FALSE(ws(policy, "[::1]:8080", "http://[::1]:8080"));
    EXPECT_FALSE(ws(policy, "127.0.0.1:8080", std::nullopt)); // not a browser
    // The same server reached by its LAN address (bound to 0.0.0.0): same origin as its Host.
    EXPECT_FALSE(ws(policy, "192.168.1.20:8080", "http://192.168.1.20:8080"));

    for (const char* origin :
         {"http://evil.example.com", "https://evil.example.com:8080", "null",
          "http://localhost:3000", "http://127.0.0.1", "http://localhost",
          "http://localhost:8080.evil.com", "http://192.168.1.20:8080", "file://", "garbage"}) {
        auto refusal = ws(policy, "127.0.0.1:8080", origin);
        ASSERT_TRUE(refusal) << origin;
        EXPECT_NE(refusal->find("--allow-origin"), std::string::npos) << *refusal;
    }
    // DNS rebinding: origin and Host agree, but the Host is a foreign name.
    EXPECT_TRUE(ws(policy, "evil.example.com:8080", "http://evil.example.com:8080"));
}

TEST(ServerAccessPolicy, AllowsExtraOriginsExactly) {
    AccessPolicy policy = loopbackPolicy();
    policy.allowedOrigins = {"http://localhost:5173", "https://App.Example.org"};
    EXPECT_FALSE(ws(policy, "127.0.0.1:8080", "http://localhost:5173"));
    EXPECT_FALSE(ws(policy, "127.0.0.1:8080", "https://app.example.org"));
    EXPECT_FALSE(ws(policy, "127.0.0.1:8080", "https://app.example.org:443"));
    EXPECT_TRUE(ws(policy, "127.0.0.1:8080", "http://app.example.org"));
    EXPECT_TRUE(ws(policy, "127.0.0.1:8080", "http://localhost:5174"));
    EXPECT_TRUE(ws(policy, "127.0.0.1:8080", "https://sub.app.example.org"));
}

TEST(ServerAccessPolicy, ChecksCommandLineAllowLists) {
    EXPECT_FALSE(checkAllowedHost("chess.example.org"));
    EXPECT_FALSE(checkAllowedHost(".example.org"));
    for (const char* bad : {"", ".", "http://a.org", "a.org:80", "a b", "*"})
        EXPECT_TRUE(checkAllowedHost(bad)) << bad;
    EXPECT_FALSE(checkAllowedOrigin("http://localhost:5173"));
    EXPECT_FALSE(checkAllowedOrigin("https://app.example.org"));
    for (const char* bad : {"", "null", "*", "localhost:5173", "http://a.org/", "ws://a.org"})
        EXPECT_TRUE(checkAllowedOrigin(bad)) << bad;
}

TEST(ServerAccessPolicy, LocalClientsAreOnThisMachineWithALoopbackHostAndOrigin) {
    using std::nullopt;
    EXPECT_TRUE(isLocalClient("127.0.0.1", "127.0.0.1:8080", nullopt));
    EXPECT_TRUE(isLocalClient("127.0.0.1", "localhost:8080", "http://localhost:8080"));
    EXPECT_TRUE(isLocalClient("::1", "[::1]:8080", "http://[::1]:8080"));
    EXPECT_TRUE(isLocalClient("127.0.0.1", "axon.localhost", "http://127.0.0.1:8080"));
    // Another machine, or a name that may lead elsewhere, or a page from elsewhere.
    EXPECT_FALSE(isLocalClient("192.168.1.20", "127.0.0.1:8080", nullopt));
    EXPECT_FALSE(isLocalClient("127.0.0.1", "192.168.1.5:8080", nullopt));
    EXPECT_FALSE(isLocalClient("127.0.0.1", "example.org", nullopt));
    EXPECT_FALSE(isLocalClient("127.0.0.1", nullopt, nullopt));
    EXPECT_FALSE(isLocalClient("127.0.0.1", "localhost:8080", "https://app.example.org"));
    EXPECT_FALSE(isLocalClient("127.0.0.1", "localhost:8080", "null"));
    EXPECT_FALSE(isLocalClient("", "localhost", nullopt));
}

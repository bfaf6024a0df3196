// SPDX-License-Identifier: GPL-3.0-or-later
// Static file serving: path resolution inside the web root, MIME types, and the responses.
#include "server/static_files.h"

#include <civetweb.h>

#include <array>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "server/http_response.h"

namespace axon::server {

namespace fs = std::filesystem;

namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Is `inner` (canonical) inside `root` (canonical)?
bool isWithin(const fs::path& root, const fs::path& inner) {
    auto r = root.begin(), i = inner.begin();
    for (; r != root.end(); ++r, ++i)
        if (i == inner.end() || *r != *i) return false;
    return true;
}

} // namespace

bool percentDecode(std::string_view in, std::string& out) {
    out.clear();
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] != '%') {
            out += in[i];
            continue;
        }
        if (i + 2 >= in.size()) return false;
        const int hi = hexValue(in[i + 1]), lo = hexValue(in[i + 2]);
        if (hi < 0 || lo < 0) return false;
        const char c = char(hi * 16 + lo);
        if (c == '\0') return false;
        out += c;
        i += 2;
    }
    return true;
}

std::optional<fs::path> safeRelativePath(std::string_view rawUrlPath) {
    // The query string is not part of the path.
    if (const auto q = rawUrlPath.find('?'); q != std::string_view::npos)
        rawUrlPath = rawUrlPath.substr(0, q);
    std::string path;
    if (!percentDecode(rawUrlPath, path)) return std::nullopt;
    if (path.empty() || path[0] != '/' || path.find('\\') != std::string::npos) return std::nullopt;
    // Control characters (a raw NUL above all: the file system would read the name only up to
    // it, so "index.html\0.png" would open index.html) are no part of a file name we serve.
    for (const char c : path)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return std::nullopt;
    // Each segment must be a plain name: no "..", no "." and no hidden files.
    fs::path relative;
    std::size_t start = 1;
    while (start <= path.size()) {
        std::size_t end = path.find('/', start);
        if (end == std::string::npos) end = path.size();
        const std::string segment = path.substr(start, end - start);
        if (!segment.empty()) {
            if (segment[0] == '.') return std::nullopt;
            relative /= segment;
        }
        start = end + 1;
    }
    return relative;
}

ResolvedPath resolveStaticPath(const fs::path& root, std::string_view rawUrlPath) {
    ResolvedPath result;
    result.verdict = PathVerdict::Forbidden;
    const std::optional<fs::path> relative = safeRelativePath(rawUrlPath);
    if (!relative) return result;
    std::error_code ec;
    const fs::path canonicalRoot = fs::canonical(root, ec);
    if (ec) return result;
    fs::path candidate = canonicalRoot / *relative;
    if (fs::is_directory(candidate, ec)) candidate /= "index.html";
    const fs::path real = fs::canonical(candidate, ec);
    result.verdict = PathVerdict::NotFound;
    if (ec || !fs::is_regular_file(real, ec)) return result;
    // A symbolic link inside the root that points outside it is refused too.
    if (!isWithin(canonicalRoot, real)) {
        result.verdict = PathVerdict::Forbidden;
        return result;
    }
    result.verdict = PathVerdict::Ok;
    result.file = real;
    return result;
}

std::string mimeTypeFor(const fs::path& file) {
    static const std::array<std::pair<const char*, const char*>, 19> kTypes = {{
        {".html", "text/html; charset=utf-8"},
        {".htm", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".json", "application/json"},
        {".map", "application/json"},
        {".wasm", "application/wasm"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".jpg", "image/jpeg"},
        {".jpeg", "image/jpeg"},
        {".gif", "image/gif"},
        {".ico", "image/x-icon"},
        {".webp", "image/webp"},
        {".woff", "font/woff"},
        {".woff2", "font/woff2"},
        {".txt", "text/plain; charset=utf-8"},
        {".pgn", "application/x-chess-pgn"},
    }};
    std::string ext = file.extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& [e, type] : kTypes)
        if (ext == e) return type;
    return "application/octet-stream";
}

const std::string& builtInIndexPage() {
    static const std::string kPage = R"(<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Axon</title></head>
<body>
<h1>Axon is running</h1>
<p>The web front end is not built, so there is nothing to play with here yet.</p>
<p>Build it (<code>cd web &amp;&amp; npm ci &amp;&amp; npm run build</code>, which writes
<code>web/dist</code>), then restart <code>axon serve</code>, or point it at a build with
<code>axon serve --web-root DIR</code>.</p>
<p>The engine itself is ready: its WebSocket JSON API is at <code>/ws</code>
(see <code>docs/server.md</code>).</p>
</body>
</html>
)";
    return kPage;
}

fs::path defaultWebRoot() {
#ifdef AXON_SOURCE_DIR
    std::error_code ec;
    const fs::path dist = fs::path(AXON_SOURCE_DIR) / "web" / "dist";
    if (fs::is_directory(dist, ec)) return dist;
#endif
    return {};
}

void serveStatic(mg_connection* conn, const fs::path& root) {
    const mg_request_info* info = mg_get_request_info(conn);
    const std::string method = info->request_method ? info->request_method : "";
    const bool head = method == "HEAD";
    if (method != "GET" && !head) return sendStatus(conn, 405, "Method Not Allowed", {}, false);
    // The raw path: civetweb's cleaned local_uri would hide a traversal attempt from us.
    const char* raw = info->local_uri_raw ? info->local_uri_raw : info->local_uri;
    const std::string_view path = raw ? raw : "";
    if (root.empty()) {
        if (path == "/" || path == "/index.html")
            return sendText(conn, 200, "OK", "text/html; charset=utf-8", builtInIndexPage(), head);
        if (!safeRelativePath(path)) return sendStatus(conn, 403, "Forbidden", {}, head);
        return sendStatus(conn, 404, "Not Found", {}, head);
    }
    const ResolvedPath resolved = resolveStaticPath(root, path);
    if (resolved.verdict == PathVerdict::Forbidden)
        return sendStatus(conn, 403, "Forbidden", {}, head);
    if (resolved.verdict == PathVerdict::NotFound)
        return sendStatus(conn, 404, "Not Found", {}, head);
    std::ifstream in(resolved.file, std::ios::binary);
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(resolved.file, ec);
    if (!in || ec) return sendStatus(conn, 404, "Not Found", {}, head);
    sendHeaders(conn, 200, "OK", mimeTypeFor(resolved.file), size);
    if (head) return;
    std::vector<char> buffer(64 * 1024);
    while (in) {
        in.read(buffer.data(), std::streamsize(buffer.size()));
        const std::streamsize got = in.gcount();
        if (got <= 0 || mg_write(conn, buffer.data(), std::size_t(got)) <= 0) break;
    }
}

} // namespace axon::server

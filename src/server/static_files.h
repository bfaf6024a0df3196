// SPDX-License-Identifier: GPL-3.0-or-later
// Static files for the web front end: URL paths mapped into the web root with traversal
// refused, MIME types, the headers a threaded WebAssembly build needs (COOP/COEP), and a
// built-in page when no front end has been built. The mapping is pure and unit-tested; the
// response writing is the civetweb glue.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

struct mg_connection;

namespace axon::server {

enum class PathVerdict {
    Ok,        // `file` names an existing regular file inside the root
    NotFound,  // well-formed, but nothing is there
    Forbidden, // escapes the root, or is malformed (bad %-escape, NUL, backslash, dot-file)
};

struct ResolvedPath {
    PathVerdict verdict = PathVerdict::NotFound;
    std::filesystem::path file;
};

// The path below the web root that a raw (still %-encoded) URL path names, or nullopt when it
// is malformed or tries to leave the root ("..", "%2e%2e", backslashes, hidden files).
std::optional<std::filesystem::path> safeRelativePath(std::string_view rawUrlPath);

// Maps a raw (still %-encoded) URL path such as "/assets/app.js" into `root`; a directory
// maps to its index.html. `root` must exist.
ResolvedPath resolveStaticPath(const std::filesystem::path& root, std::string_view rawUrlPath);

// Decodes %XX escapes; false on a malformed escape or an encoded NUL.
bool percentDecode(std::string_view in, std::string& out);

// "text/html; charset=utf-8", "application/wasm", ...: by extension, octet-stream otherwise.
std::string mimeTypeFor(const std::filesystem::path& file);

// The page served at "/" when there is no web root: says how to build the front end.
const std::string& builtInIndexPage();

// web/dist in the source tree this binary was built from, when it exists; empty otherwise.
std::filesystem::path defaultWebRoot();

// Answers one HTTP request for a static file: GET and HEAD only, every response with the
// COOP/COEP headers. An empty `root` serves only the built-in page.
void serveStatic(mg_connection* conn, const std::filesystem::path& root);

} // namespace axon::server

// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers for the unit tests: locating shared data and parsing FENs that must be valid.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

#include "chess/fen.h"

namespace axon::test {

// True in ASan/UBSan and TSan builds (tests/CMakeLists.txt), where the code runs 5-20x slower:
// a test whose cost is repeating the same paths (deeper perft counts, a stream read many times)
// does less of it there; the release build runs it whole.
#ifdef AXON_SANITIZED_BUILD
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif

// Path of a file under the shared data folder (../shared/data beside the checkout).
inline std::filesystem::path sharedData(const std::string& relative) {
    const char* env = std::getenv("AXON_SHARED_DATA");
    return std::filesystem::path(env ? env : AXON_SHARED_DATA_DIR) / relative;
}

// Skips (never passes) a test whose data is missing; in CI missing data is a failure.
#define AXON_REQUIRE_DATA(path)                                                                    \
    do {                                                                                           \
        if (!std::filesystem::exists(path)) {                                                      \
            if (std::getenv("CI")) FAIL() << "missing test data " << (path);                       \
            GTEST_SKIP() << "missing test data " << (path);                                        \
        }                                                                                          \
    } while (0)

// A path in the temporary folder that no other test process uses: ctest runs each test in its
// own process, two at a time, so a fixed name would let them overwrite each other's files.
inline std::filesystem::path uniqueTempPath(const std::string& name) {
    return std::filesystem::temp_directory_path() /
           ("axon-test-" + std::to_string(::getpid()) + "-" + name);
}

// A fresh, empty folder from uniqueTempPath, removed with its contents when the test process
// exits.
inline std::string scratchDir(const std::string& name) {
    struct Cleanup {
        std::vector<std::filesystem::path> dirs;
        ~Cleanup() {
            std::error_code ec;
            for (const auto& d : dirs) std::filesystem::remove_all(d, ec);
        }
    };
    static Cleanup cleanup;
    const auto path = uniqueTempPath(name);
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
    cleanup.dirs.push_back(path);
    return path.string();
}

// A whole file's bytes (empty when it cannot be read), and a file written with `bytes`.
inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
inline void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

inline chess::Position fen(const std::string& text) {
    auto pos = chess::parseFen(text);
    EXPECT_TRUE(pos.ok()) << text << ": " << (pos.ok() ? "" : pos.error());
    return pos.ok() ? *pos : chess::startPosition();
}

} // namespace axon::test

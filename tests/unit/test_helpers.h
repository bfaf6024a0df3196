// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers for the unit tests: locating shared data and parsing FENs that must be valid.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "chess/fen.h"

namespace axon::test {

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

inline chess::Position fen(const std::string& text) {
    auto pos = chess::parseFen(text);
    EXPECT_TRUE(pos.ok()) << text << ": " << (pos.ok() ? "" : pos.error());
    return pos.ok() ? *pos : chess::startPosition();
}

} // namespace axon::test

// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the PGN tests: read a whole stream, keeping the games and the errors of skipped ones.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "chess/pgn_reader.h"

namespace axon::test {

struct ReadAll {
    std::vector<chess::PgnGame> games;
    std::vector<std::string> errors;
    std::vector<chess::PgnError> kinds;
    std::vector<chess::PgnGame> skipped; // what was read of each skipped game
};

inline ReadAll readAll(std::istream& in, chess::PgnReaderOptions options = {}) {
    ReadAll all;
    chess::PgnReader reader(in, options);
    chess::PgnGame game;
    // Bounded, so a reader that stopped advancing fails the test instead of hanging it.
    for (int guard = 0; guard < 1'000'000; ++guard) {
        auto r = reader.next(game);
        if (!r.ok()) {
            all.errors.push_back(r.error());
            all.kinds.push_back(reader.lastError());
            all.skipped.push_back(game);
            continue;
        }
        if (!*r) break;
        all.games.push_back(game);
    }
    return all;
}

inline ReadAll readText(const std::string& text, chess::PgnReaderOptions options = {}) {
    std::istringstream in(text);
    return readAll(in, options);
}

} // namespace axon::test

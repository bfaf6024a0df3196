// SPDX-License-Identifier: GPL-3.0-or-later
// `genfens`: the opening positions OpenBench's DATAGEN workloads ask the engine for (its worker
// runs `./engine "genfens N seed S book <None|FILE> [extra]" "quit"` and reads every line
// `info string genfens FEN`). Random legal plies from the start position or from a book
// position, each result checked by a short search, distinct and deterministic in the seed
// (docs/openbench.md).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/evaluator.h"
#include "util/result.h"

namespace axon::engine {

// Random plies played from the start position, and from a book position (which is already past
// the first moves); one more half of the time, so both sides get to move first.
constexpr int kGenfensStartPlies = 8;
constexpr int kGenfensBookPlies = 2;
// The verification search: soft node budget (no iteration starts after it) and the hard cap as
// a multiple of it. Small enough for thousands of openings in seconds, deep enough to see a
// piece hanging.
constexpr std::uint64_t kGenfensNodes = 1000;
constexpr std::uint64_t kGenfensHardNodesFactor = 8;
// Openings whose verification score is further from zero than this are rejected: the random
// plies decided the game. The same bound as `axon datagen` discards its openings with.
constexpr int kGenfensMaxScore = 1000;
// Bounds that keep a hostile request from running (or allocating) without end.
constexpr std::uint64_t kGenfensMaxCount = 10'000'000;
constexpr int kGenfensMaxPlies = 200;
constexpr std::uint64_t kGenfensMaxNodes = 100'000'000;
// A request that cannot be met (a one-line book with no random plies, a window nothing fits)
// gives up after this many rejected candidates in a row.
constexpr std::uint64_t kGenfensMaxRejectsInARow = 100'000;

struct GenfensRequest {
    std::uint64_t count = 0;
    std::uint64_t seed = 0;
    std::string book;                    // EPD/FEN lines; empty: the start position ("None")
    int plies = -1;                      // -1: kGenfensStartPlies or kGenfensBookPlies
    std::uint64_t nodes = kGenfensNodes; // verification search budget
    int maxScore = kGenfensMaxScore;

    int basePlies() const {
        return plies >= 0 ? plies : book.empty() ? kGenfensStartPlies : kGenfensBookPlies;
    }
};

// Parses the words after `genfens`: "N seed S book <None|FILE>", then the optional extras
// "plies P", "nodes K" and "maxscore CP" (OpenBench appends a test's genfens arguments there).
// Errors name the word at fault.
util::Result<GenfensRequest> parseGenfensArguments(std::string_view arguments);

// The positions of an opening book: one EPD or FEN per line (blank lines and lines starting
// with '#' skipped), or for a file named *.pgn each game's position after its mainline. Every
// entry is checked on loading, so a bad book fails at once, naming "FILE:LINE" (or the game and
// its line), whatever the seed.
struct GenfensBook {
    std::vector<std::string> positions; // EPD lines as written, or FENs
};
util::Result<GenfensBook> loadGenfensBook(const std::string& path);

struct GenfensStats {
    std::uint64_t generated = 0;
    // Candidates rejected: the game was over, the score was out of the window, or the position
    // had been generated already.
    std::uint64_t terminal = 0, outOfWindow = 0, duplicates = 0;
};

// Generates request.count distinct openings, calling `emit` with each FEN (six fields) as soon
// as it is found; verification searches evaluate with `evalSource` on one thread. The same
// request gives the same FENs in the same order. Errors: a book that cannot be read or parsed,
// or too many rejections in a row.
util::Result<GenfensStats> generateFens(const GenfensRequest& request,
                                        const eval::EvalSource& evalSource,
                                        const std::function<void(const std::string& fen)>& emit);

} // namespace axon::engine

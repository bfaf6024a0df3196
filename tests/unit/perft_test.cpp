// SPDX-License-Identifier: GPL-3.0-or-later
// Perft suites written by others (standard, Chess960, tricky, random), plus key consistency.
#include <fstream>

#include "chess/movegen.h"
#include "chess/perft.h"
#include "chess/perft_suite.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;

// Runs every expectation of a suite up to a node budget per check, so the whole suite stays
// within CI's time; deeper counts run in bench/perft.sh.
void runSuite(const std::string& file, std::uint64_t maxNodes, int* checks = nullptr) {
    const auto path = sharedData(file);
    AXON_REQUIRE_DATA(path);
    std::ifstream in(path);
    auto suite = readPerftSuite(in);
    ASSERT_TRUE(suite.ok()) << suite.error();
    int count = 0;
    for (const PerftCase& c : *suite) {
        auto pos = parseFen(c.fen);
        ASSERT_TRUE(pos.ok()) << c.fen << ": " << pos.error();
        for (auto [depth, expected] : c.expected) {
            if (expected > maxNodes) continue;
            EXPECT_EQ(perft(*pos, depth), expected) << c.name << " " << c.fen << " depth " << depth;
            ++count;
        }
    }
    EXPECT_GT(count, 0);
    if (checks) *checks = count;
}

// Sanitizer builds count every position of each suite to a lower node budget: the same move
// generation paths, fewer repetitions of them (RandomSuite alone took 89 s under ASan).
constexpr std::uint64_t budget(std::uint64_t release, std::uint64_t sanitized) {
    return kSanitizedBuild ? sanitized : release;
}

TEST(Perft, StandardSuite) { runSuite("perft/standard.epd", budget(20'000'000, 2'000'000)); }
TEST(Perft, Chess960Suite) { runSuite("perft/fischer.epd", budget(2'000'000, 100'000)); }
TEST(Perft, TrickySuite) { runSuite("perft/tricky.perft", budget(50'000'000, 5'000'000)); }
TEST(Perft, RandomSuite) { runSuite("perft/random.perft", budget(500'000, 20'000)); }

// Every position reached in a low-depth tree: incremental keys equal recomputed ones, the
// bitboards agree with the board, and unmake restores everything.
void walk(Position& pos, int depth) {
    ASSERT_TRUE(pos.isConsistent()) << toFen(pos);
    if (depth == 0) return;
    const Key before = pos.key();
    const MoveList moves(pos);
    EXPECT_EQ(moves.size(), countLegalMoves(pos)) << toFen(pos);
    for (const Move m : moves) {
        pos.makeMove(m);
        walk(pos, depth - 1);
        pos.unmakeMove();
        ASSERT_EQ(pos.key(), before);
    }
}

TEST(Perft, KeysMatchRecomputationInTrees) {
    const auto path = sharedData("perft/standard.epd");
    AXON_REQUIRE_DATA(path);
    std::ifstream in(path);
    auto suite = readPerftSuite(in);
    ASSERT_TRUE(suite.ok());
    for (const PerftCase& c : *suite) {
        Position pos = fen(c.fen);
        walk(pos, 3);
    }
}

} // namespace
} // namespace axon::test

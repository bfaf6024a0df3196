// SPDX-License-Identifier: GPL-3.0-or-later
// Incremental accumulators equal accumulators computed from scratch, bit for bit, over random
// move sequences that include castling (Chess960 too), en passant, promotions, null moves,
// unmakes and king bucket or mirror changes; evaluations equal the plain reference.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "chess/uci_move.h"
#include "nn/accumulator.h"
#include "nn_playout.h"
#include "nn_test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;

TEST(NnAccumulator, DirtyPiecesOfSpecialMoves) {
    // Castling: king and rook both move (king "captures" its rook in the encoding).
    Position pos = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    auto d = nn::dirtyPieces(pos, Move(E1, H1, MoveType::Castling));
    ASSERT_EQ(d.numRemoved, 2);
    ASSERT_EQ(d.numAdded, 2);
    EXPECT_EQ(d.removed[1].square, H1);
    EXPECT_EQ(d.added[0].square, G1);
    EXPECT_EQ(d.added[1].square, F1);
    // En passant removes the pawn behind the target square.
    pos = fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    d = nn::dirtyPieces(pos, Move(E5, D6, MoveType::EnPassant));
    ASSERT_EQ(d.numRemoved, 2);
    EXPECT_EQ(d.removed[1].square, D5);
    EXPECT_EQ(d.removed[1].piece, BlackPawn);
    // A capturing promotion: pawn and victim out, the new piece in.
    pos = fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    d = nn::dirtyPieces(pos, Move(A7, B8, MoveType::Promotion, Queen));
    ASSERT_EQ(d.numRemoved, 2);
    ASSERT_EQ(d.numAdded, 1);
    EXPECT_EQ(d.added[0].piece, WhiteQueen);
    EXPECT_EQ(d.removed[1].piece, BlackRook);
}

TEST(NnAccumulator, IncrementalEqualsRefreshAfterRandomMoves) {
    const auto positions = playPositions();
    ASSERT_GE(positions.size(), 40u);
    for (const NetVariant& v : netVariants()) {
        const nn::Network net = nn::makeRandomNetwork(makeArch(v), 11);
        nn::AccumulatorStack stack(net), fresh(net);
        util::Prng rng(2024);
        PlayoutCounts counts;
        PlayoutHooks hooks;
        hooks.reset = [&](const Position& p) { stack.reset(p); };
        hooks.push = [&](const Position& p, Move m) { stack.push(p, m); };
        hooks.pushNull = [&] { stack.pushNull(); };
        hooks.pop = [&] { stack.pop(); };
        hooks.check = [&](const Position& p) {
            fresh.reset(p);
            for (const Color c : {White, Black}) {
                ASSERT_EQ(std::memcmp(stack.accumulator(p, c), fresh.accumulator(p, c),
                                      sizeof(std::int16_t) * std::size_t(v.hidden)),
                          0)
                    << v.name << " perspective " << int(c) << " " << toFen(p);
            }
            const int eval = stack.evaluate(p);
            ASSERT_EQ(eval, nn::evaluateReference(net, p)) << v.name << " " << toFen(p);
        };
        // Checking about one position in three leaves chains of unmaterialised entries.
        for (const Position& start : positions)
            ASSERT_NO_FATAL_FAILURE(playout(start, net.arch, 100, 3, rng, hooks, counts));

        SCOPED_TRACE(v.name);
        std::printf("[ info     ] %s: %d plies, %d checked, %d pops, %d null, %d captures, "
                    "%d castlings (%d Chess960), %d en passant, %d promotions, %d king crossings\n",
                    v.name, counts.plies, counts.evaluations, counts.pops, counts.nullMoves,
                    counts.captures, counts.castlings, counts.chess960Castlings, counts.enPassants,
                    counts.promotions, counts.orientationChanges);
        EXPECT_GT(counts.plies, 10'000);
        EXPECT_GT(counts.evaluations, 3'000);
        EXPECT_GT(counts.pops, 500);
        EXPECT_GT(counts.nullMoves, 500);
        EXPECT_GT(counts.captures, 500);
        EXPECT_GT(counts.castlings, 100);
        EXPECT_GT(counts.chess960Castlings, 30);
        EXPECT_GT(counts.enPassants, 20);
        EXPECT_GT(counts.promotions, 50);
        if (v.inputBuckets > 1 || v.mirror) {
            EXPECT_GT(counts.orientationChanges, 100);
        }
        // Incremental updates did the bulk of the work: the stack refreshed only at resets and
        // (from its cache) after king crossings, not once per evaluation.
        EXPECT_GT(stack.stats().updates, stack.stats().refreshes + stack.stats().cachedRefreshes);
        if (v.inputBuckets > 1 || v.mirror) {
            EXPECT_GT(stack.stats().cachedRefreshes, 100u);
        } else {
            EXPECT_EQ(stack.stats().cachedRefreshes, 0u);
        }
    }
}

// Positions never evaluated cost no accumulator work: pushing and popping alone computes
// nothing, and the first evaluation after a long chain updates each entry once per side.
TEST(NnAccumulator, MaterialisationIsLazy) {
    const nn::Network net = nn::makeRandomNetwork(makeArch({"t", 32, 1, false, 1}), 5);
    nn::AccumulatorStack stack(net);
    Position pos = fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    stack.reset(pos);
    const auto base = stack.stats();
    const char* line[] = {"f1b5", "a7a6", "b5a4", "g8f6", "e1g1"};
    for (const char* uci : line) {
        auto parsed = parseUciMove(pos, uci);
        ASSERT_TRUE(parsed.ok()) << uci;
        const Move found = *parsed;
        stack.push(pos, found);
        pos.makeMove(found);
    }
    EXPECT_EQ(stack.stats().updates, base.updates);
    EXPECT_EQ(stack.stats().refreshes, base.refreshes);
    stack.evaluate(pos);
    EXPECT_EQ(stack.stats().updates - base.updates, 2u * 5);
    EXPECT_EQ(stack.stats().refreshes, base.refreshes);
    stack.evaluate(pos);
    EXPECT_EQ(stack.stats().updates - base.updates, 2u * 5);
}

// Deeper than the stack's initial room (a game's history pushed move by move may be): the
// stack grows and stays exact. Knights shuffle so the game never ends.
TEST(NnAccumulator, StackGrowsBeyondMaxPly) {
    const nn::Network net = nn::makeRandomNetwork(makeArch({"t", 32, 16, true, 8}), 9);
    nn::AccumulatorStack stack(net);
    Position pos = startPosition();
    stack.reset(pos);
    const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    const int depth = 3 * kMaxPly;
    for (int i = 0; i < depth; ++i) {
        auto m = parseUciMove(pos, cycle[i % 4]);
        ASSERT_TRUE(m.ok());
        stack.push(pos, *m);
        pos.makeMove(*m);
        if (i % 37 == 0) {
            ASSERT_EQ(stack.evaluate(pos), nn::evaluateReference(net, pos)) << i;
        }
    }
    EXPECT_EQ(stack.size(), depth + 1);
    ASSERT_EQ(stack.evaluate(pos), nn::evaluateReference(net, pos));
    for (int i = 0; i < depth; ++i) {
        stack.pop();
        pos.unmakeMove();
    }
    ASSERT_EQ(stack.evaluate(pos), nn::evaluateReference(net, pos));
}

} // namespace
} // namespace axon::test

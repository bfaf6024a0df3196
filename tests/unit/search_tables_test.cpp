// SPDX-License-Identifier: GPL-3.0-or-later
// The search's learnt tables: the transposition table's replacement and ageing (which entry of a
// full cluster gives way, what survives a shallower store, hashfull per search), the history
// gravity update, and correction history (it converges on the error it is shown, per pawn
// structure and per side's pieces, and stays bounded).
#include <gtest/gtest.h>

#include <memory>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "search/correction.h"
#include "search/history.h"
#include "search/movepick.h"
#include "search/params.h"
#include "search/tt.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;
using namespace search;

// A 1 MiB table has 16,384 clusters, chosen by the key's top 14 bits: keys that share them
// share a cluster of four entries.
constexpr Key kClusterBits = Key(0x2A5) << 50;
Key keyInCluster(int n) { return kClusterBits | Key(0x1000 + 7 * n); }

TEST(TranspositionTable, SameKeyKeepsADeeperResultOfThisSearchAndItsMove) {
    TranspositionTable tt;
    tt.resize(1);
    const Key key = keyInCluster(0);
    TTData data;
    tt.store(key, Move(E2, E4), 40, 10, 12, Bound::Lower, false);
    tt.store(key, Move::none(), -5, 10, 3, Bound::Upper, false); // much shallower: ignored
    ASSERT_TRUE(tt.probe(key, data));
    EXPECT_EQ(data.depth, 12);
    EXPECT_EQ(data.score, 40);

    tt.store(key, Move::none(), 7, 10, 10, Bound::Upper, false); // close in depth: replaces
    ASSERT_TRUE(tt.probe(key, data));
    EXPECT_EQ(data.depth, 10);
    EXPECT_EQ(data.score, 7);
    EXPECT_EQ(data.move, Move(E2, E4)) << "a store without a move keeps the old one";

    tt.store(key, Move(D2, D4), 15, 10, 1, Bound::Exact, true); // exact: always replaces
    ASSERT_TRUE(tt.probe(key, data));
    EXPECT_EQ(data.depth, 1);
    EXPECT_EQ(data.move, Move(D2, D4));
    EXPECT_EQ(data.bound, Bound::Exact);
    EXPECT_TRUE(data.wasPv);

    tt.newSearch(); // a deep result of an earlier search gives way to anything
    tt.store(key, Move(E2, E4), 40, 10, 30, Bound::Lower, false);
    tt.newSearch();
    tt.store(key, Move::none(), 0, 10, 2, Bound::Upper, false);
    ASSERT_TRUE(tt.probe(key, data));
    EXPECT_EQ(data.depth, 2);
}

TEST(TranspositionTable, AFullClusterEvictsItsShallowestEntry) {
    TranspositionTable tt;
    tt.resize(1);
    const int depths[] = {10, 3, 8, 12};
    for (int i = 0; i < 4; ++i)
        tt.store(keyInCluster(i), Move(E2, E4), i, 0, depths[i], Bound::Lower, false);
    TTData data;
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(tt.probe(keyInCluster(i), data)) << i;

    tt.store(keyInCluster(4), Move(D2, D4), 99, 0, 5, Bound::Lower, false);
    ASSERT_TRUE(tt.probe(keyInCluster(4), data));
    EXPECT_FALSE(tt.probe(keyInCluster(1), data)) << "the depth-3 entry gives way";
    for (int i : {0, 2, 3}) EXPECT_TRUE(tt.probe(keyInCluster(i), data)) << i;
}

TEST(TranspositionTable, OldSearchesGiveWayToShallowerNewOnes) {
    TranspositionTable tt;
    tt.resize(1);
    for (int i = 0; i < 3; ++i)
        tt.store(keyInCluster(i), Move(E2, E4), 0, 0, 20, Bound::Lower, false);
    for (int s = 0; s < 6; ++s) tt.newSearch(); // six searches later, depth 20 is worth 20 - 24
    tt.store(keyInCluster(3), Move(E2, E4), 0, 0, 2, Bound::Lower, false);
    tt.store(keyInCluster(4), Move(E2, E4), 0, 0, 2, Bound::Lower, false);
    TTData data;
    EXPECT_TRUE(tt.probe(keyInCluster(3), data)) << "the fresh shallow entry stays";
    EXPECT_TRUE(tt.probe(keyInCluster(4), data));
    int oldLeft = 0;
    for (int i = 0; i < 3; ++i) oldLeft += tt.probe(keyInCluster(i), data);
    EXPECT_EQ(oldLeft, 2) << "one stale deep entry made room";
}

TEST(TranspositionTable, HashfullCountsOnlyThisSearch) {
    TranspositionTable tt;
    tt.resize(1);
    EXPECT_EQ(tt.hashfull(), 0);
    // Fill the first clusters, which hashfull samples: cluster c holds keys with top bits c.
    for (Key c = 0; c < 250; ++c)
        for (Key e = 0; e < 4; ++e)
            tt.store((c << 50) | (e + 1), Move(E2, E4), 0, 0, 5, Bound::Exact, false);
    EXPECT_EQ(tt.hashfull(), 1000);
    tt.newSearch();
    EXPECT_EQ(tt.hashfull(), 0) << "entries of an earlier search are not counted";
    TTData data;
    EXPECT_TRUE(tt.probe(Key(7) << 50 | 1, data)) << "...but still found";
}

TEST(History, GravityKeepsEntriesBoundedAndSymmetric) {
    std::int16_t up = 0, down = 0;
    for (int i = 0; i < 1000; ++i) {
        applyBonus<kHistoryMax>(up, 1600);
        applyBonus<kHistoryMax>(down, -1600);
        ASSERT_LE(up, kHistoryMax);
        ASSERT_GE(down, -kHistoryMax);
    }
    EXPECT_GT(up, kHistoryMax * 9 / 10) << "repeated bonuses approach the maximum";
    EXPECT_EQ(up, -down);
    applyBonus<kHistoryMax>(up, -100000); // an oversized malus is clamped to one full step
    EXPECT_GE(up, -kHistoryMax);
    EXPECT_LT(up, 0);
}

TEST(History, ARewardedQuietMoveIsPickedFirstAmongQuiets) {
    const Position pos = fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    auto butterfly = std::make_unique<ButterflyHistory>();
    auto captures = std::make_unique<CaptureHistory>();
    auto continuation = std::make_unique<PieceToHistory>();
    clearTable(*butterfly);
    clearTable(*captures);
    clearTable(*continuation);
    const Move bishop = Move(F1, C4);
    ASSERT_TRUE(MoveList(pos).contains(bishop));
    // Only the continuation table knows the move, as after a cutoff two plies down.
    applyBonus<kHistoryMax>((*continuation)[pos.movedPiece(bishop)][bishop.to()], 1200);
    const Threats threats(pos);
    const OrderingTables tables{
        butterfly.get(), captures.get(), {nullptr, continuation.get()}, &threats};
    MovePicker picker(pos, Move::none(), Move::none(), Move::none(), Move::none(), tables);
    EXPECT_EQ(picker.quietScore(bishop), 1200);
    Move first;
    for (Move m = picker.next(); m; m = picker.next())
        if (!pos.isNoisy(m)) {
            first = m;
            break;
        }
    EXPECT_EQ(first, bishop);
}

TEST(CorrectionHistory, ConvergesOnTheErrorPerPawnStructure) {
    auto correction = std::make_unique<CorrectionHistory>();
    const Position a = fen("4k3/pp3ppp/8/8/8/8/PP3PPP/4K3 w - - 0 1");
    const Position b = fen("4k3/pp3ppp/8/8/8/3P4/PP3PP1/4K3 w - - 0 1");
    EXPECT_EQ(correction->correction(a), 0);
    for (int i = 0; i < 400; ++i) correction->update(a, 50, 12);
    const int learnt = correction->correction(a);
    const int expected =
        50 * (params::correctionPawnWeight + 2 * params::correctionNonPawnWeight) / 100;
    EXPECT_NEAR(learnt, expected, expected / 10 + 1);
    // Another pawn structure shares both non-pawn tables (kings only) but not the pawn one.
    EXPECT_NEAR(correction->correction(b), 50 * 2 * params::correctionNonPawnWeight / 100, 6);
    // Black to move reads its own tables.
    const Position blackToMove = fen("4k3/pp3ppp/8/8/8/8/PP3PPP/4K3 b - - 0 1");
    EXPECT_EQ(correction->correction(blackToMove), 0);
}

TEST(CorrectionHistory, StaysBoundedAndFollowsTheSign) {
    auto correction = std::make_unique<CorrectionHistory>();
    const Position pos = fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    for (int i = 0; i < 1000; ++i) correction->update(pos, 30000, 20);
    const int bound = CorrectionHistory::kMax / CorrectionHistory::kGrain *
                      (params::correctionPawnWeight + 2 * params::correctionNonPawnWeight) / 100;
    EXPECT_LE(correction->correction(pos), bound);
    EXPECT_GT(correction->correction(pos), 0);
    for (int i = 0; i < 1000; ++i) correction->update(pos, -200, 20);
    EXPECT_LT(correction->correction(pos), 0) << "a new error replaces the old one";
    correction->clear();
    EXPECT_EQ(correction->correction(pos), 0);
}

} // namespace
} // namespace axon::test

// SPDX-License-Identifier: GPL-3.0-or-later
// Time-control parsing and the match clock: increments, move periods, and losses on time.
#include <gtest/gtest.h>

#include "match/time_control.h"

namespace axon::match {
namespace {

TEST(MatchTimeControl, ParsesClockForms) {
    auto tc = parseTimeControl("40/60+0.6");
    ASSERT_TRUE(tc.ok()) << tc.error();
    EXPECT_EQ(tc->kind, TimeControl::Kind::Clock);
    EXPECT_EQ(tc->movesPerPeriod, 40);
    EXPECT_EQ(tc->baseMs, 60000);
    EXPECT_EQ(tc->incrementMs, 600);
    EXPECT_EQ(tc->pgnTag(), "40/60+0.6");

    tc = parseTimeControl("10+0.1");
    ASSERT_TRUE(tc.ok());
    EXPECT_EQ(tc->movesPerPeriod, 0);
    EXPECT_EQ(tc->baseMs, 10000);
    EXPECT_EQ(tc->incrementMs, 100);
    EXPECT_EQ(tc->pgnTag(), "10+0.1");

    tc = parseTimeControl("5+0.05");
    ASSERT_TRUE(tc.ok());
    EXPECT_EQ(tc->baseMs, 5000);
    EXPECT_EQ(tc->incrementMs, 50);
    EXPECT_EQ(tc->pgnTag(), "5+0.05");

    tc = parseTimeControl("0.5");
    ASSERT_TRUE(tc.ok());
    EXPECT_EQ(tc->baseMs, 500);
    EXPECT_EQ(tc->incrementMs, 0);
    EXPECT_EQ(tc->pgnTag(), "0.5");
}

TEST(MatchTimeControl, ParsesFixedLimits) {
    auto tc = parseTimeControl("nodes=5000");
    ASSERT_TRUE(tc.ok());
    EXPECT_EQ(tc->kind, TimeControl::Kind::Nodes);
    EXPECT_EQ(tc->nodes, 5000);
    EXPECT_EQ(tc->pgnTag(), "-");
    EXPECT_EQ(tc->describe(), "nodes=5000");

    tc = parseTimeControl("depth=7");
    ASSERT_TRUE(tc.ok());
    EXPECT_EQ(tc->kind, TimeControl::Kind::Depth);
    EXPECT_EQ(tc->depth, 7);

    tc = parseTimeControl("movetime=250");
    ASSERT_TRUE(tc.ok());
    EXPECT_EQ(tc->kind, TimeControl::Kind::MoveTime);
    EXPECT_EQ(tc->moveTimeMs, 250);
}

TEST(MatchTimeControl, RejectsMalformedText) {
    for (const char* bad : {"", "abc", "10+", "+1", "0+1", "/60", "40/", "x/60", "10+a", "-5",
                            "nodes=", "nodes=0", "depth=-1", "speed=3", "1e3", "10+0.1+2"})
        EXPECT_FALSE(parseTimeControl(bad).ok()) << bad;
}

TEST(MatchTimeControl, ClockAddsIncrementAndFlagsOverruns) {
    const TimeControl tc = *parseTimeControl("10+0.1");
    GameClock clock(tc, tc, 50);
    EXPECT_EQ(clock.remainingMs(chess::White), 10000);
    EXPECT_TRUE(clock.consume(chess::White, 2000));
    EXPECT_EQ(clock.remainingMs(chess::White), 8100);
    EXPECT_EQ(clock.remainingMs(chess::Black), 10000);
    EXPECT_EQ(clock.movesToGo(chess::White), 0);
    // Within the margin: allowed, the clock bottoms out at zero, then gets the increment.
    EXPECT_EQ(clock.deadlineMs(chess::White), 8150);
    EXPECT_TRUE(clock.consume(chess::White, 8140));
    EXPECT_EQ(clock.remainingMs(chess::White), 100);
    // Beyond it: lost on time.
    EXPECT_FALSE(clock.consume(chess::White, 151));
}

TEST(MatchTimeControl, ClockRefillsAfterEachPeriod) {
    const TimeControl tc = *parseTimeControl("2/10");
    GameClock clock(tc, tc, 0);
    EXPECT_EQ(clock.movesToGo(chess::Black), 2);
    EXPECT_TRUE(clock.consume(chess::Black, 3000));
    EXPECT_EQ(clock.movesToGo(chess::Black), 1);
    EXPECT_TRUE(clock.consume(chess::Black, 3000));
    EXPECT_EQ(clock.movesToGo(chess::Black), 2);
    EXPECT_EQ(clock.remainingMs(chess::Black), 14000);
}

TEST(MatchTimeControl, SidesMayHaveDifferentControls) {
    GameClock clock(*parseTimeControl("10"), *parseTimeControl("1+1"), 0);
    EXPECT_EQ(clock.remainingMs(chess::White), 10000);
    EXPECT_EQ(clock.remainingMs(chess::Black), 1000);
    EXPECT_EQ(clock.incrementMs(chess::Black), 1000);
    EXPECT_EQ(clock.incrementMs(chess::White), 0);
}

} // namespace
} // namespace axon::match

// SPDX-License-Identifier: GPL-3.0-or-later
// The progress lines' ETA and rate (util/progress_format.h): datagen, label and the trainer print
// them, and an unknown ETA must print as "?", never as garbage from an infinite division.
#include <gtest/gtest.h>

#include <limits>

#include "util/progress_format.h"

namespace axon::test {
namespace {

TEST(ProgressFormat, DurationsInHoursMinutesOrSeconds) {
    EXPECT_EQ(util::formatDuration(0), "0s");
    EXPECT_EQ(util::formatDuration(12.4), "12s");
    EXPECT_EQ(util::formatDuration(59.6), "1m00s");
    EXPECT_EQ(util::formatDuration(187), "3m07s");
    EXPECT_EQ(util::formatDuration(7500), "2h05m");
}

TEST(ProgressFormat, AnUnknownDurationIsAQuestionMark) {
    EXPECT_EQ(util::formatDuration(-1), "?");
    EXPECT_EQ(util::formatDuration(std::numeric_limits<double>::infinity()), "?");
    EXPECT_EQ(util::formatDuration(std::numeric_limits<double>::quiet_NaN()), "?");
    EXPECT_EQ(util::formatDuration(1e12), "?");
}

TEST(ProgressFormat, RateIsZeroBeforeAnyTimeHasPassed) {
    EXPECT_EQ(util::ratePerSecond(500, 0), 0);
    EXPECT_EQ(util::ratePerSecond(500, 2), 250);
}

} // namespace
} // namespace axon::test

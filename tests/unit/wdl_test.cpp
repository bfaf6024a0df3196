// SPDX-License-Identifier: GPL-3.0-or-later
// WDL model: rates sum to 1000, move the right way with the score, are symmetric, and the
// material count follows the model's definition.
#include "search/score.h"
#include "search/wdl.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace search;

TEST(Wdl, SumsToOneThousand) {
    for (int material = 0; material <= 100; material += 3)
        for (int score = -3000; score <= 3000; score += 17) {
            const Wdl w = wdlFromScore(score, material);
            EXPECT_EQ(w.win + w.draw + w.loss, 1000) << score << " " << material;
            EXPECT_GE(w.win, 0);
            EXPECT_GE(w.draw, 0);
            EXPECT_GE(w.loss, 0);
        }
}

TEST(Wdl, MonotonicInScore) {
    for (int material = kWdlMinMaterial; material <= kWdlMaxMaterial; ++material) {
        Wdl previous = wdlFromScore(-2000, material);
        for (int score = -1999; score <= 2000; ++score) {
            const Wdl w = wdlFromScore(score, material);
            EXPECT_GE(w.win, previous.win) << score << " " << material;
            EXPECT_LE(w.loss, previous.loss) << score << " " << material;
            previous = w;
        }
        EXPECT_GT(wdlFromScore(400, material).win, wdlFromScore(0, material).win);
    }
}

TEST(Wdl, SymmetricAndDrawishAtZero) {
    for (int material = kWdlMinMaterial; material <= kWdlMaxMaterial; material += 5) {
        for (int score = 0; score <= 1500; score += 25) {
            const Wdl plus = wdlFromScore(score, material), minus = wdlFromScore(-score, material);
            EXPECT_EQ(plus.win, minus.loss);
            EXPECT_EQ(plus.loss, minus.win);
            EXPECT_EQ(plus.draw, minus.draw);
        }
        const Wdl even = wdlFromScore(0, material);
        EXPECT_EQ(even.win, even.loss);
    }
    // A big advantage is nearly always a win.
    EXPECT_GT(wdlFromScore(1500, 40).win, 950);
}

TEST(Wdl, MateScoresAreCertain) {
    const Wdl win = wdlFromScore(mateIn(5), 30), loss = wdlFromScore(-mateIn(4), 30);
    EXPECT_EQ(win.win, 1000);
    EXPECT_EQ(loss.loss, 1000);
    EXPECT_EQ(win.draw + loss.draw, 0);
}

TEST(Wdl, MaterialCountIsClamped) {
    EXPECT_EQ(wdlMaterial(chess::startPosition()), 78);
    // K+R+P v K+R: 11, clamped up.
    EXPECT_EQ(wdlMaterial(fen("8/8/4k3/8/4P3/3RK3/8/r7 w - - 0 1")), kWdlMinMaterial);
    // Queens 9 + 9, rook 5, minors 3 + 3, pawns 3: 32.
    EXPECT_EQ(wdlMaterial(fen("3qk3/pp6/8/8/8/8/5P2/2BQKR1N w - - 0 1")), 32);
}

} // namespace
} // namespace axon::test

// SPDX-License-Identifier: GPL-3.0-or-later
// Per-search settings of the engine facade: ranges checked, the strength and line count of one
// search taken from them, and the engine's options left as they were.
#include <gtest/gtest.h>

#include <atomic>

#include "engine/engine.h"

using namespace axon;

TEST(EngineSearchSettings, ChecksRanges) {
    EXPECT_FALSE(engine::checkSearchSettings({}));
    EXPECT_FALSE(engine::checkSearchSettings({256, 1000, 0}));
    EXPECT_FALSE(engine::checkSearchSettings({1, 2400, 20}));
    auto error = engine::checkSearchSettings({0, std::nullopt, std::nullopt});
    ASSERT_TRUE(error);
    EXPECT_EQ(*error, "multipv must be from 1 to 256, not 0");
    error = engine::checkSearchSettings({std::nullopt, 999, std::nullopt});
    ASSERT_TRUE(error);
    EXPECT_EQ(*error, "elo must be from 1000 to 2400, not 999");
    EXPECT_TRUE(engine::checkSearchSettings({std::nullopt, 2401, std::nullopt}));
    EXPECT_TRUE(engine::checkSearchSettings({std::nullopt, std::nullopt, 21}));
    EXPECT_TRUE(engine::checkSearchSettings({std::nullopt, std::nullopt, -1}));
}

TEST(EngineSearchSettings, StrengthComesFromTheSettingsBeforeTheOptions) {
    engine::Engine e;
    EXPECT_FALSE(e.skill().enabled);
    EXPECT_TRUE(e.skill({std::nullopt, 1500, std::nullopt}).enabled);
    EXPECT_EQ(e.skill({std::nullopt, 1500, std::nullopt}).elo, 1500);
    EXPECT_TRUE(e.skill({std::nullopt, std::nullopt, 5}).enabled);
    EXPECT_FALSE(e.skill({std::nullopt, std::nullopt, 20}).enabled);
    // Elo wins over a skill level, as UCI_LimitStrength wins over Skill Level.
    EXPECT_EQ(e.skill({std::nullopt, 2000, 3}).elo, 2000);
    ASSERT_FALSE(e.options().set("UCI_LimitStrength", "true"));
    ASSERT_FALSE(e.options().set("UCI_Elo", "1200"));
    EXPECT_EQ(e.skill().elo, 1200);
    EXPECT_EQ(e.skill({std::nullopt, 2200, std::nullopt}).elo, 2200);
}

TEST(EngineSearchSettings, MultiPvOfOneSearchLeavesTheOptionAlone) {
    engine::Engine e;
    search::SearchLimits limits;
    limits.nodes = 3000;
    std::atomic<int> most{0};
    engine::Engine::Callbacks callbacks;
    callbacks.onInfo = [&](const search::SearchInfo& info) {
        if (info.multiPv > most) most = info.multiPv;
    };
    e.go(limits, callbacks, {3, std::nullopt, std::nullopt});
    e.wait();
    EXPECT_EQ(most, 3);
    EXPECT_EQ(e.options().find("MultiPV")->value, "1");
    most = 0;
    e.go(limits, callbacks);
    e.wait();
    EXPECT_EQ(most, 1);
}

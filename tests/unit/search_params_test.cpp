// SPDX-License-Identifier: GPL-3.0-or-later
// Search parameters as the engine offers them: none in a normal build (the search's numbers are
// constants and bench is the signature), `Tune_<name>` options in a tune build (-DAXON_TUNE=ON).
#include <gtest/gtest.h>

#include <string>

#include "engine/engine.h"
#include "search/params.h"

namespace axon {
namespace {

int tuneOptionCount(const engine::Engine& e) {
    int count = 0;
    for (const auto& o : e.options().all()) count += o.name.rfind("Tune_", 0) == 0;
    return count;
}

#ifndef AXON_TUNE
TEST(SearchParams, NormalBuildOffersNoTuneOptions) {
    EXPECT_TRUE(search::params::tunables().empty());
    engine::Engine e;
    EXPECT_EQ(tuneOptionCount(e), 0);
    EXPECT_TRUE(e.options().set("Tune_rfpMargin", "100").has_value());
}
#else
TEST(SearchParams, TuneBuildOffersEveryParameter) {
    engine::Engine e;
    EXPECT_EQ(tuneOptionCount(e), int(search::params::tunables().size()));
    EXPECT_FALSE(e.options().set("Tune_rfpMargin", "100").has_value());
    EXPECT_EQ(search::params::rfpMargin, 100);
    EXPECT_TRUE(e.options().set("Tune_rfpMargin", "100000").has_value()); // out of range
    EXPECT_EQ(search::params::rfpMargin, 100);
    EXPECT_FALSE(e.options().set("Tune_rfpMargin", "80").has_value());
}
#endif

} // namespace
} // namespace axon

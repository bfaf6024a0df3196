// SPDX-License-Identifier: GPL-3.0-or-later
// The tune build's parameter registry (search/params.h), compiled here with AXON_TUNE on: every
// parameter is listed once, with its default inside its range, and writes reach the variable
// the search reads.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "search/params.h"

namespace axon::search::params {
namespace {

TEST(TuneParams, EveryParameterListedOnceWithItsDefault) {
    std::set<std::string> names;
#define AXON_PARAM_NAME(name, value, lo, hi) names.insert(#name);
    AXON_SEARCH_PARAMS(AXON_PARAM_NAME)
#undef AXON_PARAM_NAME
    ASSERT_EQ(tunables().size(), names.size());
    std::set<std::string> listed;
    for (const Tunable& t : tunables()) {
        EXPECT_TRUE(listed.insert(t.name).second) << t.name;
        EXPECT_EQ(names.count(t.name), 1u) << t.name;
        EXPECT_LE(t.min, t.defaultValue);
        EXPECT_LE(t.defaultValue, t.max);
        EXPECT_EQ(*t.value, t.defaultValue) << t.name;
    }
}

TEST(TuneParams, WritesReachTheSearchVariable) {
    for (const Tunable& t : tunables()) {
        if (std::string(t.name) != "rfpMargin") continue;
        *t.value = t.max;
        EXPECT_EQ(rfpMargin, t.max);
        *t.value = t.defaultValue;
        return;
    }
    FAIL() << "rfpMargin is not tunable";
}

} // namespace
} // namespace axon::search::params

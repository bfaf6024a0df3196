// SPDX-License-Identifier: GPL-3.0-or-later
// Pooling two-engine match summaries (the JSON `axon match --json` writes): the runs of one
// comparison played with different seeds or stopped on their own, added into one pentanomial
// count with its Elo and LLR. A pooled LLR is not one sequential test; the report says so.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "match/stats.h"
#include "util/result.h"

namespace axon::match {

// What pooling needs of one summary.
struct RunSummary {
    std::array<std::string, 2> engines;
    std::string limit; // "nodes=20000", "tc=8+0.08", ...
    MatchScore score;
    std::optional<SprtConfig> sprt;
};

// Reads a two-engine summary as summaryJson writes it. Errors name what is missing or wrong:
// the text is a file's and not trusted (a tournament's summary, a truncated file, counts that
// do not add up).
util::Result<RunSummary> parseRunSummary(std::string_view json);

struct PooledRuns {
    std::array<std::string, 2> engines;
    std::string limit;
    int runs = 0;
    MatchScore score;
    EloEstimate elo;
    std::optional<SprtConfig> sprtConfig; // given, or the one every run shares
    std::optional<SprtResult> sprt;
};

// Adds the runs' counts. Every run must pit the same two engines, in the same order, at the same
// limit; `sprt` overrides the runs' own bounds (which must otherwise agree, or none is computed).
util::Result<PooledRuns> poolRuns(const std::vector<RunSummary>& runs,
                                  const std::optional<SprtConfig>& sprt);

// The report printed by `axon pool`: the match summary's lines for the pooled counts.
std::string formatPooled(const PooledRuns& pooled);

} // namespace axon::match

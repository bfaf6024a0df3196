// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the match-summary reader of `axon pool` (match/pool.h): any text is either refused with
// a reason or read as counts that add up (W + L + D = games, at least two games per counted
// pair); pooling a run with itself doubles every count, keeps the Elo, and formats a report.
#include <cmath>

#include "fuzz_check.h"
#include "match/pool.h"

using namespace axon;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(fuzz::asText(data, size));
    auto run = match::parseRunSummary(text);
    if (!run) {
        require(!run.error().empty(), "a refusal gives a reason", text.substr(0, 300));
        return 0;
    }
    const match::MatchScore& s = run->score;
    require(s.wins >= 0 && s.losses >= 0 && s.draws >= 0, "counts are not negative");
    require(2 * s.pairs() <= s.games(), "every counted pair has its two games");
    auto pooled = match::poolRuns({*run, *run}, std::nullopt);
    require(bool(pooled), "a run pools with itself", pooled ? "" : pooled.error());
    require(pooled->score.games() == 2 * s.games(), "pooling a run twice doubles its games");
    for (std::size_t i = 0; i < 5; ++i)
        require(pooled->score.pentanomial[i] == 2 * s.pentanomial[i], "pentanomial doubles");
    require(std::isfinite(pooled->elo.elo) && std::isfinite(pooled->elo.error95),
            "the pooled Elo is finite");
    require(run->sprt.has_value() == pooled->sprt.has_value(),
            "a run's bounds carry over to its pool");
    if (pooled->sprt) require(std::isfinite(pooled->sprt->llr), "the pooled LLR is finite");
    require(!match::formatPooled(*pooled).empty(), "a pool has a report");
    return 0;
}

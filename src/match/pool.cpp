// SPDX-License-Identifier: GPL-3.0-or-later
// Pooling two-engine match summaries: parsing the JSON, checking that the runs compare the same
// thing, adding their counts.
#include "match/pool.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "match/match.h"

namespace axon::match {

namespace {

using util::makeError;

// Far beyond any match, small enough that sums of many runs cannot overflow.
constexpr std::int64_t kMaxCount = 1'000'000'000'000;

// A count: an integer in [0, kMaxCount].
std::optional<std::int64_t> countIn(const nlohmann::json& value) {
    if (value.is_number_unsigned()) {
        const auto n = value.get<std::uint64_t>();
        return n <= std::uint64_t(kMaxCount) ? std::optional<std::int64_t>(std::int64_t(n))
                                             : std::nullopt;
    }
    if (!value.is_number_integer()) return std::nullopt;
    const auto n = value.get<std::int64_t>();
    return n >= 0 && n <= kMaxCount ? std::optional<std::int64_t>(n) : std::nullopt;
}

std::optional<std::int64_t> countOf(const nlohmann::json& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() ? std::nullopt : countIn(*it);
}

std::optional<double> numberOf(const nlohmann::json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
}

util::Result<SprtConfig> parseSprt(const nlohmann::json& sprt) {
    if (!sprt.is_object()) return makeError("\"sprt\" is not an object");
    SprtConfig config;
    const auto elo0 = numberOf(sprt, "elo0"), elo1 = numberOf(sprt, "elo1"),
               alpha = numberOf(sprt, "alpha"), beta = numberOf(sprt, "beta");
    if (!elo0 || !elo1 || !alpha || !beta)
        return makeError("\"sprt\" needs the numbers elo0, elo1, alpha and beta");
    config.elo0 = *elo0;
    config.elo1 = *elo1;
    config.alpha = *alpha;
    config.beta = *beta;
    if (!(config.alpha > 0 && config.alpha < 1 && config.beta > 0 && config.beta < 1 &&
          config.elo1 > config.elo0))
        return makeError("\"sprt\" needs 0 < alpha, beta < 1 and elo0 < elo1");
    return config;
}

bool sameSprt(const SprtConfig& a, const SprtConfig& b) {
    return a.elo0 == b.elo0 && a.elo1 == b.elo1 && a.alpha == b.alpha && a.beta == b.beta;
}

} // namespace

util::Result<RunSummary> parseRunSummary(std::string_view json) {
    const nlohmann::json root = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
    if (root.is_discarded()) return makeError("not valid JSON");
    if (!root.is_object()) return makeError("not a match summary (a JSON object)");
    if (root.contains("ranking"))
        return makeError("a tournament's summary: pooling takes two-engine matches");
    RunSummary run;
    const auto engines = root.find("engines");
    if (engines == root.end() || !engines->is_array() || engines->size() != 2 ||
        !(*engines)[0].is_string() || !(*engines)[1].is_string())
        return makeError("\"engines\" is not a list of two names");
    run.engines = {(*engines)[0].get<std::string>(), (*engines)[1].get<std::string>()};
    const auto limit = root.find("time_control");
    if (limit == root.end() || !limit->is_string()) return makeError("\"time_control\" is missing");
    run.limit = limit->get<std::string>();

    const auto wins = countOf(root, "wins"), losses = countOf(root, "losses"),
               draws = countOf(root, "draws");
    if (!wins || !losses || !draws)
        return makeError("\"wins\", \"losses\" and \"draws\" must be counts (0 to 10^12)");
    run.score.wins = *wins;
    run.score.losses = *losses;
    run.score.draws = *draws;
    if (const auto games = countOf(root, "games"); !games || *games != run.score.games())
        return makeError("\"games\" is not wins + losses + draws");
    const auto penta = root.find("pentanomial");
    if (penta == root.end() || !penta->is_array() || penta->size() != 5)
        return makeError("\"pentanomial\" is not a list of five counts");
    for (std::size_t i = 0; i < 5; ++i) {
        const auto count = countIn((*penta)[i]);
        if (!count) return makeError("\"pentanomial\" is not a list of five counts");
        run.score.pentanomial[i] = *count;
    }
    // A pair's two games are in the W/L/D counts too; games of an unfinished pair may be extra.
    if (2 * run.score.pairs() > run.score.games())
        return makeError("the pentanomial counts more game pairs than there are games");
    if (const auto sprt = root.find("sprt"); sprt != root.end()) {
        auto config = parseSprt(*sprt);
        if (!config) return makeError(config.error());
        run.sprt = *config;
    }
    return run;
}

util::Result<PooledRuns> poolRuns(const std::vector<RunSummary>& runs,
                                  const std::optional<SprtConfig>& sprt) {
    if (runs.empty()) return makeError("no runs to pool");
    PooledRuns pooled;
    pooled.engines = runs[0].engines;
    pooled.limit = runs[0].limit;
    pooled.sprtConfig = sprt ? sprt : runs[0].sprt;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunSummary& run = runs[i];
        const std::string which = "run " + std::to_string(i + 1);
        if (run.engines != pooled.engines)
            return makeError(which + " is " + run.engines[0] + " vs " + run.engines[1] +
                             ", run 1 " + pooled.engines[0] + " vs " + pooled.engines[1]);
        if (run.limit != pooled.limit)
            return makeError(which + " played at " + run.limit + ", run 1 at " + pooled.limit);
        // Runs with different bounds have no common test unless the caller names one.
        if (!sprt && pooled.sprtConfig && (!run.sprt || !sameSprt(*run.sprt, *pooled.sprtConfig)))
            pooled.sprtConfig.reset();
        pooled.score.wins += run.score.wins;
        pooled.score.losses += run.score.losses;
        pooled.score.draws += run.score.draws;
        for (std::size_t k = 0; k < 5; ++k) pooled.score.pentanomial[k] += run.score.pentanomial[k];
    }
    pooled.runs = int(runs.size());
    pooled.elo = estimateElo(pooled.score);
    if (pooled.sprtConfig) pooled.sprt = computeSprt(pooled.score, *pooled.sprtConfig);
    return pooled;
}

std::string formatPooled(const PooledRuns& pooled) {
    std::ostringstream o;
    o << "\nPooled " << pooled.runs << (pooled.runs == 1 ? " run" : " runs") << " of "
      << pooled.engines[0] << " vs " << pooled.engines[1] << " (" << pooled.limit << "):\n";
    o << formatScoreLines(pooled.score, pooled.elo, pooled.sprtConfig, pooled.sprt, false);
    if (pooled.runs > 1 && pooled.sprt)
        o << "  The LLR is that of the pooled games: each run stopped on its own, so it is not "
             "one sequential test.\n";
    return o.str();
}

} // namespace axon::match

// SPDX-License-Identifier: GPL-3.0-or-later
// The gate's blocks: one axon match per block (match::runMatch), its counts written to
// block-NNNNN.json and its games moved into block-NNNNN.pgn when the block is whole.
#include "grow/gate.h"

#include <nlohmann/json.hpp>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "match/match.h"
#include "match/time_control.h"
#include "util/atomic_file.h"

namespace axon::grow {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string blockPath(const std::string& dir, int block, const char* extension) {
    char name[32];
    std::snprintf(name, sizeof name, "block-%05d.%s", block, extension);
    return (fs::path(dir) / name).string();
}

util::Result<match::MatchScore> readBlock(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return util::makeError("cannot read " + path);
    std::stringstream text;
    text << in.rdbuf();
    match::MatchScore s;
    try {
        const json j = json::parse(text.str());
        s.wins = j.at("wins").get<std::int64_t>();
        s.draws = j.at("draws").get<std::int64_t>();
        s.losses = j.at("losses").get<std::int64_t>();
        s.pentanomial = j.at("pentanomial").get<std::array<std::int64_t, 5>>();
    } catch (const std::exception& e) {
        return util::makeError(path + ": damaged (" + e.what() + ")");
    }
    std::int64_t pairs = 0;
    for (std::int64_t n : s.pentanomial) pairs += n;
    // Pair i of the pentanomial count scores i half-points: together they are 2W + D.
    std::int64_t halfPoints = 0;
    for (int i = 0; i < 5; ++i) halfPoints += i * s.pentanomial[std::size_t(i)];
    if (s.wins < 0 || s.draws < 0 || s.losses < 0 || pairs * 2 != s.games() ||
        halfPoints != 2 * s.wins + s.draws)
        return util::makeError(path + ": its counts do not add up");
    for (std::int64_t n : s.pentanomial)
        if (n < 0) return util::makeError(path + ": its counts do not add up");
    return s;
}

void addScore(match::MatchScore& total, const match::MatchScore& s) {
    total.wins += s.wins;
    total.draws += s.draws;
    total.losses += s.losses;
    for (int i = 0; i < 5; ++i) total.pentanomial[i] += s.pentanomial[i];
}

// Reads every block in order; `blocks` gets their number.
util::Result<match::MatchScore> pooledBlocks(const std::string& dir, int& blocks) {
    match::MatchScore total;
    blocks = 0;
    for (;; ++blocks) {
        const std::string path = blockPath(dir, blocks, "json");
        std::error_code ec;
        if (!fs::exists(path, ec)) break;
        auto s = readBlock(path);
        if (!s) return util::makeError(s.error());
        addScore(total, *s);
    }
    return total;
}

} // namespace

GateOutcome outcomeOf(const match::MatchScore& score, const GatePlan& plan) {
    GateOutcome o;
    o.wins = score.wins;
    o.draws = score.draws;
    o.losses = score.losses;
    o.pentanomial = score.pentanomial;
    if (score.games() > 0) {
        const match::EloEstimate elo = match::estimateElo(score);
        o.elo = elo.elo;
        o.error95 = elo.error95;
    }
    if (score.pairs() > 0 && !plan.fixedLength) {
        const match::SprtResult sprt = match::computeSprt(score, plan.sprt);
        o.llr = sprt.llr;
        if (score.games() >= plan.minGames) {
            if (sprt.state == match::SprtState::AcceptH1) o.verdict = GateVerdict::AcceptH1;
            if (sprt.state == match::SprtState::AcceptH0) o.verdict = GateVerdict::AcceptH0;
        }
    }
    if (o.verdict == GateVerdict::Running && score.games() >= plan.maxGames)
        o.verdict = GateVerdict::MaxGames;
    return o;
}

GatePlan prescreenPlan(const GatePlan& gate) {
    GatePlan p = gate;
    p.limit = gate.prescreen.limit;
    p.maxGames = gate.prescreen.games;
    if (gate.prescreen.sprt) {
        p.minGames = gate.prescreen.minGames;
        p.sprt = *gate.prescreen.sprt;
        p.fixedLength = false;
    } else {
        p.minGames = gate.prescreen.games;
        p.fixedLength = true;
    }
    p.prescreen = {};
    return p;
}

util::Result<GateOutcome> readGateBlocks(const GatePlan& plan, const std::string& dir,
                                         int* blocks) {
    int n = 0;
    auto total = pooledBlocks(dir, n);
    if (!total) return util::makeError(total.error());
    if (blocks) *blocks = n;
    return outcomeOf(*total, plan);
}

util::Result<GateOutcome> runGate(const GatePlan& plan, const GateEngines& engines,
                                  const std::string& dir, const std::atomic<bool>& stop,
                                  const std::function<void(const std::string&)>& say) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return util::makeError("cannot create " + dir + ": " + ec.message());
    auto tc = match::parseTimeControl(plan.limit);
    if (!tc) return util::makeError("gate limit: " + tc.error());

    int blocks = 0;
    auto total = pooledBlocks(dir, blocks);
    if (!total) return util::makeError(total.error());
    GateOutcome outcome = outcomeOf(*total, plan);
    while (outcome.verdict == GateVerdict::Running && !stop.load()) {
        match::MatchOptions options;
        auto engine = [&](const std::string& name, const std::string& network) {
            match::EngineConfig e;
            e.name = name;
            e.command = engines.command;
            e.options = {{"Threads", "1"}, {"Hash", std::to_string(plan.hashMb)}};
            if (!network.empty()) e.options.emplace_back("EvalFile", network);
            return e;
        };
        options.engines = {engine(engines.candidateName, engines.candidateNetwork),
                           engine(engines.bestName, engines.bestNetwork)};
        if (!engines.candidateLimit.empty()) {
            auto own = match::parseTimeControl(engines.candidateLimit);
            if (!own) return util::makeError("candidate limit: " + own.error());
            options.engines[0].timeControl = *own;
        }
        options.game.timeControl = *tc;
        options.game.adjudication.resignMoveCount = plan.resignMoveCount;
        options.game.adjudication.resignScore = plan.resignScore;
        const std::int64_t pairsLeft = (plan.maxGames - total->games() + 1) / 2;
        options.pairs =
            int(std::min<std::int64_t>(plan.blockPairs, std::max<std::int64_t>(1, pairsLeft)));
        options.concurrency = plan.concurrency;
        options.openingsFile = plan.openings;
        options.openingOrder = match::OpeningOrder::Random;
        // Each block its own seed: its openings are drawn afresh, and a replayed block (after
        // a kill) plays the same openings as the one that was lost.
        options.seed = plan.seed * 1000003 + std::uint64_t(blocks);
        options.event = "axon grow gate";
        const std::string pgn = blockPath(dir, blocks, "pgn");
        const std::string pgnTmp = pgn + ".tmp";
        fs::remove(pgnTmp, ec); // a block a kill cut short: its games are played again
        options.pgnFile = pgnTmp;
        std::ostream discard(nullptr); // the per-game lines; the gate says its own per block
        auto summary = match::runMatch(options, discard, &stop);
        if (!summary) return util::makeError(summary.error());
        if (summary->interrupted || stop.load()) {
            fs::remove(pgnTmp, ec);
            break;
        }
        const match::MatchScore& s = summary->score;
        // Pairs that did not finish (an opening the engines could not play) would leave the
        // count where it was and the gate would play the same block for ever.
        if (s.pairs() < options.pairs)
            return util::makeError(
                "gate block " + std::to_string(blocks) + ": " + std::to_string(s.pairs()) + " of " +
                std::to_string(options.pairs) + " game pairs finished (unplayable openings in " +
                plan.openings + "?)");
        const json block = {{"wins", s.wins},
                            {"draws", s.draws},
                            {"losses", s.losses},
                            {"pentanomial", s.pentanomial},
                            {"seed", options.seed}};
        // The games first, then the counts: a block with counts always has its games.
        fs::rename(pgnTmp, pgn, ec);
        if (ec)
            return util::makeError("cannot move " + pgnTmp + " to " + pgn + ": " + ec.message());
        if (auto e = util::writeFileAtomically(blockPath(dir, blocks, "json"), block.dump() + "\n"))
            return util::makeError(*e);
        addScore(*total, s);
        ++blocks;
        outcome = outcomeOf(*total, plan);
        char line[288];
        const int used = std::snprintf(line, sizeof line,
                                       "games %" PRId64 "/%d  +%" PRId64 " =%" PRId64 " -%" PRId64
                                       "  Elo %+.1f +/- %.1f",
                                       total->games(), plan.maxGames, total->wins, total->draws,
                                       total->losses, outcome.elo, outcome.error95);
        if (!plan.fixedLength) {
            const match::SprtResult sprt = match::computeSprt(*total, plan.sprt);
            std::snprintf(line + used, sizeof line - std::size_t(used),
                          "  LLR %.2f (%.2f, %.2f)  %s", sprt.llr, sprt.lowerBound, sprt.upperBound,
                          toString(outcome.verdict));
        }
        say(line);
    }
    return outcome;
}

} // namespace axon::grow

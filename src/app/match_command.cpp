// SPDX-License-Identifier: GPL-3.0-or-later
// Command-line parsing and validation for `axon match`, mapping key=value lists to options.
#include "app/match_command.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string_view>
#include <utility>

#include "app/engine_spec.h"
#include "app/interrupt.h"
#include "match/match.h"

namespace axon::app {

namespace {

using match::MatchOptions;

std::optional<double> toDouble(const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
    return v;
}

std::optional<int> toInt(const std::string& text) {
    int v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
    return v;
}

bool matchError(const std::string& message) {
    std::cerr << "axon match: " << message << "\n";
    return false;
}

bool parseEngine(const std::vector<std::string>& items, match::EngineConfig& engine) {
    auto parsed = parseEngineSpec(items);
    if (!parsed) return matchError(parsed.error());
    engine = std::move(*parsed);
    return true;
}

// Applies key=value items to named integer or real fields.
template <typename Setter>
bool parseKeyValues(const std::vector<std::string>& items, const char* flag, Setter set) {
    for (const auto& item : items) {
        const auto kv = splitKeyValue(item);
        if (!kv) return matchError(std::string(flag) + " expects key=value, got '" + item + "'");
        if (!set(kv->first, kv->second))
            return matchError(std::string(flag) + ": bad item '" + item + "'");
    }
    return true;
}

bool buildOptions(const MatchCommandArgs& args, MatchOptions& options) {
    if (args.engines.size() < 2) return matchError("at least two --engine options are needed");
    if (args.engines.size() > 2 && args.tournament.empty())
        return matchError("more than two engines need --tournament gauntlet or roundrobin");
    if (args.tournament == "gauntlet")
        options.tournament = match::TournamentKind::Gauntlet;
    else if (args.tournament == "roundrobin" || args.tournament == "round-robin")
        options.tournament = match::TournamentKind::RoundRobin;
    else if (!args.tournament.empty())
        return matchError("--tournament is gauntlet or roundrobin");
    options.engines.resize(args.engines.size());
    bool everyEngineLimited = true;
    for (std::size_t i = 0; i < args.engines.size(); ++i) {
        if (!parseEngine(args.engines[i], options.engines[i])) return false;
        everyEngineLimited = everyEngineLimited && options.engines[i].timeControl;
    }
    if (args.variant == "chess960" || args.variant == "fischerandom")
        options.chess960 = true;
    else if (args.variant != "standard")
        return matchError("--variant is standard or chess960");
    if (!args.sprt.empty() && args.engines.size() > 2)
        return matchError("--sprt needs exactly two engines");

    const int limits = !args.tc.empty() + (args.nodes > 0) + (args.depth > 0) + (args.moveTime > 0);
    if (limits > 1 || (limits == 0 && !everyEngineLimited))
        return matchError(
            "give one of --tc, --nodes, --depth, --movetime (or a limit for each engine)");
    if (limits == 1) {
        std::string tcText = args.tc;
        if (args.nodes > 0) tcText = "nodes=" + std::to_string(args.nodes);
        if (args.depth > 0) tcText = "depth=" + std::to_string(args.depth);
        if (args.moveTime > 0) tcText = "movetime=" + std::to_string(args.moveTime);
        auto tc = match::parseTimeControl(tcText);
        if (!tc) return matchError(tc.error());
        options.game.timeControl = *tc;
    }
    options.game.timeMarginMs = args.timeMargin;
    options.game.fixedLimitTimeoutMs = args.moveTimeout;

    if (args.games > 0 && args.rounds > 0) return matchError("give --games or --rounds, not both");
    // Games come in pairs (each opening with both colours); an odd count is rounded up.
    options.pairs = args.rounds > 0 ? args.rounds : args.games > 0 ? (args.games + 1) / 2 : 1;
    options.concurrency = args.concurrency;
    options.openingsFile = args.openings;
    if (args.openingsOrder == "random")
        options.openingOrder = match::OpeningOrder::Random;
    else if (args.openingsOrder != "sequential")
        return matchError("--openings-order is random or sequential");
    options.seed = args.seed;
    options.pgnFile = args.pgn;
    options.jsonFile = args.json;

    if (!args.sprt.empty()) {
        auto sprt = parseSprtItems(args.sprt);
        if (!sprt) return matchError(sprt.error());
        options.sprt = *sprt;
    }
    auto& adj = options.game.adjudication;
    if (!parseKeyValues(args.resign, "--resign", [&](const std::string& k, const std::string& v) {
            const auto n = toInt(v);
            if (!n || *n < 0) return false;
            if (k == "movecount")
                adj.resignMoveCount = *n;
            else if (k == "score")
                adj.resignScore = *n;
            else
                return false;
            return true;
        }))
        return false;
    if (!args.resign.empty() && adj.resignMoveCount == 0) adj.resignMoveCount = 3;
    if (!parseKeyValues(args.draw, "--draw", [&](const std::string& k, const std::string& v) {
            const auto n = toInt(v);
            if (!n || *n < 0) return false;
            if (k == "movenumber")
                adj.drawMoveNumber = *n;
            else if (k == "movecount")
                adj.drawMoveCount = *n;
            else if (k == "score")
                adj.drawScore = *n;
            else
                return false;
            return true;
        }))
        return false;
    if (!args.draw.empty() && adj.drawMoveCount == 0) adj.drawMoveCount = 8;
    return true;
}

} // namespace

util::Result<match::SprtConfig> parseSprtItems(const std::vector<std::string>& items) {
    match::SprtConfig sprt;
    for (const auto& item : items) {
        const auto kv = splitKeyValue(item);
        const auto d = kv ? toDouble(kv->second) : std::nullopt;
        if (!d) return util::makeError("--sprt expects key=number, got '" + item + "'");
        if (kv->first == "elo0")
            sprt.elo0 = *d;
        else if (kv->first == "elo1")
            sprt.elo1 = *d;
        else if (kv->first == "alpha")
            sprt.alpha = *d;
        else if (kv->first == "beta")
            sprt.beta = *d;
        else
            return util::makeError("--sprt: bad item '" + item + "'");
    }
    if (!(sprt.alpha > 0 && sprt.alpha < 1 && sprt.beta > 0 && sprt.beta < 1 &&
          sprt.elo1 > sprt.elo0))
        return util::makeError("--sprt needs 0 < alpha, beta < 1 and elo0 < elo1");
    return sprt;
}

CLI::App* addMatchCommand(CLI::App& app, MatchCommandArgs& args) {
    auto* cmd =
        app.add_subcommand("match", "Play a match or tournament between UCI / xboard engines");
    cmd->add_option("--engine", args.engines,
                    "An engine (twice or more): cmd=COMMAND [proto=uci|xboard] [name=NAME] "
                    "[dir=DIR] [option.NAME=VALUE]... [tc=TC | depth=N | nodes=N | movetime=MS]")
        ->expected(1, 1000)
        ->required();
    cmd->add_option(
        "--tournament", args.tournament,
        "With more than two engines: gauntlet (the first plays each other one) or roundrobin");
    cmd->add_option("--variant", args.variant, "standard (default) or chess960");
    cmd->add_option("--tc", args.tc, "Clock: [moves/]seconds[+increment], e.g. 40/60+0.6, 10+0.1");
    cmd->add_option("--nodes", args.nodes, "Fixed nodes per move")->check(CLI::PositiveNumber);
    cmd->add_option("--depth", args.depth, "Fixed depth per move")->check(CLI::Range(1, 1000));
    cmd->add_option("--movetime", args.moveTime, "Fixed time per move, ms")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--games", args.games, "Games per pairing (rounded up to pairs)")
        ->check(CLI::Range(1, 10000000));
    cmd->add_option("--rounds", args.rounds, "Game pairs: each opening with both colours")
        ->check(CLI::Range(1, 10000000));
    cmd->add_option("--concurrency", args.concurrency, "Games played at once")
        ->check(CLI::Range(1, 1024));
    cmd->add_option("--openings", args.openings, "Opening book: .pgn, or EPD / FEN lines");
    cmd->add_option("--openings-order", args.openingsOrder, "sequential (default) or random");
    cmd->add_option("--seed", args.seed, "Seed for --openings-order random");
    cmd->add_option("--pgn", args.pgn, "Append every game to this PGN file");
    cmd->add_option("--json", args.json, "Write the summary as JSON");
    cmd->add_option("--sprt", args.sprt, "elo0=E0 elo1=E1 alpha=A beta=B (normalised Elo)")
        ->expected(1, 4);
    cmd->add_option("--resign", args.resign, "movecount=N score=CP")->expected(1, 2);
    cmd->add_option("--draw", args.draw, "movenumber=M movecount=N score=CP")->expected(1, 3);
    cmd->add_option("--time-margin", args.timeMargin,
                    "ms an engine may overrun its clock (default 100)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--move-timeout", args.moveTimeout,
                    "ms before a move under --nodes/--depth counts as hung (default 60000)")
        ->check(CLI::PositiveNumber);
    return cmd;
}

int runMatchCommand(const MatchCommandArgs& args) {
    MatchOptions options;
    if (!buildOptions(args, options)) return 1;
    auto summary = match::runMatch(options, std::cout, &installInterruptFlag());
    if (!summary) {
        std::cerr << "axon match: " << summary.error() << "\n";
        return 1;
    }
    return summary->interrupted ? kInterruptedExitStatus : 0; // the results above are whole
}

} // namespace axon::app

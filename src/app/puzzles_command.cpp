// SPDX-License-Identifier: GPL-3.0-or-later
// `axon puzzles`: reads and filters the CSV, reports malformed lines, solves, prints the report.
#include "app/puzzles_command.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

#include "app/interrupt.h"
#include "match/puzzles.h"

namespace axon::app {

namespace {

int puzzlesError(const std::string& message) {
    std::cerr << "axon puzzles: " << message << "\n";
    return 1;
}

// Malformed lines are listed up to this many; the summary counts them all.
constexpr std::size_t kMalformedShown = 20;

} // namespace

CLI::App* addPuzzlesCommand(CLI::App& app, PuzzlesCommandArgs& args) {
    auto* cmd = app.add_subcommand("puzzles",
                                   "Score a UCI engine on Lichess puzzles (lichess_db_puzzle.csv)");
    cmd->add_option("csv", args.csvFile, "The puzzle CSV")->required();
    addAnalysisOptions(*cmd, args.analysis, "puzzles");
    cmd->add_option("--min-rating", args.minRating, "Only puzzles rated at least R");
    cmd->add_option("--max-rating", args.maxRating, "Only puzzles rated at most R");
    cmd->add_option("--themes", args.themes, "Only puzzles with any of these themes: a,b,...");
    cmd->add_option("--top-themes", args.topThemes, "Themes listed in the summary (default 20)");
    return cmd;
}

int runPuzzlesCommand(const PuzzlesCommandArgs& args) {
    auto setup = buildAnalysis(args.analysis);
    if (!setup) return puzzlesError(setup.error());
    if (args.minRating > args.maxRating) return puzzlesError("--min-rating is above --max-rating");
    std::ifstream in(args.csvFile);
    if (!in) return puzzlesError("cannot open " + args.csvFile);

    match::PuzzleFilter filter;
    filter.minRating = args.minRating;
    filter.maxRating = args.maxRating;
    filter.limit = args.analysis.limit;
    std::istringstream themes(args.themes);
    for (std::string theme; std::getline(themes, theme, ',');)
        if (!theme.empty()) filter.themes.push_back(theme);
    const match::PuzzleSet set = match::readPuzzles(in, filter);
    for (std::size_t i = 0; i < set.malformed.size() && i < kMalformedShown; ++i)
        std::cerr << "axon puzzles: " << args.csvFile << " line " << set.malformed[i].line
                  << " skipped: " << set.malformed[i].reason << "\n";
    if (set.malformed.size() > kMalformedShown)
        std::cerr << "axon puzzles: ... and " << set.malformed.size() - kMalformedShown
                  << " more malformed lines\n";
    if (set.puzzles.empty())
        return puzzlesError("no puzzle to solve in " + args.csvFile + " (" +
                            std::to_string(set.malformed.size()) + " malformed lines, " +
                            std::to_string(set.filteredOut) + " filtered out)");

    match::PuzzleRunOptions options;
    options.limit = setup->limit;
    options.concurrency = args.analysis.concurrency;
    options.verbose = args.analysis.verbose;
    options.topThemes = args.topThemes;
    options.interrupt = &installInterruptFlag();
    auto summary =
        match::runPuzzles(set, options, match::uciEngineFactory(setup->engine), std::cout);
    if (!summary) return puzzlesError(summary.error());
    std::cout << "File: " << args.csvFile << "\n"
              << match::formatPuzzleSummary(*summary, args.topThemes);
    if (!args.analysis.json.empty() &&
        !writeTextFile(args.analysis.json, match::puzzleSummaryJson(*summary, set.puzzles)))
        return puzzlesError("cannot write " + args.analysis.json);
    return summary->interrupted ? kInterruptedExitStatus : 0;
}

} // namespace axon::app

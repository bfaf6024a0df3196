// SPDX-License-Identifier: GPL-3.0-or-later
// `axon epd`: reads the suite, reports the lines it skips, runs it and prints the summary.
#include "app/epd_command.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

#include "app/interrupt.h"
#include "match/epd_suite.h"

namespace axon::app {

namespace {

int fail(const std::string& message) {
    std::cerr << "axon epd: " << message << "\n";
    return 1;
}

} // namespace

CLI::App* addEpdCommand(CLI::App& app, EpdCommandArgs& args) {
    auto* cmd = app.add_subcommand("epd", "Score a UCI engine on an EPD test suite: bm/am (WAC, "
                                          "Bratko-Kopec) or c0 point lists (STS)");
    cmd->add_option("suite", args.suiteFile, "The EPD file")->required();
    addAnalysisOptions(*cmd, args.analysis, "positions");
    return cmd;
}

int runEpdCommand(const EpdCommandArgs& args) {
    auto setup = buildAnalysis(args.analysis);
    if (!setup) return fail(setup.error());
    std::ifstream in(args.suiteFile);
    if (!in) return fail("cannot open " + args.suiteFile);
    match::Suite suite = match::readSuite(in);
    for (const auto& skip : suite.skipped)
        std::cerr << "axon epd: " << args.suiteFile << " line " << skip.line
                  << " skipped: " << skip.reason << "\n";
    if (args.analysis.limit > 0 && suite.positions.size() > args.analysis.limit)
        suite.positions.resize(args.analysis.limit);
    if (suite.positions.empty()) return fail(args.suiteFile + " has no position to score");

    match::SuiteRunOptions options;
    options.limit = setup->limit;
    options.concurrency = args.analysis.concurrency;
    options.verbose = args.analysis.verbose;
    options.interrupt = &installInterruptFlag();
    auto summary =
        match::runSuite(suite, options, match::uciEngineFactory(setup->engine), std::cout);
    if (!summary) return fail(summary.error());
    std::cout << "File: " << args.suiteFile << "\n" << match::formatSuiteSummary(*summary);
    if (!args.analysis.json.empty() &&
        !writeTextFile(args.analysis.json, match::suiteSummaryJson(*summary, suite)))
        return fail("cannot write " + args.analysis.json);
    return summary->interrupted ? kInterruptedExitStatus : 0;
}

} // namespace axon::app

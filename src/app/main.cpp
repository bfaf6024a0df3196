// SPDX-License-Identifier: GPL-3.0-or-later
// The `axon` binary: subcommands, or the UCI engine on stdin when none is given.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "app/convert_command.h"
#include "app/data_command.h"
#include "app/datagen_command.h"
#include "app/epd_command.h"
#include "app/grow_command.h"
#include "app/label_command.h"
#include "app/match_command.h"
#include "app/net_command.h"
#include "app/perft_command.h"
#include "app/pool_command.h"
#include "app/puzzles_command.h"
#include "app/serve_command.h"
#include "app/train_command.h"
#include "app/wdl_data_command.h"
#include "engine/bench.h"
#include "engine/build_info.h"
#include "engine/eval_file.h"
#include "nn/float_model.h"
#include "uci/uci.h"

int main(int argc, char** argv) {
    // Native builds can play float models (.safetensors) through EvalFile.
    axon::engine::setFloatModelLoader(
        [](const std::string& path)
            -> axon::util::Result<std::shared_ptr<const axon::nn::FloatModel>> {
            auto model = axon::nn::loadFloatModel(path);
            if (!model) return axon::util::makeError(model.error());
            return std::shared_ptr<const axon::nn::FloatModel>(std::move(*model));
        });

    if (argc == 1) return axon::uci::runUciLoop();
    // OpenBench's `./axon "genfens N seed S book B" "quit"`: UCI lines as arguments.
    if (axon::uci::isCommandLineCommand(argv[1]))
        return axon::uci::runUciCommands(std::vector<std::string>(argv + 1, argv + argc));

    CLI::App app{"Axon: a neural-network chess engine. With no subcommand it speaks UCI."};
    app.require_subcommand(0, 1);
    // CLI11 ends the text with a newline of its own.
    std::string versionText = axon::engine::versionText();
    versionText.pop_back();
    app.set_version_flag("--version", versionText, "Version, commit, instruction set and network");

    axon::app::PerftOptions perft;
    std::vector<std::string> fenWords;
    auto* perftCmd = app.add_subcommand("perft", "Count leaf nodes of the legal move tree");
    perftCmd->add_option("depth", perft.depth, "Depth in plies")->check(CLI::Range(0, 20));
    perftCmd->add_option("fen", fenWords, "Position (FEN, default: start position)");
    perftCmd->add_option("--suite", perft.suiteFile, "Run a perft suite (EPD ;D1 or id/epd/perft)");
    perftCmd->add_option("--max-depth", perft.maxDepth, "Suite mode: skip deeper checks");
    perftCmd->add_option("--max-nodes", perft.maxNodes, "Suite mode: skip larger checks");
    perftCmd->add_option("--threads", perft.threads, "Split root moves over threads")
        ->check(CLI::Range(1, 1024));
    perftCmd->add_flag("!--no-divide", perft.divide, "Print only the total");

    int benchDepth = axon::engine::kDefaultBenchDepth;
    auto* benchCmd = app.add_subcommand(
        "bench",
        "Search the fixed bench positions (1 thread, 16 MB hash); the node count is the signature");
    benchCmd->add_option("depth", benchDepth, "Depth per position")->check(CLI::Range(1, 64));
    std::string benchEval = axon::engine::kEmbeddedEvalName;
    benchCmd->add_option("--eval-file", benchEval,
                         "Evaluate with this network file, <embedded> or <pst> (hand-written)");

    axon::app::MatchCommandArgs matchArgs;
    auto* matchCmd = axon::app::addMatchCommand(app, matchArgs);
    axon::app::PoolCommandArgs poolArgs;
    auto* poolCmd = axon::app::addPoolCommand(app, poolArgs);

    axon::app::EpdCommandArgs epdArgs;
    auto* epdCmd = axon::app::addEpdCommand(app, epdArgs);

    axon::app::PuzzlesCommandArgs puzzlesArgs;
    auto* puzzlesCmd = axon::app::addPuzzlesCommand(app, puzzlesArgs);
    std::string wdlPgn;
    auto* wdlCmd =
        app.add_subcommand("wdl-data", "Print 'material score result' samples from the eval "
                                       "comments of a PGN (for scripts/fit-wdl.py)");
    wdlCmd->add_option("pgn", wdlPgn, "PGN written by axon match --pgn")->required();
    axon::app::ServeCommandArgs serveArgs;
    auto* serveCmd = axon::app::addServeCommand(app, serveArgs);

    axon::app::TrainCommandArgs trainArgs;
    axon::app::TrainSynthArgs trainSynthArgs;
    const auto trainCmds = axon::app::addTrainCommand(app, trainArgs, trainSynthArgs);

    axon::app::NetCommandArgs netArgs;
    const auto netCmds = axon::app::addNetCommand(app, netArgs);

    axon::app::DatagenCommandArgs datagenArgs;
    auto* datagenCmd = axon::app::addDatagenCommand(app, datagenArgs);
    axon::app::GrowCommandArgs growArgs;
    auto* growCmd = axon::app::addGrowCommand(app, growArgs);
    axon::app::LabelCommandArgs labelArgs;
    auto* labelCmd = axon::app::addLabelCommand(app, labelArgs);
    axon::app::DataCommandArgs dataArgs;
    const auto dataCmds = axon::app::addDataCommand(app, dataArgs);
    axon::app::ConvertCommandArgs convertArgs;
    auto* convertCmd = axon::app::addConvertCommand(app, convertArgs);

    CLI11_PARSE(app, argc, argv);

    if (datagenCmd->parsed()) return axon::app::runDatagenCommand(datagenArgs);
    if (growCmd->parsed()) return axon::app::runGrowCommand(growArgs);
    if (labelCmd->parsed()) return axon::app::runLabelCommand(labelArgs);
    if (dataCmds.stats->parsed()) return axon::app::runDataStats(dataArgs);
    if (dataCmds.dump->parsed()) return axon::app::runDataDump(dataArgs);
    if (convertCmd->parsed()) return axon::app::runConvertCommand(convertArgs);

    if (netCmds.info->parsed()) return axon::app::runNetInfo(netArgs);
    if (netCmds.random->parsed()) return axon::app::runNetRandom(netArgs);
    if (netCmds.bench->parsed()) return axon::app::runNetBench(netArgs);
    if (netCmds.exportCmd->parsed()) return axon::app::runNetExport(netArgs);
    if (netCmds.importCmd->parsed()) return axon::app::runNetImport(netArgs);

    if (wdlCmd->parsed()) return axon::app::runWdlData(wdlPgn);
    if (trainCmds.train->parsed()) return axon::app::runTrainCommand(trainArgs);
    if (trainCmds.synth->parsed()) return axon::app::runTrainSynthCommand(trainSynthArgs);

    if (matchCmd->parsed()) return axon::app::runMatchCommand(matchArgs);
    if (poolCmd->parsed()) return axon::app::runPoolCommand(poolArgs);
    if (epdCmd->parsed()) return axon::app::runEpdCommand(epdArgs);
    if (puzzlesCmd->parsed()) return axon::app::runPuzzlesCommand(puzzlesArgs);
    if (serveCmd->parsed()) return axon::app::runServeCommand(serveArgs);

    if (benchCmd->parsed())
        return axon::engine::runBenchCommand(benchDepth, benchEval, std::cout, std::cerr);

    if (perftCmd->parsed()) {
        for (const auto& w : fenWords) perft.fen += (perft.fen.empty() ? "" : " ") + w;
        return axon::app::runPerft(perft);
    }
    return axon::uci::runUciLoop();
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The `axon net` subcommands over src/nn: header printing, random networks, safetensors export
// and import, evaluation speed.
#include "app/net_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "engine/bench.h"
#include "eval/evaluator.h"
#include "nn/accumulator.h"
#include "nn/cnn.h"
#include "nn/dense_mlp.h"
#include "nn/float_network.h"
#include "nn/network_file.h"
#include "nn/safetensors_network.h"
#include "util/atomic_file.h"
#include "util/prng.h"

namespace axon::app {
namespace {

nn::Architecture architectureFrom(const NetCommandArgs& args) {
    nn::Architecture a;
    a.hidden = args.hidden;
    a.mirror = args.mirror;
    a.inputBuckets = args.inputBuckets;
    a.bucketMap = nn::evenBucketMap(args.inputBuckets);
    a.outputBuckets = args.outputBuckets;
    a.l1 = args.l1;
    a.l2 = args.l2;
    return a;
}

// Random playouts from the bench positions: the move sequences both bench modes replay.
struct Line {
    chess::Position root;
    std::vector<chess::Move> moves;
};

std::vector<Line> makeLines(int plies, std::uint64_t seed) {
    util::Prng rng(seed);
    std::vector<Line> lines;
    for (const std::string& fen : engine::benchPositions()) {
        auto parsed = chess::parseFen(fen);
        if (!parsed) continue;
        Line line{*parsed, {}};
        chess::Position pos = *parsed;
        for (int i = 0; i < plies; ++i) {
            const chess::MoveList moves(pos);
            if (moves.empty()) break;
            const chess::Move m = moves[int(rng.below(std::uint64_t(moves.size())))];
            line.moves.push_back(m);
            pos.makeMove(m);
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

struct Rate {
    double evalsPerSecond = 0;
    double cachedRefreshesPerEval = 0;
};

// Evaluations per second replaying every line until `seconds` have passed; `incremental`
// pushes each move on the stack, otherwise every position is refreshed from scratch.
Rate measure(const nn::Network& net, const std::vector<Line>& lines, bool incremental,
             double seconds, std::int64_t& checksum) {
    using Clock = std::chrono::steady_clock;
    nn::AccumulatorStack stack(net);
    std::uint64_t evals = 0;
    const auto start = Clock::now();
    double elapsed = 0;
    do {
        for (const Line& line : lines) {
            chess::Position pos = line.root;
            stack.reset(pos);
            for (const chess::Move m : line.moves) {
                if (incremental) stack.push(pos, m);
                pos.makeMove(m);
                if (!incremental) stack.reset(pos);
                checksum += stack.evaluate(pos);
                ++evals;
            }
        }
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < seconds);
    return {double(evals) / elapsed, double(stack.stats().cachedRefreshes) / double(evals)};
}

// The same replay for a float model, which recomputes every position from scratch.
double measureFloat(const nn::FloatModel& model, const std::vector<Line>& lines, double seconds,
                    double& checksum) {
    using Clock = std::chrono::steady_clock;
    std::uint64_t evals = 0;
    const auto start = Clock::now();
    double elapsed = 0;
    do {
        for (const Line& line : lines) {
            chess::Position pos = line.root;
            for (const chess::Move m : line.moves) {
                pos.makeMove(m);
                checksum += model.evaluate(pos);
                ++evals;
            }
        }
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < seconds);
    return double(evals) / elapsed;
}

// `net bench --pieces`: microseconds per position for each piece's contribution (the heat map,
// docs/eval-pieces.md), as the engine computes them (eval::pieceContributions: one refresh per
// perspective, then a row subtraction and an output layer per piece) or, for comparison, with
// a refresh of both accumulators for every board with one piece taken off (one stack reused,
// each board built as a Position).
struct PiecesRate {
    double microsPerPosition = 0;
    double piecesPerPosition = 0;
};

chess::Position withoutPiece(const chess::Position& pos, chess::Square s) {
    chess::Position out;
    out.clear();
    for (chess::Bitboard b = pos.pieces() & ~chess::squareBB(s); b; b &= b - 1)
        out.putPiece(pos.pieceOn(chess::lsb(b)), chess::lsb(b));
    out.setSideToMove(pos.sideToMove());
    out.finishSetup();
    return out;
}

PiecesRate measurePieces(const eval::EvalSource& source, const std::vector<chess::Position>& boards,
                         bool incremental, double seconds, std::int64_t& checksum) {
    using Clock = std::chrono::steady_clock;
    nn::AccumulatorStack stack(*source.network);
    std::uint64_t positions = 0, pieces = 0;
    const auto start = Clock::now();
    double elapsed = 0;
    do {
        for (const chess::Position& pos : boards) {
            if (incremental) {
                const eval::PieceContributions c = eval::pieceContributions(source, pos);
                for (const eval::PieceContribution& p : c.pieces) checksum += p.cp;
                pieces += c.pieces.size();
            } else {
                stack.reset(pos);
                const int base = stack.evaluate(pos);
                for (chess::Bitboard b = pos.pieces() & ~pos.pieces(chess::King); b; b &= b - 1) {
                    const chess::Position cut = withoutPiece(pos, chess::lsb(b));
                    stack.reset(cut);
                    checksum += base - stack.evaluate(cut);
                    ++pieces;
                }
            }
            ++positions;
        }
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < seconds);
    return {elapsed * 1e6 / double(positions), double(pieces) / double(positions)};
}

// The float models `net bench --float` measures: the dense MLP at the size hobby projects use,
// 902 -> 451 -> 32 -> 32 -> 1 over planes8x8x14+6 (14 x 64 + 6 = 902 inputs), and a small CNN
// over the same planes (two 3x3 convolutions of 32 channels, then 2054 -> 128 -> 32 -> 1).
struct NamedModel {
    std::string label;
    std::unique_ptr<nn::FloatModel> model;
};

std::vector<NamedModel> benchFloatModels(std::uint64_t seed) {
    constexpr auto kEncoding = nn::BoardEncoding::Planes14Plus6;
    const int inputs = nn::encodingShape(kEncoding).size();
    const int mlpSizes[] = {inputs, 451, 32, 32, 1};
    auto mlp = nn::DenseMlp::create(
        kEncoding, nn::makeRandomDenseLayers(mlpSizes, nn::FloatActivation::ReLU, seed), {});
    const int channels[] = {nn::encodingShape(kEncoding).planes, 32, 32};
    auto convs = nn::makeRandomConvLayers(channels, nn::FloatActivation::ReLU, seed + 1);
    const int denseSizes[] = {32 * chess::kNumSquares + nn::encodingShape(kEncoding).scalars, 128,
                              32, 1};
    auto cnn = nn::Cnn::create(
        kEncoding, std::move(convs),
        nn::makeRandomDenseLayers(denseSizes, nn::FloatActivation::ReLU, seed + 2), {});
    std::vector<NamedModel> out;
    if (mlp) out.push_back({"mlp", std::make_unique<nn::DenseMlp>(std::move(*mlp))});
    if (cnn) out.push_back({"cnn", std::make_unique<nn::Cnn>(std::move(*cnn))});
    return out;
}

} // namespace

NetCommands addNetCommand(CLI::App& app, NetCommandArgs& args) {
    auto* net =
        app.add_subcommand("net", "Neural network files: info, random, bench, export, import");
    net->require_subcommand(1);
    NetCommands cmds;
    cmds.info = net->add_subcommand("info", "Validate a network file and print its header");
    cmds.info->add_option("file", args.file, "The network file")->required();

    cmds.random = net->add_subcommand("random", "Write a deterministic random network");
    cmds.random->add_option("output", args.output, "The file to write")->required();
    cmds.bench = net->add_subcommand(
        "bench", "Evaluations per second, 1 thread: incremental accumulators vs full refresh "
                 "and optionally float models (best of 5 alternating rounds)");
    cmds.bench->add_option("file", args.file, "A network file (default: a random network)");
    cmds.bench->add_option("--seconds", args.seconds, "Time per mode")
        ->check(CLI::Range(0.01, 60.0));
    cmds.bench->add_flag("--float", args.floatModels,
                         "Also measure random float models: dense MLP 902-451-32-32-1, small CNN");
    cmds.bench->add_flag("--pieces", args.pieces,
                         "Also measure each piece's contribution (eval pieces, the heat map): "
                         "microseconds per position");
    cmds.bench->add_option("--float-model", args.floatModel,
                           "Also measure this float model (.safetensors, docs/float-nets.md)");

    cmds.exportCmd = net->add_subcommand(
        "export", "Write a network file's parameters, dequantised, as safetensors");
    cmds.exportCmd->add_option("file", args.file, "The network file")->required();
    cmds.exportCmd->add_option("--safetensors", args.safetensors, "The safetensors file to write")
        ->required();
    cmds.importCmd = net->add_subcommand(
        "import", "Quantise a perspective network from safetensors into a network file");
    cmds.importCmd->add_option("file", args.file, "The safetensors file")->required();
    cmds.importCmd->add_option("--out", args.output, "The network file to write")->required();
    for (auto* c : {cmds.random, cmds.bench}) {
        c->add_option("--hidden", args.hidden, "Hidden size (random network)");
        c->add_option("--input-buckets", args.inputBuckets, "King buckets (even split of squares)");
        c->add_option("--output-buckets", args.outputBuckets, "Material output buckets");
        c->add_flag("--mirror", args.mirror, "Mirror inputs by king file");
        c->add_option("--l1", args.l1, "Layer stack: first hidden layer (0 = none)");
        c->add_option("--l2", args.l2, "Layer stack: second hidden layer");
        c->add_option("--seed", args.seed, "Random seed");
    }
    return cmds;
}

int runNetInfo(const NetCommandArgs& args) {
    const auto contents = nn::readFileBytes(args.file);
    if (!contents) {
        std::fprintf(stderr, "%s\n", contents.error().c_str());
        return 1;
    }
    const std::vector<std::uint8_t>& bytes = *contents;
    auto header = nn::readNetHeader(bytes);
    if (!header) {
        std::fprintf(stderr, "%s: %s\n", args.file.c_str(), header.error().c_str());
        return 1;
    }
    const nn::Architecture& a = header->arch;
    std::printf("file            %s (%zu bytes)\n", args.file.c_str(), bytes.size());
    std::printf("format version  %" PRIu32 "\n", header->version);
    if (a.layered())
        std::printf("architecture    (%d -> %d) x2, pairwise -> %d -> %d -> 1, clipped ReLU\n",
                    a.inputBuckets * nn::kFeaturesPerBucket, a.hidden, a.l1, a.l2);
    else
        std::printf("architecture    (%d -> %d) x2 -> 1, SCReLU\n",
                    a.inputBuckets * nn::kFeaturesPerBucket, a.hidden);
    std::printf("mirroring       %s\n", a.mirror ? "by king file (e-h mirrored)" : "off");
    std::printf("input buckets   %d\n", a.inputBuckets);
    if (a.inputBuckets > 1) {
        for (int rank = 7; rank >= 0; --rank) {
            std::printf("  ");
            for (int file = 0; file < 8; ++file) std::printf(" %2d", a.bucketMap[rank * 8 + file]);
            std::printf("\n");
        }
    }
    std::printf("output buckets  %d (by material)\n", a.outputBuckets);
    std::printf("quantisation    QA %d, QB %d, scale %d\n", a.qa, a.qb, a.scale);
    std::printf("parameters      %" PRIu64 " bytes\n", header->payloadBytes);
    std::printf("content hash    %016" PRIx64 "\n", header->hash);
    // The header alone can be fine while the parameters are not: check the whole file too.
    auto net = nn::readNetwork(bytes);
    std::printf("valid           %s%s\n", net ? "yes" : "no: ", net ? "" : net.error().c_str());
    return net ? 0 : 1;
}

int runNetRandom(const NetCommandArgs& args) {
    const nn::Architecture a = architectureFrom(args);
    if (auto e = nn::validateArchitecture(a)) {
        std::fprintf(stderr, "%s\n", e->c_str());
        return 1;
    }
    if (auto e = nn::writeNetworkFile(nn::makeRandomNetwork(a, args.seed), args.output)) {
        std::fprintf(stderr, "%s\n", e->c_str());
        return 1;
    }
    return 0;
}

int runNetBench(const NetCommandArgs& args) {
    nn::Network net;
    if (!args.file.empty()) {
        if (auto e = nn::loadNetworkFile(args.file, net)) {
            std::fprintf(stderr, "%s\n", e->c_str());
            return 1;
        }
    } else {
        const nn::Architecture a = architectureFrom(args);
        if (auto e = nn::validateArchitecture(a)) {
            std::fprintf(stderr, "%s\n", e->c_str());
            return 1;
        }
        net = nn::makeRandomNetwork(a, args.seed);
    }
    constexpr int kPlies = 64;
    const auto lines = makeLines(kPlies, args.seed);
    // The modes alternate in short rounds and each keeps its best round, so that load from
    // other processes on a shared machine disturbs the ratio less.
    std::vector<NamedModel> floats;
    if (args.floatModels) floats = benchFloatModels(args.seed);
    if (!args.floatModel.empty()) {
        auto model = nn::loadFloatModel(args.floatModel);
        if (!model) {
            std::fprintf(stderr, "%s\n", model.error().c_str());
            return 1;
        }
        floats.push_back({"file", std::move(*model)});
    }
    constexpr int kRounds = 5;
    std::int64_t checksumIncremental = 0, checksumRefresh = 0;
    double checksumFloat = 0;
    Rate incremental, refresh;
    std::vector<double> floatRates(floats.size(), 0.0);
    for (int round = 0; round < kRounds; ++round) {
        const Rate i = measure(net, lines, true, args.seconds / kRounds, checksumIncremental);
        const Rate r = measure(net, lines, false, args.seconds / kRounds, checksumRefresh);
        if (i.evalsPerSecond > incremental.evalsPerSecond) incremental = i;
        if (r.evalsPerSecond > refresh.evalsPerSecond) refresh = r;
        for (std::size_t k = 0; k < floats.size(); ++k)
            floatRates[k] =
                std::max(floatRates[k], measureFloat(*floats[k].model, lines,
                                                     args.seconds / kRounds, checksumFloat));
    }
    std::printf("network      hidden %d, input buckets %d%s, output buckets %d%s, simd %s\n",
                net.arch.hidden, net.arch.inputBuckets, net.arch.mirror ? ", mirrored" : "",
                net.arch.outputBuckets,
                net.arch.layered() ? (", layers " + std::to_string(net.arch.l1) + " -> " +
                                      std::to_string(net.arch.l2))
                                         .c_str()
                                   : "",
                nn::simd::Native::kName);
    std::printf("positions    %zu lines of up to %d random plies from the bench positions\n",
                lines.size(), kPlies);
    std::printf("incremental  %.0f evals/s (%.3f refresh-cache rebuilds per eval)\n",
                incremental.evalsPerSecond, incremental.cachedRefreshesPerEval);
    std::printf("refresh      %.0f evals/s\n", refresh.evalsPerSecond);
    std::printf("ratio        %.2f\n", incremental.evalsPerSecond / refresh.evalsPerSecond);
    for (std::size_t k = 0; k < floats.size(); ++k)
        std::printf("%-12s %.0f evals/s, incremental/%s %.1f (%s)\n", floats[k].label.c_str(),
                    floatRates[k], floats[k].label.c_str(),
                    incremental.evalsPerSecond / floatRates[k],
                    floats[k].model->describe().c_str());
    if (args.pieces) {
        // Every position of the lines, the roots included.
        std::vector<chess::Position> boards;
        for (const Line& line : lines) {
            chess::Position pos = line.root;
            boards.push_back(pos);
            for (const chess::Move m : line.moves) {
                pos.makeMove(m);
                boards.push_back(pos);
            }
        }
        const eval::EvalSource source{std::make_shared<const nn::Network>(net), {}};
        std::int64_t checksumPieces = 0, checksumFull = 0;
        PiecesRate fast, full;
        for (int round = 0; round < kRounds; ++round) {
            const PiecesRate f =
                measurePieces(source, boards, true, args.seconds / kRounds, checksumPieces);
            const PiecesRate g =
                measurePieces(source, boards, false, args.seconds / kRounds, checksumFull);
            if (fast.microsPerPosition == 0 || f.microsPerPosition < fast.microsPerPosition)
                fast = f;
            if (full.microsPerPosition == 0 || g.microsPerPosition < full.microsPerPosition)
                full = g;
        }
        std::printf("pieces       %.2f us per position, %.1f pieces each (eval pieces: one "
                    "refresh, then a row and an output layer per piece)\n",
                    fast.microsPerPosition, fast.piecesPerPosition);
        std::printf("pieces-full  %.2f us per position (a refresh for each board), "
                    "full/pieces %.1f\n",
                    full.microsPerPosition, full.microsPerPosition / fast.microsPerPosition);
    }
    return 0;
}

int runNetExport(const NetCommandArgs& args) {
    auto net = nn::readNetworkFile(args.file);
    if (!net) {
        std::fprintf(stderr, "%s\n", net.error().c_str());
        return 1;
    }
    if (auto e = nn::writeFloatNetworkSafetensors(nn::dequantise(*net), args.safetensors)) {
        std::fprintf(stderr, "%s\n", e->c_str());
        return 1;
    }
    std::printf("wrote %s: hidden %d, %zu inputs, %d output buckets\n", args.safetensors.c_str(),
                net->arch.hidden, net->arch.inputCount(), net->arch.outputBuckets);
    return 0;
}

int runNetImport(const NetCommandArgs& args) {
    auto f = nn::readFloatNetworkSafetensors(args.file);
    if (!f) {
        std::fprintf(stderr, "%s\n", f.error().c_str());
        return 1;
    }
    // Quantisation clamps what int16 cannot hold; a trainer that clipped (maxFeatureWeight,
    // maxOutputWeight) never gets here, so say when it happened.
    // The layer stack's later weights are 16-bit at 1/1024 (nn/layer_stack.h), its output
    // layer's too; its first layer's 8-bit at 1/64.
    const float ftLimit = nn::maxFeatureWeight(f->arch),
                outLimit = f->arch.layered() ? nn::maxLayerWeight() : nn::maxOutputWeight(f->arch);
    std::size_t clamped = 0;
    for (float w : f->ftWeights) clamped += std::abs(w) > ftLimit;
    for (float w : f->ftBiases) clamped += std::abs(w) > ftLimit;
    for (float w : f->outWeights) clamped += std::abs(w) > outLimit;
    for (float w : f->l1Weights) clamped += std::abs(w) > nn::maxL1Weight();
    for (float w : f->l2Weights) clamped += std::abs(w) > nn::maxLayerWeight();
    if (clamped)
        std::fprintf(stderr,
                     "warning: %zu parameters exceed the quantisation limits and were "
                     "clamped\n",
                     clamped);
    const nn::Network net = nn::quantise(*f);
    if (auto e = net.validate()) {
        std::fprintf(stderr, "%s: %s\n", args.file.c_str(), e->c_str());
        return 1;
    }
    const auto bytes = nn::serializeNetwork(net);
    if (auto e = util::writeFileAtomically(args.output, bytes)) {
        std::fprintf(stderr, "%s\n", e->c_str());
        return 1;
    }
    std::printf("wrote %s: hidden %d, content hash %016" PRIx64 "\n", args.output.c_str(),
                net.arch.hidden, nn::readNetHeader(bytes)->hash);
    return 0;
}

} // namespace axon::app

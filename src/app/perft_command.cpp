// SPDX-License-Identifier: GPL-3.0-or-later
// Perft front end: one position (with an optional split of root moves over threads) or a suite.
#include "app/perft_command.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/perft.h"
#include "chess/perft_suite.h"
#include "chess/uci_move.h"
#include "util/parallel.h"

namespace axon::app {

using namespace chess;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::vector<PerftDivide> threadedDivide(const Position& root, int depth, int threads) {
    const MoveList moves(root);
    std::vector<PerftDivide> result(moves.size());
    std::atomic<int> next{0};
    auto worker = [&] {
        Position pos = root;
        for (int i; (i = next.fetch_add(1)) < moves.size();) {
            pos.makeMove(moves[i]);
            result[i] = {moves[i], perft(pos, depth - 1)};
            pos.unmakeMove();
        }
    };
    util::parallelFor(threads, [&](int) { worker(); });
    return result;
}

int runSuite(const PerftOptions& options) {
    return runPerftSuiteFile(options.suiteFile, {options.maxDepth, options.maxNodes}, stdout,
                             stderr);
}

} // namespace

int runPerft(const PerftOptions& options) {
    if (!options.suiteFile.empty()) return runSuite(options);

    auto parsed = parseFen(options.fen.empty() ? Position::kStartFen : options.fen);
    if (!parsed) {
        std::fprintf(stderr, "error: %s\n", parsed.error().c_str());
        return 2;
    }
    Position& pos = *parsed;
    const auto start = Clock::now();
    std::uint64_t total = 0;
    if (options.depth <= 1 || (!options.divide && options.threads <= 1)) {
        total = perft(pos, options.depth);
    } else {
        const auto divide = options.threads > 1
                                ? threadedDivide(pos, options.depth, options.threads)
                                : perftDivide(pos, options.depth);
        for (const PerftDivide& d : divide) {
            if (options.divide)
                std::printf("%s: %llu\n", toUci(d.move, pos.isChess960()).c_str(),
                            static_cast<unsigned long long>(d.nodes));
            total += d.nodes;
        }
    }
    const double seconds = secondsSince(start);
    std::printf("\nNodes searched: %llu\nTime: %.3f s\nNodes/second: %.0f\n",
                static_cast<unsigned long long>(total), seconds,
                double(total) / std::max(seconds, 1e-9));
    return 0;
}

} // namespace axon::app

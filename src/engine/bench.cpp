// SPDX-License-Identifier: GPL-3.0-or-later
// The bench positions and runner.
#include "engine/bench.h"

#include <algorithm>
#include <chrono>

#include "chess/fen.h"
#include "chess/uci_move.h"
#include "engine/eval_file.h"
#include "search/searcher.h"

namespace axon::engine {

const std::vector<std::string>& benchPositions() {
    // Openings, middlegames, endgames, tactics (Win At Chess), and two Chess960 starts.
    static const std::vector<std::string> positions = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "rnbqk2r/ppp1bppp/4pn2/3p4/2PP1B2/2N2N2/PP2PPPP/R2QKB1R b KQkq - 5 5",
        "rnbqkb1r/pp2pppp/2p2n2/3p4/2PP4/4P3/PP3PPP/RNBQKBNR w KQkq - 1 4",
        "rnbqkb1r/ppp2ppp/4pn2/8/2pPP3/2N2N2/PP3PPP/R1BQKB1R b KQkq - 0 5",
        "r2qkb1r/pp2pppp/2np1n2/2p5/4P1b1/3P1NP1/PPPN1PBP/R1BQK2R b KQkq - 2 6",
        "r1bqkb1r/1pp2ppp/p1n5/1N1pP1Bn/8/8/PPP1PPPP/R2QKBNR b KQkq - 1 7",
        "r3kbnr/ppp1pppp/2nq4/8/8/2N2B2/PPPP1PPP/R1BQ1RK1 b kq - 2 7",
        "r4rk1/ppp1b1pp/q3pnp1/2Pp4/3P2P1/1QN1P2P/PP3P2/R1B2RK1 w - - 0 15",
        "r4rk1/1b1p1p1p/p5p1/1PqPpn2/8/1BP5/1P3PPP/R1BQ1RK1 b - - 0 17",
        "2rq1rk1/3n1ppp/4p3/p3P1b1/Pp1P1N2/3B1Q1P/1P4P1/2RR2K1 b - - 0 21",
        "5rk1/pppq1pp1/1b1p4/3P3n/4rp1N/P6P/1PPQNPPK/R4R2 b - - 1 22",
        "6nr/ppp3k1/2b1qp2/6pp/3P4/B1QN4/P1P2PPP/1R4K1 b - - 4 22",
        "3r1b1r/1p2pbpp/pk3p2/3P4/2R5/P4NP1/BP4PP/3R2K1 b - - 1 24",
        "1r3rk1/5bpp/2pN4/p2pp3/P5Pq/4P2P/3PQR1K/5R2 b - - 1 26",
        "r6k/1p1q2pp/p6r/6Q1/6P1/P2P1p2/1PP2P1P/R5RK b - - 2 27",
        "5r2/1R3ppp/2p5/4k3/2P5/1PK3P1/7P/8 b - - 2 28",
        "1r6/2R2pkp/P2Np1p1/8/5r2/8/6PP/6K1 b - - 0 34",
        "8/bpp5/p4k2/P1Ppprp1/1P6/5PPp/4RN1P/4R2K w - - 2 38",
        "r3r1k1/6p1/6Qp/1R3P2/6P1/4q3/6P1/1R5K b - - 1 40",
        "8/3R4/1p3P2/p1b5/P1Q5/1P1p4/3k2K1/8 b - - 5 57",
        "8/k6p/8/6p1/4p1P1/4K2P/6b1/8 b - - 1 58",
        "8/6p1/5bK1/6r1/8/3N1k2/8/8 w - - 15 81",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "rb3qk1/pQ3ppp/4p3/3P4/8/1P3N2/1P3PPP/3R2K1 w - - 0 1",
        "3qrbk1/ppp1r2n/3pP2p/3P4/2P4P/1P3Q2/PB6/R4R1K w - - 0 1",
        "2qr2k1/4b1p1/2p2p1p/1pP1p3/p2nP3/PbQNB1PP/1P3PK1/4RB2 b - - 0 1",
        "6k1/5p1p/2bP2pb/4p3/2P5/1p1pNPPP/1P1Q1BK1/1q6 b - - 0 1",
        "8/3b2kp/4p1p1/pr1n4/N1N4P/1P4P1/1K3P2/3R4 w - - 0 1",
        "r3k2r/2p2p2/p2p1n2/1p2p3/4P2p/1PPPPp1q/1P5P/R1N2QRK b kq - 0 1",
        "r1bqrk2/pp1n1n1p/3p1p2/P1pP1P1Q/2PpP1NP/6R1/2PB4/4RBK1 w - - 0 1",
        "2rq1rk1/pp3ppp/2n2b2/4NR2/3P4/PB5Q/1P4PP/3R2K1 w - - 0 1",
        "2kr4/ppp3Pp/4RP1B/2r5/5P2/1P6/P2p4/3K4 w - - 0 1",
        "8/3k4/3p4/8/3P4/3K4/8/8 w - - 0 1",
        "k7/8/7p/8/8/6P1/8/K7 b - - 0 1",
        "n1n5/1Pk5/8/8/8/8/5Kp1/5N1N w - - 0 1",
        "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
        "8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - 0 1",
        "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
        "8/8/4kpp1/3p1b2/p6P/2B5/6P1/6K1 b - - 0 1",
        "4rrk1/2p1b1p1/p1p3q1/4p3/2P2n1p/1P1NR2P/PB3PP1/3R1QK1 b - - 0 1",
        "3br1k1/pp1r1ppp/2nq4/3p4/3P4/P1NB1Q1P/1P3PP1/2R1R1K1 w - - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "qbb1rnkr/ppp3pp/4n3/3ppp2/1P3PP1/8/P1PPPN1P/QBB1RNKR w HEhe - 0 9",
        "rbbq1k1r/ppp1pppp/7n/1n1p4/5P2/P2P4/1PPBP1PP/RB1QNKNR w HAha - 1 9",
    };
    return positions;
}

BenchResult runBench(int depth, std::ostream& out, const eval::EvalSource& source) {
    search::Searcher searcher;
    searcher.setThreads(1);
    searcher.setHash(16);
    BenchResult total;
    const auto start = std::chrono::steady_clock::now();
    int index = 0;
    for (const std::string& fen : benchPositions()) {
        ++index;
        auto pos = chess::parseFen(fen);
        if (!pos) {
            out << "bench position " << index << " is invalid: " << pos.error() << "\n";
            continue;
        }
        searcher.clear();
        search::Searcher::Request request;
        request.position = *pos;
        request.limits.depth = depth;
        request.evalSource = source;
        search::SearchResult result;
        request.onDone = [&result](const search::SearchResult& r) { result = r; };
        const auto searchStart = std::chrono::steady_clock::now();
        searcher.start(std::move(request));
        searcher.wait();
        total.searchSeconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - searchStart).count();
        total.nodes += result.nodes;
        out << "position " << index << "/" << benchPositions().size() << " best "
            << chess::toUci(result.bestMove, pos->isChess960()) << " score " << result.score
            << " nodes " << result.nodes << "\n";
    }
    total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total.nps = std::uint64_t(double(total.nodes) / std::max(total.seconds, 1e-9));
    out << "\n" << total.nodes << " nodes " << total.nps << " nps" << std::endl;
    return total;
}

int runBenchCommand(int depth, const std::string& evalFile, std::ostream& out, std::ostream& err) {
    auto source = loadEvalSource(evalFile);
    if (!source) {
        err << "axon bench: " << source.error() << "\n";
        return 2;
    }
    runBench(depth, out, *source);
    return 0;
}

} // namespace axon::engine

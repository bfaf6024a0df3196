// SPDX-License-Identifier: GPL-3.0-or-later
// The UCI session as a library (src/uci/session.h), driven line by line without a process:
// the handshake, options, positions and searches, and hostile lines that must each get an
// error while the session goes on answering.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "chess/fen.h"
#include "chess/uci_move.h"
#include "engine/build_info.h"
#include "uci/session.h"
#include "uci_recorder.h"

using namespace axon;

namespace {

using Recorder = test::UciRecorder;

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

} // namespace

TEST(UciSessionLibrary, HandshakeOptionsAndASearch) {
    Recorder out;
    uci::Session session(out.sink());
    ASSERT_TRUE(session.handle("uci"));
    auto lines = out.take();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_TRUE(startsWith(lines[0], "id name Axon " + engine::version() + "\n"));
    EXPECT_NE(lines[0].find("option name EvalFile type string"), std::string::npos);
    EXPECT_TRUE(lines[0].ends_with("uciok"));

    ASSERT_TRUE(session.handle("setoption name Hash value 2"));
    ASSERT_TRUE(session.handle("position startpos moves e2e4 e7e5"));
    ASSERT_TRUE(session.handle("go nodes 3000"));
    session.finish();
    lines = out.take();
    ASSERT_FALSE(lines.empty());
    ASSERT_TRUE(startsWith(lines.back(), "bestmove ")) << lines.back();
    auto pos = chess::parseFen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    ASSERT_TRUE(pos.ok());
    const std::string best = lines.back().substr(9, lines.back().find(' ', 9) - 9);
    EXPECT_TRUE(chess::parseUciMove(*pos, best).ok()) << best;
    EXPECT_TRUE(startsWith(lines.front(), "info depth ")) << lines.front();
}

TEST(UciSessionLibrary, HostileLinesGetErrorsAndTheSessionGoesOn) {
    Recorder out;
    uci::Session session(out.sink(), engine::EngineLimits{8, 2});
    for (const char* line :
         {"position fen 8/8/8/8 w - - 0 1", "position startpos moves e2e5", "go depth -1",
          "go nodes abc", "setoption value 3", "setoption name Hash value 9999",
          "setoption name Threads value 64", "setoption name NoSuch value 1", "frobnicate",
          "bench 0", "perft 99", "setoption name EvalFile value /nonexistent/net.nnue"}) {
        ASSERT_TRUE(session.handle(line)) << line;
        const auto lines = out.take();
        ASSERT_EQ(lines.size(), 1u) << line;
        EXPECT_TRUE(startsWith(lines[0], "info string error: ")) << line << " -> " << lines[0];
    }
    ASSERT_TRUE(session.handle("isready"));
    EXPECT_EQ(out.take(), std::vector<std::string>{"readyok"});
    EXPECT_FALSE(session.handle("quit"));
}

// `Progress Interval`: standard `info` lines without a score between completed iterations (live
// nodes and speed for a long analysis), each naming a legal root move; none by default.
TEST(UciSessionLibrary, ProgressIntervalReportsNodesAndTheCurrentMoveBetweenIterations) {
    const auto progressLines = [](const std::vector<std::string>& lines) {
        std::vector<std::string> out;
        for (const std::string& line : lines)
            if (startsWith(line, "info depth ") && line.find(" score ") == std::string::npos &&
                line.find(" nps ") != std::string::npos)
                out.push_back(line);
        return out;
    };
    Recorder out;
    uci::Session session(out.sink());
    ASSERT_TRUE(session.handle("setoption name Hash value 2"));
    ASSERT_TRUE(session.handle("go movetime 300"));
    session.finish();
    EXPECT_TRUE(progressLines(out.take()).empty()); // off by default: UCI output as before

    // One every 20 ms, when the search looks at the clock (every 1,024 nodes): the test waits for
    // five, however long the machine takes, then stops. (It counted them in a 400 ms search and
    // asked for 4; under TSan there were 9 or 10 beside two busy processes, 5 beside four, and 1
    // to 5 beside six.) The minute is only a bound for an engine that never reports.
    ASSERT_TRUE(session.handle("setoption name Progress Interval value 20"));
    ASSERT_TRUE(session.handle("go infinite"));
    std::vector<std::string> lines;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (progressLines(lines).size() < 5 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        for (std::string& line : out.take()) lines.push_back(std::move(line));
    }
    ASSERT_TRUE(session.handle("stop"));
    session.finish();
    for (std::string& line : out.take()) lines.push_back(std::move(line));
    EXPECT_TRUE(startsWith(lines.back(), "bestmove ")) << lines.back();
    const auto progress = progressLines(lines);
    ASSERT_GE(progress.size(), 5u) << "fewer than five progress reports in a minute";
    const chess::Position start = chess::startPosition();
    long long lastNodes = -1;
    for (const std::string& line : progress) {
        std::istringstream in(line);
        std::string token;
        long long nodes = -1;
        std::string currmove;
        while (in >> token) {
            if (token == "nodes") in >> nodes;
            if (token == "currmove") in >> currmove;
        }
        EXPECT_GT(nodes, lastNodes) << line;
        lastNodes = nodes;
        for (const char* field : {" seldepth ", " hashfull ", " time ", " currmovenumber "})
            EXPECT_NE(line.find(field), std::string::npos) << line;
        EXPECT_TRUE(chess::parseUciMove(start, currmove).ok()) << line;
    }
}

// `go mate N` with no other limit: the search ends with the first iteration that mates within N
// moves, reported as `score mate N` with the mating move. A session that ignored `mate` would
// also end here, at the deepest iteration (a found mate makes deeper ones cheap: 245 plies in
// about 30 ms), after reporting `score mate 3` at every depth on the way.
TEST(UciSessionLibrary, GoMateEndsTheSearchAtTheFirstMateAndReportsIt) {
    Recorder out;
    uci::Session session(out.sink());
    // 55.Rxh6+ Kxh6 56.Qg5+ Kh7 57.Qh5#.
    ASSERT_TRUE(session.handle("position fen 4r1r1/4P1pk/1p4Rp/p4Q2/1q3P2/4P2P/6PK/8 w - - 1 55"));
    ASSERT_TRUE(session.handle("go mate 3"));
    session.finish(); // a bounded search: waits for its end
    const auto lines = out.take();
    ASSERT_FALSE(lines.empty());
    EXPECT_TRUE(startsWith(lines.back(), "bestmove g6h6")) << lines.back();
    std::vector<std::string> scored, mates;
    for (const std::string& line : lines) {
        if (!startsWith(line, "info depth ") || line.find(" score ") == std::string::npos) continue;
        scored.push_back(line);
        if (line.find(" score mate 3 ") != std::string::npos) mates.push_back(line);
    }
    ASSERT_EQ(mates.size(), 1u) << "the search went on after the mate: " << scored.back();
    EXPECT_EQ(mates[0], scored.back());
    EXPECT_NE(mates[0].find(" pv g6h6 "), std::string::npos) << mates[0];
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The engine facade's position kept move by move (Engine::playMove, datagen's games) against
// the same position set from text, and searches that do not sample the table's fill.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "chess/fen.h"
#include "chess/uci_move.h"
#include "engine/engine.h"

using namespace axon;

namespace {

struct Searched {
    chess::Move best;
    std::uint64_t nodes = 0;
    std::vector<int> hashfulls;
};

Searched searchNodes(engine::Engine& e, std::uint64_t nodes, bool hashfull) {
    search::SearchLimits limits;
    limits.nodes = nodes;
    Searched out;
    engine::Engine::Callbacks callbacks;
    callbacks.hashfull = hashfull;
    callbacks.onInfo = [&](const search::SearchInfo& info) {
        out.nodes = info.nodes;
        out.hashfulls.push_back(info.hashfull);
    };
    callbacks.onBestMove = [&](chess::Move m, chess::Move) { out.best = m; };
    e.search(limits, callbacks);
    return out;
}

} // namespace

TEST(EnginePosition, PlayMoveGivesTheSamePositionAndSearchAsTheMovesInText) {
    // Knights out and back twice: the second return repeats the start twice over, so the
    // repetition history must be the same too, then a capture-free middlegame line.
    const std::string fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4";
    const std::vector<std::string> line = {"f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
                                           "g1f3", "g8f6", "f1c4", "f8c5", "e1g1"};
    engine::Engine played, parsed;
    ASSERT_FALSE(played.setPosition(fen, {}));
    std::vector<std::string> moves;
    for (const std::string& text : line) {
        const auto move = chess::parseUciMove(played.position(), text);
        ASSERT_TRUE(move) << text;
        played.playMove(*move);
        moves.push_back(text);
        ASSERT_FALSE(parsed.setPosition(fen, moves));
        EXPECT_EQ(played.position().key(), parsed.position().key()) << text;
        EXPECT_EQ(chess::toFen(played.position()), chess::toFen(parsed.position())) << text;
        EXPECT_EQ(played.position().repetitionCount(), parsed.position().repetitionCount()) << text;
        EXPECT_EQ(played.position().isRepetition(0), parsed.position().isRepetition(0)) << text;
    }
    // After f3g1 f6g8 twice the start position stands for the third time.
    played.newGame();
    ASSERT_FALSE(played.setPosition(fen, {}));
    for (int i = 0; i < 8; ++i)
        played.playMove(*chess::parseUciMove(played.position(), line[std::size_t(i)]));
    EXPECT_EQ(played.position().repetitionCount(), 2);

    // The searches see the same history: the same move from the same tree.
    engine::Engine a, b;
    ASSERT_FALSE(a.setPosition(fen, {}));
    for (std::size_t i = 0; i + 1 < line.size(); ++i)
        a.playMove(*chess::parseUciMove(a.position(), line[i]));
    ASSERT_FALSE(b.setPosition(fen, {line.begin(), line.end() - 1}));
    const Searched sa = searchNodes(a, 20000, true), sb = searchNodes(b, 20000, true);
    EXPECT_EQ(sa.best, sb.best);
    EXPECT_EQ(sa.nodes, sb.nodes);
    EXPECT_GT(sa.nodes, 0u);
}

TEST(EnginePosition, SearchesWithoutHashfullReportZeroAndSearchTheSameTree) {
    engine::Engine with, without;
    for (engine::Engine* e : {&with, &without}) {
        ASSERT_FALSE(e->options().set("Hash", "1"));
        ASSERT_FALSE(e->setPosition("", {"e2e4", "c7c5", "g1f3"}));
    }
    const Searched sw = searchNodes(with, 60000, true), so = searchNodes(without, 60000, false);
    EXPECT_EQ(sw.best, so.best);
    EXPECT_EQ(sw.nodes, so.nodes);
    ASSERT_FALSE(sw.hashfulls.empty());
    ASSERT_EQ(sw.hashfulls.size(), so.hashfulls.size());
    // 60,000 nodes fill part of a 1 MiB table: sampled, the last report shows it.
    EXPECT_GT(sw.hashfulls.back(), 0);
    for (int h : so.hashfulls) EXPECT_EQ(h, 0);
}

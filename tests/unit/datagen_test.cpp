// SPDX-License-Identifier: GPL-3.0-or-later
// Data generation: the soft node limit, adjudication, the recording filter, result attachment,
// chunk planning and seeds, and a tiny run that must be deterministic and resumable.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>

#include "chess/uci_move.h"
#include "data/datagen.h"
#include "data/game_format.h"
#include "data/record_file.h"
#include "search/searcher.h"
#include "tablebase/tablebases.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace data;
namespace fs = std::filesystem;

search::SearchResult searchWith(const search::SearchLimits& limits, const std::string& fenText) {
    search::Searcher searcher;
    search::Searcher::Request request;
    request.position = fen(fenText);
    request.limits = limits;
    search::SearchResult result;
    request.onDone = [&](const search::SearchResult& r) { result = r; };
    searcher.start(std::move(request));
    searcher.wait();
    return result;
}

TEST(SoftNodes, StopsAfterTheIterationThatReachesIt) {
    const std::string kiwipete =
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    search::SearchLimits soft;
    soft.softNodes = 3000;
    const auto a = searchWith(soft, kiwipete);
    const auto b = searchWith(soft, kiwipete);
    EXPECT_GE(a.nodes, soft.softNodes) << "stopped before the soft limit";
    EXPECT_EQ(a.nodes, b.nodes) << "one thread is deterministic";
    EXPECT_EQ(a.bestMove, b.bestMove);
    EXPECT_TRUE(a.bestMove);
    // The same depth searched to completion costs exactly as many nodes: the search stopped at
    // an iteration boundary, not inside one.
    search::SearchLimits byDepth;
    byDepth.depth = a.depth;
    EXPECT_EQ(searchWith(byDepth, kiwipete).nodes, a.nodes);
    // The hard cap still applies.
    soft.nodes = 2000;
    EXPECT_EQ(searchWith(soft, kiwipete).nodes, 2000u);
}

TEST(Adjudicator, WinNeedsBothSidesToAgreeForFourPlies) {
    Adjudicator a;
    EXPECT_FALSE(a.update(kWinScore, 20));
    EXPECT_FALSE(a.update(kWinScore + 5, 21));
    EXPECT_FALSE(a.update(kWinScore, 22));
    EXPECT_EQ(a.update(kWinScore, 23), 1.0);

    Adjudicator broken;
    for (int ply = 20; ply < 23; ++ply) EXPECT_FALSE(broken.update(-kWinScore, ply));
    EXPECT_FALSE(broken.update(kWinScore - 1, 23)) << "the streak restarts";
    for (int ply = 24; ply < 27; ++ply) EXPECT_FALSE(broken.update(-kWinScore, ply));
    EXPECT_EQ(broken.update(-30000, 27), 0.0) << "mate scores count too";
}

TEST(Adjudicator, DrawOnlyAfterTheMinimumPly) {
    Adjudicator early;
    for (int ply = 0; ply < kDrawMinPly; ++ply) EXPECT_FALSE(early.update(0, ply)) << ply;
    Adjudicator late;
    for (int i = 0; i < kDrawPlies - 1; ++i) EXPECT_FALSE(late.update(kDrawScore, kDrawMinPly + i));
    EXPECT_EQ(late.update(-kDrawScore, kDrawMinPly + kDrawPlies - 1), 0.5);
    Adjudicator interrupted;
    for (int i = 0; i < kDrawPlies - 1; ++i) EXPECT_FALSE(interrupted.update(0, kDrawMinPly + i));
    EXPECT_FALSE(interrupted.update(kDrawScore + 1, kDrawMinPly + kDrawPlies));
    EXPECT_FALSE(interrupted.update(0, kDrawMinPly + kDrawPlies + 1));
    Adjudicator longGame;
    EXPECT_FALSE(longGame.update(500, kMaxGamePly - 2));
    EXPECT_EQ(longGame.update(500, kMaxGamePly - 1), 0.5);
}

TEST(Datagen, RuleResults) {
    EXPECT_FALSE(ruleResult(chess::GameStatus::Ongoing, chess::White));
    EXPECT_EQ(ruleResult(chess::GameStatus::Checkmate, chess::White), 0.0);
    EXPECT_EQ(ruleResult(chess::GameStatus::Checkmate, chess::Black), 1.0);
    EXPECT_EQ(ruleResult(chess::GameStatus::Stalemate, chess::Black), 0.5);
    EXPECT_EQ(ruleResult(chess::GameStatus::ThreefoldRepetition, chess::White), 0.5);
}

TEST(Datagen, RecordingFilter) {
    const auto move = [](const chess::Position& pos, const char* uci) {
        auto m = chess::parseUciMove(pos, uci);
        EXPECT_TRUE(m.ok()) << uci;
        return m.ok() ? *m : chess::Move::none();
    };
    const auto quiet = fen("4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 1");
    EXPECT_EQ(skipReason(quiet, move(quiet, "e2e3"), 50, 20, 8), SkipReason::None);
    EXPECT_EQ(skipReason(quiet, move(quiet, "e2e3"), 50, 11, 8), SkipReason::Opening);
    EXPECT_EQ(skipReason(quiet, move(quiet, "e2e3"), 50, 12, 8), SkipReason::None);
    EXPECT_EQ(skipReason(quiet, move(quiet, "e2e3"), kMaxRecordedScore + 1, 20, 8),
              SkipReason::Decided);
    EXPECT_EQ(skipReason(quiet, move(quiet, "e2e3"), -kMaxRecordedScore, 20, 8), SkipReason::None);
    const auto capture = fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    EXPECT_EQ(skipReason(capture, move(capture, "e4d5"), 0, 20, 8), SkipReason::NoisyBestMove);
    const auto promotion = fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    EXPECT_EQ(skipReason(promotion, move(promotion, "b7b8n"), 0, 20, 8), SkipReason::NoisyBestMove);
    const auto check = fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    EXPECT_EQ(skipReason(check, move(check, "e1f1"), 0, 20, 8), SkipReason::InCheck);
    // --keep-noisy lifts the tactical filters only.
    const PositionFilter keep{.keepNoisy = true};
    EXPECT_EQ(skipReason(capture, move(capture, "e4d5"), 0, 20, 8, keep), SkipReason::None);
    EXPECT_EQ(skipReason(promotion, move(promotion, "b7b8n"), 0, 20, 8, keep), SkipReason::None);
    EXPECT_EQ(skipReason(check, move(check, "e1f1"), 0, 20, 8, keep), SkipReason::None);
    EXPECT_EQ(skipReason(check, move(check, "e1f1"), 0, 11, 8, keep), SkipReason::Opening);
    EXPECT_EQ(skipReason(capture, move(capture, "e4d5"), kMaxRecordedScore + 1, 20, 8, keep),
              SkipReason::Decided);
}

TEST(Datagen, ResultIsAttachedFromEachSideToMove) {
    const auto white = fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    const auto black = fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
    std::vector<TrainingRecord> records = {makeRecord(white, 10, GameResult::Draw),
                                           makeRecord(black, -10, GameResult::Draw)};
    attachResult(records, 1.0);
    EXPECT_EQ(records[0].result, GameResult::Win);
    EXPECT_EQ(records[1].result, GameResult::Loss);
    attachResult(records, 0.0);
    EXPECT_EQ(records[0].result, GameResult::Loss);
    EXPECT_EQ(records[1].result, GameResult::Win);
    attachResult(records, 0.5);
    EXPECT_EQ(records[0].result, GameResult::Draw);
    EXPECT_EQ(records[1].result, GameResult::Draw);
}

TEST(Datagen, ChunkPlanAndSeeds) {
    DatagenConfig config;
    config.threads = 3;
    config.positions = 250;
    config.chunkPositions = 40;
    const auto plan = planChunks(config);
    ASSERT_EQ(plan.size(), 3u);
    std::uint64_t total = 0;
    for (const auto& chunks : plan)
        for (const auto n : chunks) {
            EXPECT_LE(n, 40u);
            total += n;
        }
    EXPECT_EQ(total, 250u);
    EXPECT_EQ(plan[0], (std::vector<std::uint64_t>{40, 40, 4}));

    std::set<std::uint64_t> seeds;
    for (int t = 0; t < 4; ++t)
        for (std::uint64_t c = 0; c < 4; ++c) seeds.insert(chunkSeed(7, t, c));
    EXPECT_EQ(seeds.size(), 16u);
    EXPECT_EQ(chunkSeed(7, 1, 2), chunkSeed(7, 1, 2));
    EXPECT_NE(chunkSeed(7, 1, 2), chunkSeed(8, 1, 2));
    EXPECT_EQ(chunkFileName(7, 1, 2), "7-t1-00002.bin");
}

std::vector<char> fileBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Datagen, TinyRunIsDeterministicAndResumes) {
    const fs::path dir =
        fs::temp_directory_path() / ("axon-datagen-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    DatagenConfig config;
    config.outDir = dir.string();
    config.threads = 2;
    config.positions = 120;
    config.chunkPositions = 30;
    config.softNodes = 300;
    config.seed = 11;
    std::atomic<bool> stop{false};
    auto first = runDatagen(config, stop, {});
    ASSERT_TRUE(first.ok()) << first.error();
    EXPECT_EQ(first->chunksWritten, 4u);
    EXPECT_GE(first->positions, 120u);
    EXPECT_GT(first->games, 0u);
    const fs::path chunk = dir / chunkFileName(11, 1, 1);
    const auto before = fileBytes(chunk);
    auto records = readAllRecords(chunk.string());
    ASSERT_TRUE(records.ok()) << records.error();
    EXPECT_GE(records->size(), 30u);
    for (const auto& r : *records) {
        EXPECT_LE(std::abs(int(r.score)), kMaxRecordedScore);
        EXPECT_NE(r.bestMove, 0);
    }

    fs::remove(chunk);
    std::ofstream(dir / (chunkFileName(11, 0, 0) + ".tmp")) << "half a chunk";
    auto resumed = runDatagen(config, stop, {});
    ASSERT_TRUE(resumed.ok()) << resumed.error();
    EXPECT_EQ(resumed->chunksWritten, 1u);
    EXPECT_EQ(resumed->resumedChunks, 3u);
    EXPECT_EQ(fileBytes(chunk), before) << "a regenerated chunk equals the original";
    EXPECT_FALSE(fs::exists(dir / (chunkFileName(11, 0, 0) + ".tmp")));

    // Other settings for the same seed in the same directory are refused, not mixed in.
    config.softNodes = 400;
    EXPECT_FALSE(runDatagen(config, stop, {}).ok());

    // A stopped run writes nothing.
    const fs::path other = dir / "stopped";
    config.outDir = other.string();
    stop = true;
    auto stopped = runDatagen(config, stop, {});
    ASSERT_TRUE(stopped.ok()) << stopped.error();
    EXPECT_TRUE(stopped->interrupted);
    EXPECT_EQ(stopped->chunksWritten, 0u);
    for (const auto& entry : fs::directory_iterator(other))
        EXPECT_EQ(entry.path().extension(), ".txt") << entry.path();
    fs::remove_all(dir);
}

} // namespace
} // namespace axon::test

namespace axon::test {
namespace {

// The tables' result from White's view, with the fifty-move counter: a win that the rule
// spoils is a draw.
TEST(Datagen, TablebaseResults) {
    const std::string tables = sharedData("syzygy").string();
    AXON_REQUIRE_DATA(tables);
    auto opened = tablebase::Tablebases::open(tables);
    ASSERT_TRUE(opened.ok()) << opened.error();
    const auto& tb = **opened;
    chess::Position whiteWins = fen("8/8/8/4k3/8/8/8/K6Q w - - 0 1");
    EXPECT_EQ(tablebaseResult(tb, whiteWins), 1.0);
    chess::Position blackToMoveLoses = fen("8/8/8/4k3/8/8/8/K6Q b - - 0 1");
    EXPECT_EQ(tablebaseResult(tb, blackToMoveLoses), 1.0);
    chess::Position blackWins = fen("8/8/8/4K3/8/8/8/k6q w - - 0 1");
    EXPECT_EQ(tablebaseResult(tb, blackWins), 0.0);
    chess::Position draw = fen("8/8/8/4k3/8/8/8/K6N w - - 0 1");
    EXPECT_EQ(tablebaseResult(tb, draw), 0.5);
    // KRvK needs more than one move: with 99 plies on the counter the rule comes first.
    chess::Position late = fen("8/8/8/4k3/8/8/8/K6R w - - 99 120");
    EXPECT_EQ(tablebaseResult(tb, late), 0.5);
    chess::Position early = fen("8/8/8/4k3/8/8/8/K6R w - - 10 120");
    EXPECT_EQ(tablebaseResult(tb, early), 1.0);
    chess::Position fivePieces = fen("8/8/8/4k3/8/8/8/KRRR4 w - - 0 1");
    EXPECT_FALSE(tablebaseResult(tb, fivePieces));
}

// Games from five-piece openings end when a capture takes them into the four-piece tables,
// with the tables' result; openings already in the tables are discarded.
TEST(Datagen, TablebasesEndGames) {
    const std::string tables = sharedData("syzygy").string();
    AXON_REQUIRE_DATA(tables);
    const std::string dir = scratchDir("datagen-tb");
    const std::string book = dir + "/book.epd";
    writeFile(book, "8/8/4k3/3p4/3P4/3K4/6r1/R7 w - - 0 1\n"
                    "8/8/2k5/8/2n5/3P4/2K5/3R4 w - - 0 1\n");
    DatagenConfig config;
    config.outDir = dir + "/out";
    config.games = 8;
    config.chunkGames = 8;
    config.softNodes = 300;
    config.book = book;
    config.randomPlies = 2;
    config.syzygyPath = tables;
    std::atomic<bool> stop{false};
    auto run = runDatagen(config, stop, {});
    ASSERT_TRUE(run.ok()) << run.error();
    EXPECT_EQ(run->games, 8u);
    EXPECT_GT(run->tablebaseGames, 0u);

    // The manifest names the tables: the same directory without them is another run.
    config.syzygyPath.clear();
    EXPECT_FALSE(runDatagen(config, stop, {}).ok());

    writeFile(book, "8/8/4k3/8/8/3K4/6r1/R7 w - - 0 1\n");
    config.outDir = dir + "/in-tables";
    config.syzygyPath = tables;
    config.games = 1;
    config.randomPlies = 0;
    auto inTables = runDatagen(config, stop, {});
    ASSERT_FALSE(inTables.ok()) << "every opening is in the tables: nothing can be played";
}

} // namespace
} // namespace axon::test

namespace axon::test {
namespace {

// --dfrc: games from double Chess960 starts that castle and are played on (each move reaches
// the engine in a form it reads: UciMove.Chess960CastlingNeedsItsOwnFormWhereTheKingStepsOne),
// kept whole in the games format; refused with a book or beyond 0..1, part of the manifest.
TEST(Datagen, DoubleChess960Starts) {
    const std::string dir = scratchDir("datagen-dfrc");
    DatagenConfig config;
    config.outDir = dir + "/out";
    config.games = 12;
    config.chunkGames = 12;
    config.softNodes = 300;
    config.dfrcFraction = 1;
    config.format = DatagenFormat::Games;
    config.seed = 5;
    std::atomic<bool> stop{false};
    auto run = runDatagen(config, stop, {});
    ASSERT_TRUE(run.ok()) << run.error();
    EXPECT_EQ(run->games, 12u);

    auto reader =
        GameReader::open(config.outDir + "/" + chunkFileName(5, 0, 0, DatagenFormat::Games));
    ASSERT_TRUE(reader.ok()) << reader.error();
    Game game;
    int games = 0, chess960Starts = 0, castled = 0;
    for (;;) {
        auto more = (*reader)->next(game);
        ASSERT_TRUE(more.ok()) << more.error();
        if (!*more) break;
        ++games;
        chess960Starts += game.start.isChess960();
        chess::Position pos = game.start;
        bool gameCastled = false;
        for (const GamePly& ply : game.plies) {
            gameCastled |= ply.move.type() == chess::MoveType::Castling;
            pos.makeMove(ply.move);
        }
        castled += gameCastled;
    }
    EXPECT_EQ(games, 12);
    EXPECT_GE(chess960Starts, 11) << "one start in 960 x 960 is the usual one";
    EXPECT_GT(castled, 0) << "games that castle are played on, not discarded";

    // The manifest names the share: the same directory without it is another run.
    config.dfrcFraction = 0;
    EXPECT_FALSE(runDatagen(config, stop, {}).ok());

    config.outDir = dir + "/refused";
    config.dfrcFraction = 1.5;
    EXPECT_FALSE(runDatagen(config, stop, {}).ok());
    config.dfrcFraction = 0.5;
    const std::string book = dir + "/book.epd";
    writeFile(book, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n");
    config.book = book;
    EXPECT_FALSE(runDatagen(config, stop, {}).ok());
}

} // namespace
} // namespace axon::test

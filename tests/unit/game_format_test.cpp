// SPDX-License-Identifier: GPL-3.0-or-later
// Game files (data/game_format.h): the viriformat layout byte for byte, round trips of random
// and self-play games (Chess960, castling, en passant, promotions), the size per position,
// every truncation and corrupt moves and boards refused with the file and offset, and the
// records a games chunk converts to equal those datagen writes for the same seed.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/rules.h"
#include "chess/uci_move.h"
#include "data/convert.h"
#include "data/datagen.h"
#include "data/game_format.h"
#include "data/game_records.h"
#include "data/record_file.h"
#include "test_helpers.h"
#include "util/prng.h"

namespace axon::test {
namespace {

using namespace data;
namespace fs = std::filesystem;

std::vector<std::uint8_t> readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::string& path, std::span<const std::uint8_t> bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// A random game from `fenText`: castling, en passant and promotions are played whenever they
// are legal, so every move type occurs; scores are random, some missing.
Game randomGame(const std::string& fenText, util::Prng& rng, int maxPlies) {
    Game game;
    game.start = fen(fenText);
    chess::Position pos = game.start;
    for (int i = 0; i < maxPlies && chess::gameStatus(pos) == chess::GameStatus::Ongoing; ++i) {
        const chess::MoveList legal(pos);
        chess::Move move = legal[int(rng.below(std::uint64_t(legal.size())))];
        for (const chess::Move m : legal)
            if (m.type() != chess::MoveType::Normal) move = m;
        const int score = rng.below(10) == 0 ? kNoPlyScore : int(rng.below(64001)) - 32000;
        game.plies.push_back({move, score});
        pos.makeMove(move);
    }
    game.whiteResult = GameResult(rng.below(3));
    return game;
}

const char* const kStarts[] = {
    chess::Position::kStartFen,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Chess960: rooks on b and h files, king on c/g.
    "1rk3rb/pppppppp/8/8/8/8/PPPPPPPP/1RK3RB w GBgb - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/1P4k1/8/8/8/8/6p1/4K3 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 37 80",
};

std::vector<Game> randomGames(int count) {
    util::Prng rng(2026);
    std::vector<Game> games;
    for (int i = 0; i < count; ++i)
        games.push_back(randomGame(kStarts[i % std::size(kStarts)], rng, 20 + int(rng.below(200))));
    return games;
}

void expectSameGame(const Game& a, const Game& b) {
    EXPECT_EQ(chess::toFen(a.start), chess::toFen(b.start));
    EXPECT_EQ(a.start.isChess960(), b.start.isChess960());
    EXPECT_EQ(a.whiteResult, b.whiteResult);
    EXPECT_EQ(a.plies, b.plies);
}

TEST(GameFormat, StartPositionAndMovesAreViriformatBytes) {
    Game game;
    game.start = chess::startPosition();
    game.whiteResult = GameResult::Win;
    chess::Position pos = game.start;
    for (const char* uci : {"e2e4", "e7e5"}) {
        auto m = chess::parseUciMove(pos, uci);
        ASSERT_TRUE(m.ok());
        game.plies.push_back({*m, pos.sideToMove() == chess::White ? 10 : -20});
        pos.makeMove(*m);
    }
    std::vector<std::uint8_t> bytes;
    ASSERT_EQ(encodeGame(game, bytes), "");
    const std::vector<std::uint8_t> expected = {
        0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, // occupancy
        0x16, 0x42, 0x25, 0x61, 0x00, 0x00, 0x00, 0x00, // R(6) N B Q K B N R(6)
        0x88, 0x88, 0x88, 0x88, 0x9E, 0xCA, 0xAD, 0xE9, // black pawns, pieces
        0x40, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, // stm+ep, clocks, win
        0x0C, 0x07, 0x0A, 0x00,                         // e2e4, White +10
        0x34, 0x09, 0x14, 0x00,                         // e7e5: Black -20 is White +20
        0x00, 0x00, 0x00, 0x00};                        // terminator
    EXPECT_EQ(bytes, expected);
    // Castling is king takes rook with type 2; en passant type 1; promotions type 3.
    const auto castle = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    EXPECT_EQ(encodeMove(*chess::parseUciMove(castle, "e1g1")), 4 | (7 << 6) | (2 << 14));
    const auto ep = fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    EXPECT_EQ(encodeMove(*chess::parseUciMove(ep, "e5f6")), 36 | (45 << 6) | (1 << 14));
    const auto promo = fen("8/1P4k1/8/8/8/8/6p1/4K3 w - - 0 1");
    EXPECT_EQ(encodeMove(*chess::parseUciMove(promo, "b7b8q")),
              49 | (57 << 6) | (3 << 12) | (3 << 14));
    for (const auto& [p, uci] : {std::pair{castle, "e1g1"}, std::pair{ep, "e5f6"},
                                 std::pair{promo, "b7b8n"}, std::pair{promo, "b7b8q"}}) {
        const chess::Move m = *chess::parseUciMove(p, uci);
        EXPECT_EQ(decodeMove(encodeMove(m)), m) << uci;
    }
}

TEST(GameFormat, RandomGamesRoundTripWithEveryMoveType) {
    const auto games = randomGames(70);
    int castling = 0, enPassant = 0, promotions = 0, unscored = 0;
    for (const Game& g : games)
        for (const GamePly& p : g.plies) {
            castling += p.move.type() == chess::MoveType::Castling;
            enPassant += p.move.type() == chess::MoveType::EnPassant;
            promotions += p.move.type() == chess::MoveType::Promotion;
            unscored += p.score == kNoPlyScore;
        }
    EXPECT_GT(castling, 0);
    EXPECT_GT(enPassant, 0);
    EXPECT_GT(promotions, 0);
    EXPECT_GT(unscored, 0);
    const std::string path = (uniqueTempPath("games") += ".games").string();
    ASSERT_EQ(writeAllGames(path, games), "");
    auto back = readAllGames(path);
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_EQ(back->size(), games.size());
    std::uint64_t plies = 0;
    for (std::size_t i = 0; i < games.size(); ++i) {
        expectSameGame((*back)[i], games[i]);
        plies += games[i].plies.size();
    }
    EXPECT_TRUE((*back)[2].start.isChess960());
    EXPECT_EQ(fs::file_size(path),
              kGameHeaderSize + games.size() * kGameOverheadSize + plies * kPlyEntrySize);
    // Writing what was read gives the same bytes.
    const std::string again = path + ".again";
    ASSERT_EQ(writeAllGames(again, *back), "");
    EXPECT_EQ(readBytes(again), readBytes(path));
    fs::remove(path);
    fs::remove(again);
}

TEST(GameFormat, ScoresAreWhiteRelativeOnDisk) {
    Game game;
    game.start = fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
    game.plies = {{*chess::parseUciMove(game.start, "e8d8"), 50}};
    std::vector<std::uint8_t> bytes;
    ASSERT_EQ(encodeGame(game, bytes), "");
    std::int16_t onDisk;
    std::memcpy(&onDisk, bytes.data() + kPackedBoardSize + 2, 2);
    EXPECT_EQ(onDisk, -50) << "Black's +50 is White's -50";
    game.plies[0].score = kNoPlyScore;
    bytes.clear();
    ASSERT_EQ(encodeGame(game, bytes), "");
    std::memcpy(&onDisk, bytes.data() + kPackedBoardSize + 2, 2);
    EXPECT_EQ(onDisk, kNoPlyScore) << "the sentinel is never negated";
    game.plies[0].score = 40000;
    bytes.clear();
    ASSERT_EQ(encodeGame(game, bytes), "");
    std::memcpy(&onDisk, bytes.data() + kPackedBoardSize + 2, 2);
    EXPECT_EQ(onDisk, -kRecordScoreLimit) << "clamped as records are";
}

TEST(GameFormat, EveryTruncationIsRefusedWithItsOffset) {
    util::Prng rng(5);
    std::vector<Game> games = {randomGame(chess::Position::kStartFen, rng, 6),
                               randomGame(kStarts[4], rng, 5)};
    const std::string path = (uniqueTempPath("trunc") += ".games").string();
    ASSERT_EQ(writeAllGames(path, games), "");
    const auto bytes = readBytes(path);
    const std::string cut = path + ".cut";
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        writeBytes(cut, std::span(bytes).first(size));
        auto read = readAllGames(cut);
        ASSERT_FALSE(read.ok()) << "a file cut to " << size << " bytes was accepted";
        EXPECT_NE(read.error().find(cut + ": byte " + std::to_string(size) + ": truncated"),
                  std::string::npos)
            << read.error();
    }
    // One byte too many is refused too.
    auto longer = bytes;
    longer.push_back(0);
    writeBytes(cut, longer);
    EXPECT_FALSE(readAllGames(cut).ok());
    fs::remove(path);
    fs::remove(cut);
}

TEST(GameFormat, CorruptMovesAndBoardsAreRefusedWithTheirOffset) {
    util::Prng rng(9);
    std::vector<Game> games = {randomGame(chess::Position::kStartFen, rng, 10),
                               randomGame(chess::Position::kStartFen, rng, 10)};
    ASSERT_EQ(games[0].plies.size(), 10u);
    const std::string path = (uniqueTempPath("corrupt") += ".games").string();
    ASSERT_EQ(writeAllGames(path, games), "");
    const auto good = readBytes(path);
    const std::string bad = path + ".bad";
    const auto expectRefused = [&](std::vector<std::uint8_t> bytes, std::size_t offset,
                                   const std::string& why) {
        writeBytes(bad, bytes);
        auto read = readAllGames(bad);
        ASSERT_FALSE(read.ok()) << why;
        EXPECT_NE(read.error().find(bad + ": byte " + std::to_string(offset) + ": "),
                  std::string::npos)
            << why << ": " << read.error();
        EXPECT_NE(read.error().find(why), std::string::npos) << read.error();
    };
    // The second game's fourth ply: a move from an empty square (a3 to a4).
    const std::size_t secondGame = kGameHeaderSize + kGameOverheadSize + 10 * kPlyEntrySize;
    const std::size_t ply = secondGame + kPackedBoardSize + 3 * kPlyEntrySize;
    auto bytes = good;
    const std::uint16_t a3a4 = 16 | (24 << 6);
    std::memcpy(bytes.data() + ply, &a3a4, 2);
    expectRefused(bytes, ply, "game 1: ply 3: illegal move");
    // A normal move with a promotion piece is no legal move.
    bytes = good;
    bytes[kGameHeaderSize + kPackedBoardSize + 1] |= 0x10;
    expectRefused(bytes, kGameHeaderSize + kPackedBoardSize, "game 0: ply 0: illegal move");
    // A result of 3.
    bytes = good;
    bytes[secondGame + 30] = 3;
    expectRefused(bytes, secondGame, "game 1: start position: result 3");
    // Piece code 7; a white king made black (two black kings).
    bytes = good;
    bytes[kGameHeaderSize + 8] |= 0x07;
    expectRefused(bytes, kGameHeaderSize, "piece code");
    bytes = good;
    bytes[kGameHeaderSize + 10] = 0x2D; // e1 king as a black king
    expectRefused(bytes, kGameHeaderSize, "exactly one king");
    // The terminator moved: the first game's last ply made a null move with a score.
    bytes = good;
    const std::size_t lastPly = kGameHeaderSize + kPackedBoardSize + 9 * kPlyEntrySize;
    bytes[lastPly] = bytes[lastPly + 1] = 0;
    bytes[lastPly + 2] = 1;
    expectRefused(bytes, lastPly, "null move with a non-zero score");
    // Counts that do not match the size; another magic; another version.
    bytes = good;
    bytes[16] = 1;
    expectRefused(bytes, 16, "corrupt");
    bytes = good;
    bytes[0] = 'B';
    expectRefused(bytes, 0, "bad magic");
    bytes = good;
    bytes[8] = 2;
    expectRefused(bytes, 8, "version 2");
    fs::remove(path);
    fs::remove(bad);
}

TEST(GameFormat, UnfinishedWriterLeavesNoFile) {
    const std::string path = (uniqueTempPath("unfinished") += ".games").string();
    {
        auto writer = GameWriter::create(path);
        ASSERT_TRUE(writer.ok());
        ASSERT_EQ((*writer)->write(randomGames(1)[0]), "");
        EXPECT_TRUE(fs::exists(path + ".tmp"));
    }
    EXPECT_FALSE(fs::exists(path));
    EXPECT_FALSE(fs::exists(path + ".tmp"));
}

// A short one-thread datagen run at 300 soft nodes (records unless the caller changes it).
DatagenConfig tinyDatagen(std::uint64_t seed, std::uint64_t positions, std::uint64_t chunk) {
    DatagenConfig config;
    config.threads = 1;
    config.positions = positions;
    config.chunkPositions = chunk;
    config.softNodes = 300;
    config.seed = seed;
    return config;
}

// The same datagen run written as records and as games: the games, converted, are the records.
TEST(GameFormat, DatagenGamesConvertToTheRecordsDatagenWrites) {
    const std::string dir = scratchDir("datagen-games");
    DatagenConfig config = tinyDatagen(5, 240, 120);
    std::atomic<bool> stop{false};
    config.outDir = dir + "/records";
    auto records = runDatagen(config, stop, {});
    ASSERT_TRUE(records.ok()) << records.error();
    config.outDir = dir + "/games";
    config.format = DatagenFormat::Games;
    auto games = runDatagen(config, stop, {});
    ASSERT_TRUE(games.ok()) << games.error();
    EXPECT_EQ(games->positions, records->positions);
    EXPECT_EQ(games->games, records->games);

    std::uint64_t plies = 0, bytes = 0, recorded = 0;
    for (std::uint64_t chunk = 0; chunk < 2; ++chunk) {
        const std::string gamesPath =
            dir + "/games/" + chunkFileName(5, 0, chunk, DatagenFormat::Games);
        const std::string recordsPath = dir + "/records/" + chunkFileName(5, 0, chunk);
        ConvertConfig convert;
        convert.from = DataFormat::Games;
        convert.inputs = {gamesPath};
        convert.output = dir + "/converted.bin";
        auto stats = runConvert(convert);
        ASSERT_TRUE(stats.ok()) << stats.error();
        EXPECT_EQ(readBytes(convert.output), readBytes(recordsPath))
            << "chunk " << chunk << ": the converted games differ from datagen's records";

        auto reader = GameReader::open(gamesPath);
        ASSERT_TRUE(reader.ok()) << reader.error();
        plies += (*reader)->plies();
        bytes += fs::file_size(gamesPath);
        recorded += stats->written;
        // Games read back re-encode to the same bytes (the self-play round trip).
        auto all = readAllGames(gamesPath);
        ASSERT_TRUE(all.ok()) << all.error();
        ASSERT_EQ(writeAllGames(dir + "/again.games", *all), "");
        EXPECT_EQ(readBytes(dir + "/again.games"), readBytes(gamesPath));
    }
    const double perPly = double(bytes) / double(plies);
    std::printf("self-play games: %llu plies, %llu records, %.2f bytes a ply, %.2f a record\n",
                static_cast<unsigned long long>(plies), static_cast<unsigned long long>(recorded),
                perPly, double(bytes) / double(recorded));
    EXPECT_LT(perPly, 6.0);

    // Resume: a lost games chunk is regenerated byte for byte, a finished one kept.
    const std::string lost = dir + "/games/" + chunkFileName(5, 0, 1, DatagenFormat::Games);
    const auto before = readBytes(lost);
    fs::remove(lost);
    auto resumed = runDatagen(config, stop, {});
    ASSERT_TRUE(resumed.ok()) << resumed.error();
    EXPECT_EQ(resumed->resumedChunks, 1u);
    EXPECT_EQ(resumed->chunksWritten, 1u);
    EXPECT_EQ(readBytes(lost), before);
    // A damaged chunk is generated again rather than counted.
    auto damaged = before;
    damaged.resize(damaged.size() - 1);
    writeBytes(lost, damaged);
    auto repaired = runDatagen(config, stop, {});
    ASSERT_TRUE(repaired.ok()) << repaired.error();
    EXPECT_EQ(repaired->chunksWritten, 1u);
    EXPECT_EQ(readBytes(lost), before);
}

// --keep-noisy lifts the two tactical filters and nothing else: the same games and plies give
// every filtered record, in order, and besides them only positions in check or with a capture
// or promotion for best move, some of each. (A ply in check within the opening counts as in
// check when filtered and as opening when not, so the counts are bounds, not equalities.)
TEST(GameFormat, KeepNoisyAddsOnlyTheTacticalPlies) {
    const std::string dir = scratchDir("keep-noisy");
    DatagenConfig config = tinyDatagen(7, 200, 200);
    config.format = DatagenFormat::Games;
    config.outDir = dir;
    std::atomic<bool> stop{false};
    auto run = runDatagen(config, stop, {});
    ASSERT_TRUE(run.ok()) << run.error();
    ConvertConfig convert;
    convert.from = DataFormat::Games;
    convert.inputs = {dir + "/" + chunkFileName(7, 0, 0, DatagenFormat::Games)};
    convert.output = dir + "/filtered.bin";
    auto filtered = runConvert(convert);
    ASSERT_TRUE(filtered.ok()) << filtered.error();
    convert.output = dir + "/all.bin";
    convert.games.keepNoisy = true;
    auto all = runConvert(convert);
    ASSERT_TRUE(all.ok()) << all.error();

    auto plies = [](const ConvertStats& s) {
        std::uint64_t n = s.written;
        for (const auto& [reason, count] : s.skipped) n += count;
        return n;
    };
    EXPECT_EQ(plies(*all), plies(*filtered));
    EXPECT_EQ(all->skipped.count("in check"), 0u);
    EXPECT_EQ(all->skipped.count("capture or promotion"), 0u);
    const std::uint64_t inCheck = filtered->skipped["in check"];
    const std::uint64_t noisy = filtered->skipped["capture or promotion"];

    auto kept = readAllRecords(dir + "/filtered.bin");
    auto every = readAllRecords(dir + "/all.bin");
    ASSERT_TRUE(kept.ok() && every.ok());
    std::size_t next = 0, checks = 0, tactical = 0;
    for (const TrainingRecord& r : *every) {
        if (next < kept->size() && r == (*kept)[next]) {
            ++next;
            continue;
        }
        auto pos = chess::parseFen(recordFen(r));
        ASSERT_TRUE(pos.ok()) << recordFen(r);
        const chess::Move best(r.bestMove);
        if (pos->inCheck())
            ++checks;
        else if (pos->isNoisy(best))
            ++tactical;
        else
            ADD_FAILURE() << "a quiet position the filter would have kept: " << recordFen(r);
    }
    EXPECT_EQ(next, kept->size()) << "a filtered record is missing from the unfiltered output";
    EXPECT_EQ(all->written, kept->size() + checks + tactical);
    EXPECT_GT(checks, 0u);
    EXPECT_GT(tactical, 0u);
    EXPECT_LE(checks, inCheck);
    EXPECT_LE(tactical, noisy);

    // Other formats have no such filter to lift: refused, nothing written.
    convert.from = DataFormat::Axon;
    convert.inputs = {dir + "/all.bin"};
    convert.output = dir + "/refused.bin";
    auto refused = runConvert(convert);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("--keep-noisy"), std::string::npos) << refused.error();
    EXPECT_FALSE(fs::exists(convert.output));
}

} // namespace
} // namespace axon::test

// SPDX-License-Identifier: GPL-3.0-or-later
// bulletformat records: hand-computed bytes, the reference crate's own test vector, round trips,
// rejection of bad boards and files, and corrupted files fed to the reader.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "chess/movegen.h"
#include "data/bulletformat.h"
#include "data/convert.h"
#include "data/record_file.h"
#include "test_helpers.h"

using namespace axon;
using data::BulletBoard;
using data::GameResult;
using data::TrainingRecord;

namespace {

std::string tempPath(const std::string& name) {
    return test::uniqueTempPath("convert-bullet-" + name).string();
}

std::array<std::uint8_t, 32> bytesOf(const BulletBoard& b) {
    std::array<std::uint8_t, 32> bytes;
    std::memcpy(bytes.data(), &b, sizeof b);
    return bytes;
}

// The position with colours swapped and ranks mirrored, White to move: what a Black-to-move
// record becomes through bulletformat. Written from the FEN text alone.
std::string mirrorFen(const std::string& fen) {
    const std::string board = fen.substr(0, fen.find(' '));
    std::vector<std::string> ranks;
    for (std::size_t start = 0;;) {
        const auto slash = board.find('/', start);
        ranks.push_back(board.substr(start, slash - start));
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    std::string out;
    for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
        for (char c : *it)
            out += std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c))
                                                               : char(std::toupper(c));
        if (it + 1 != ranks.rend()) out += '/';
    }
    return out + " w - - 0 1";
}

const std::vector<std::string> kFens = {
    chess::Position::kStartFen,
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "8/8/3k4/8/8/8/1K6/8 b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
};

} // namespace

TEST(BulletFormat, StartPositionBytes) {
    const TrainingRecord r = data::makeRecord(test::fen(chess::Position::kStartFen), 37,
                                              GameResult::Win, chess::Move::none(), 0);
    const std::array<std::uint8_t, 32> expected = {
        // occupancy 0xFFFF00000000FFFF, little-endian
        0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF,
        // R N, B Q, K B, N R; eight pawns; eight of their pawns (8); r n, b q, k b, n r
        0x13, 0x42, 0x25, 0x31, 0x00, 0x00, 0x00, 0x00, 0x88, 0x88, 0x88, 0x88, 0x9B, 0xCA, 0xAD,
        0xB9,
        // score 37, result 2 (win), our king e1 (4), their king e8 seen from Black (60 ^ 56)
        0x25, 0x00, 0x02, 0x04, 0x04, 0x00, 0x00, 0x00};
    EXPECT_EQ(bytesOf(data::toBullet(r)), expected);
}

TEST(BulletFormat, BlackToMoveBytes) {
    // Kings only, Black to move: Black's king d6 (43) is ours, flipped to d3 (19); White's king
    // b2 (9) flips to b7 (49) and is stored seen from White again (49 ^ 56 = 9).
    const TrainingRecord k = data::makeRecord(test::fen("8/8/3k4/8/8/8/1K6/8 b - - 0 1"), -120,
                                              GameResult::Loss, chess::Move::none(), 9);
    const std::array<std::uint8_t, 32> kings = {
        0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00, // bits 19 and 49
        0xD5, 0,    0,    0,    0,    0,    0,    0,
        0,    0,    0,    0,    0,    0,    0,    0,  // our king (5), their king (8 | 5)
        0x88, 0xFF, 0x00, 19,   9,    0,    0,    0}; // score -120, loss
    EXPECT_EQ(bytesOf(data::toBullet(k)), kings);

    // After 1. e4: Black's pieces become "ours" on ranks 1-2, White's e-pawn is on e5 (36).
    const TrainingRecord e4 =
        data::makeRecord(test::fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
                         -25, GameResult::Draw);
    const BulletBoard b = data::toBullet(e4);
    EXPECT_EQ(b.occupancy, 0xFFEF00100000FFFFull);
    const std::array<std::uint8_t, 16> pieces = {0x13, 0x42, 0x25, 0x31, 0x00, 0x00, 0x00, 0x00,
                                                 0x88, 0x88, 0x88, 0x88, 0x9B, 0xCA, 0xAD, 0xB9};
    EXPECT_EQ(b.pieces, pieces);
    EXPECT_EQ(b.score, -25);
    EXPECT_EQ(b.result, 1);
    EXPECT_EQ(b.ourKing, 4);
    EXPECT_EQ(b.theirKing, 4);
}

TEST(BulletFormat, MatchesTheCratesOwnTestVector) {
    // bulletformat's from_raw test: bitboards White, Black, P, N, B, R, Q, K with White to move
    // (an unusual board with White at the top), and the occupancy and nibbles it expects.
    const std::uint64_t bbs[8] = {0x91ff241018000000, 0x0000800200737d91, 0x00e7801208502d00,
                                  0x0000040010220000, 0x0018000000014000, 0x8100000000000081,
                                  0x0000200000001000, 0x1000000000000010};
    TrainingRecord r;
    r.occupancy = bbs[0] | bbs[1];
    int i = 0;
    for (std::uint64_t occ = r.occupancy; occ; occ &= occ - 1, ++i) {
        const std::uint64_t bit = occ & -occ;
        const int colour = (bbs[1] & bit) ? 1 : 0;
        int type = 0;
        while (!(bbs[2 + type] & bit)) ++type;
        r.pieces[i / 2] |= std::uint8_t((colour * 6 + type) << ((i & 1) * 4));
    }
    ASSERT_FALSE(data::validateRecord(r).has_value());
    const BulletBoard b = data::toBullet(r);
    EXPECT_EQ(b.occupancy, 0x91FFA41218737D91ull);
    const std::array<std::uint8_t, 16> expected = {0xDB, 0x8B, 0x88, 0x8C, 0xAA, 0x89, 0x89, 0x10,
                                                   0x08, 0x41, 0x08, 0x00, 0x22, 0x00, 0x30, 0x35};
    EXPECT_EQ(b.pieces, expected);
}

TEST(BulletFormat, RoundTripKeepsPositionScoreAndResult) {
    int score = -700;
    for (const std::string& f : kFens) {
        const chess::Position pos = test::fen(f);
        const chess::MoveList<> moves(pos);
        const TrainingRecord r = data::makeRecord(pos, score += 173, GameResult::Win, moves[0], 33);
        const BulletBoard b = data::toBullet(r);
        auto back = data::fromBullet(b);
        ASSERT_TRUE(back.ok()) << f << ": " << back.error();
        // Best move and ply are lost; Black-to-move positions come back mirrored.
        const std::string expectedFen = pos.sideToMove() == chess::White ? f : mirrorFen(f);
        const TrainingRecord expected =
            data::makeRecord(test::fen(expectedFen.substr(0, expectedFen.find(' ')) + " w - - 0 1"),
                             r.score, r.result);
        EXPECT_EQ(*back, expected) << f;
        EXPECT_EQ(back->bestMove, 0);
        EXPECT_EQ(back->ply, 0);
        // And bulletformat -> Axon -> bulletformat is the identity.
        EXPECT_EQ(bytesOf(data::toBullet(*back)), bytesOf(b)) << f;
    }
}

TEST(BulletFormat, RejectsBadBoards) {
    const BulletBoard good = data::toBullet(
        data::makeRecord(test::fen(chess::Position::kStartFen), 0, GameResult::Draw));
    ASSERT_TRUE(data::fromBullet(good).ok());
    auto bad = [&](auto change) {
        BulletBoard b = good;
        change(b);
        return !data::fromBullet(b).ok();
    };
    EXPECT_TRUE(bad([](BulletBoard& b) { b.result = 3; }));
    EXPECT_TRUE(bad([](BulletBoard& b) { b.pieces[4] = 0x66; }));           // piece type 6
    EXPECT_TRUE(bad([](BulletBoard& b) { b.pieces[0] = 0x15; }));           // a second king
    EXPECT_TRUE(bad([](BulletBoard& b) { b.ourKing = 3; }));                // wrong king square
    EXPECT_TRUE(bad([](BulletBoard& b) { b.theirKing = 60; }));             // not flipped back
    EXPECT_TRUE(bad([](BulletBoard& b) { b.occupancy |= 1ull << 20; }));    // 33 pieces
    EXPECT_TRUE(bad([](BulletBoard& b) { b.occupancy &= ~(1ull << 63); })); // stray nibble
    EXPECT_TRUE(bad([](BulletBoard& b) { b.pieces[2] = 0x20; }));           // no king of ours
    // The padding is not ours to judge.
    EXPECT_FALSE(bad([](BulletBoard& b) { b.extra = {1, 2, 3}; }));
}

TEST(BulletFormat, FilesRoundTripAndRejectBadSizes) {
    std::vector<TrainingRecord> records;
    for (const std::string& f : kFens)
        records.push_back(data::makeRecord(test::fen(f), 11, GameResult::Loss));
    const std::string axonIn = tempPath("in.bin"), bullet = tempPath("out.bullet"),
                      axonOut = tempPath("back.bin");
    ASSERT_EQ(data::writeAllRecords(axonIn, records), "");

    data::ConvertConfig config;
    config.from = data::DataFormat::Axon;
    config.to = data::DataFormat::Bullet;
    config.inputs = {axonIn};
    config.output = bullet;
    auto stats = data::runConvert(config);
    ASSERT_TRUE(stats.ok()) << stats.error();
    EXPECT_EQ(stats->written, records.size());
    EXPECT_EQ(std::filesystem::file_size(bullet), records.size() * 32);
    EXPECT_FALSE(std::filesystem::exists(bullet + ".tmp"));

    config.from = data::DataFormat::Bullet;
    config.to = data::DataFormat::Axon;
    config.inputs = {bullet};
    config.output = axonOut;
    stats = data::runConvert(config);
    ASSERT_TRUE(stats.ok()) << stats.error();
    auto back = data::readAllRecords(axonOut);
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_EQ(back->size(), records.size());
    for (std::size_t i = 0; i < records.size(); ++i) {
        EXPECT_EQ((*back)[i].score, records[i].score);
        EXPECT_EQ((*back)[i].result, records[i].result);
        EXPECT_EQ(data::toBullet((*back)[i]), data::toBullet(records[i]));
    }

    // A size that is not a multiple of 32 is refused, and nothing is written.
    const std::string odd = tempPath("odd.bullet"), none = tempPath("none.bin");
    std::filesystem::copy_file(bullet, odd, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::resize_file(odd, records.size() * 32 - 5);
    config.inputs = {odd};
    config.output = none;
    std::filesystem::remove(none);
    stats = data::runConvert(config);
    ASSERT_FALSE(stats.ok());
    EXPECT_NE(stats.error().find("not a multiple of the 32-byte"), std::string::npos)
        << stats.error();
    EXPECT_FALSE(std::filesystem::exists(none));
    EXPECT_FALSE(std::filesystem::exists(none + ".tmp"));

    // An Axon file given as bulletformat is named for what it is.
    config.inputs = {axonIn};
    std::filesystem::resize_file(axonIn, 32 * 4);
    stats = data::runConvert(config);
    ASSERT_FALSE(stats.ok());
    EXPECT_NE(stats.error().find("Axon data file"), std::string::npos) << stats.error();
    for (const auto& p : {axonIn, bullet, axonOut, odd}) std::filesystem::remove(p);
}

TEST(BulletFormat, CorruptedFilesGiveErrorsNotCrashes) {
    // Random bytes and bit flips in valid boards: the reader either refuses the board or hands
    // out a record that passes Axon's validation; a file with a refused board converts to nothing.
    std::mt19937_64 rng(12345);
    std::vector<BulletBoard> boards;
    for (const std::string& f : kFens)
        boards.push_back(data::toBullet(data::makeRecord(test::fen(f), 5, GameResult::Win)));
    int refused = 0, accepted = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        BulletBoard b = boards[std::size_t(trial) % boards.size()];
        auto* bytes = reinterpret_cast<unsigned char*>(&b);
        if (trial % 4 == 0) {
            for (std::size_t i = 0; i < sizeof b; ++i) bytes[i] = static_cast<unsigned char>(rng());
        } else {
            const int flips = 1 + int(rng() % 3);
            for (int k = 0; k < flips; ++k) bytes[rng() % 29] ^= std::uint8_t(1u << (rng() % 8));
        }
        auto r = data::fromBullet(b);
        if (!r) {
            ++refused;
            continue;
        }
        ++accepted;
        ASSERT_FALSE(data::validateRecord(*r).has_value()) << trial;
    }
    EXPECT_GT(refused, 1000);
    EXPECT_GT(accepted, 100); // score-only flips stay valid

    const std::string path = tempPath("corrupt.bullet"), out = tempPath("corrupt_out.bin");
    BulletBoard broken = boards[0];
    broken.pieces[0] = 0x77; // piece type 7
    {
        std::ofstream f(path, std::ios::binary);
        f.write(reinterpret_cast<const char*>(boards.data()),
                std::streamsize(boards.size() * sizeof(BulletBoard)));
        f.write(reinterpret_cast<const char*>(&broken), sizeof broken);
    }
    data::ConvertConfig config;
    config.from = data::DataFormat::Bullet;
    config.inputs = {path};
    config.output = out;
    std::filesystem::remove(out);
    auto stats = data::runConvert(config);
    ASSERT_FALSE(stats.ok());
    EXPECT_NE(stats.error().find("record " + std::to_string(boards.size())), std::string::npos)
        << stats.error();
    EXPECT_FALSE(std::filesystem::exists(out));
    EXPECT_FALSE(std::filesystem::exists(out + ".tmp"));
    std::filesystem::remove(path);
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Training records and data files: packing, validation, atomic writing, truncation.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "chess/fen.h"
#include "data/record_file.h"
#include "data/training_record.h"
#include "test_helpers.h"

using namespace axon;

namespace {

chess::Position fromFen(const std::string& fen) {
    auto p = chess::parseFen(fen);
    EXPECT_TRUE(p.ok()) << fen;
    return *p;
}

std::string tempPath(const std::string& name) {
    return test::uniqueTempPath("data-" + name).string();
}

} // namespace

TEST(TrainingRecord, PacksAndUnpacksTheBoard) {
    const std::string fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 0 1";
    const chess::Position pos = fromFen(fen);
    const auto r = data::makeRecord(pos, 123, data::GameResult::Win, chess::Move::none(), 0);
    EXPECT_FALSE(data::validateRecord(r));
    EXPECT_EQ(r.pieceCount(), 32);
    EXPECT_EQ(r.sideToMove(), chess::Black);
    EXPECT_EQ(data::recordFen(r), fen);
    int n = 0;
    r.forEachPiece([&](chess::Square s, chess::Piece p) {
        EXPECT_EQ(pos.pieceOn(s), p);
        ++n;
    });
    EXPECT_EQ(n, 32);
}

TEST(TrainingRecord, RejectsBadRecords) {
    auto r = data::makeRecord(fromFen("8/8/8/8/8/8/8/K6k w - - 0 1"), 0, data::GameResult::Draw);
    EXPECT_FALSE(data::validateRecord(r));
    auto noKing = r;
    noKing.pieces[0] = 0x00; // two white pawns on a1/h1: no kings, pawns on the first rank
    EXPECT_TRUE(data::validateRecord(noKing));
    auto badCode = r;
    badCode.pieces[0] = 0xF5;
    EXPECT_TRUE(data::validateRecord(badCode));
    auto badResult = r;
    badResult.result = data::GameResult(3);
    EXPECT_TRUE(data::validateRecord(badResult));
}

TEST(TrainingRecord, KeepsCastlingRights) {
    for (const std::string fen : {
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 0 1",
             "4k2r/8/8/8/8/8/8/R3K3 w Qk - 0 1",
             // Chess960: the outermost rooks (X-FEN) are kept.
             "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1",
         }) {
        const auto r = data::makeRecord(fromFen(fen), 0, data::GameResult::Draw);
        EXPECT_FALSE(data::validateRecord(r)) << fen;
        EXPECT_EQ(data::recordFen(r), fen);
        EXPECT_EQ(fromFen(data::recordFen(r)).castlingRights(), fromFen(fen).castlingRights());
    }
    // A right needs its king and a rook beyond it on the back rank.
    auto r = data::makeRecord(fromFen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), 0, data::GameResult::Draw);
    EXPECT_FALSE(data::validateRecord(r));
    auto wrongSide = r;
    wrongSide.flags = std::uint8_t(chess::WhiteKingSide << 1);
    EXPECT_TRUE(data::validateRecord(wrongSide));
    auto blackRight = r;
    blackRight.flags = std::uint8_t(chess::BlackQueenSide << 1);
    EXPECT_TRUE(data::validateRecord(blackRight));
    auto unusedBit = r;
    unusedBit.flags = 32;
    EXPECT_TRUE(data::validateRecord(unusedBit));
}

TEST(RecordFile, ReadsVersionOneFiles) {
    // Version 1 had no castling rights: the same layout with the rights' bits zero.
    const std::vector<data::TrainingRecord> records{
        data::makeRecord(fromFen("4k3/8/8/8/8/8/8/4K3 b - - 0 1"), 5, data::GameResult::Win)};
    const std::string path = tempPath("version1.bin");
    ASSERT_EQ(data::writeAllRecords(path, records), "");
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        const std::uint32_t one = 1, three = 3;
        f.seekp(8);
        f.write(reinterpret_cast<const char*>(&one), 4);
        f.close();
        auto back = data::readAllRecords(path);
        ASSERT_TRUE(back.ok()) << back.error();
        EXPECT_EQ(*back, records);
        std::fstream g(path, std::ios::in | std::ios::out | std::ios::binary);
        g.seekp(8);
        g.write(reinterpret_cast<const char*>(&three), 4);
    }
    auto future = data::readAllRecords(path);
    ASSERT_FALSE(future.ok());
    EXPECT_NE(future.error().find("unsupported data format version 3"), std::string::npos);
    std::filesystem::remove(path);
}

TEST(RecordFile, RoundTripsAndRejectsTruncation) {
    std::vector<data::TrainingRecord> records;
    const chess::Position pos = fromFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for (int i = 0; i < 100; ++i)
        records.push_back(
            data::makeRecord(pos, i, data::GameResult(i % 3), chess::Move::none(), i));
    const std::string path = tempPath("roundtrip.bin");
    ASSERT_EQ(data::writeAllRecords(path, records), "");
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    auto back = data::readAllRecords(path);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, records);
    auto mapped = data::MappedRecords::open(path);
    ASSERT_TRUE(mapped.ok());
    EXPECT_EQ((*mapped)->records().size(), 100u);
    EXPECT_EQ((*mapped)->validateAll(), "");

    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 7);
    auto truncated = data::readAllRecords(path);
    ASSERT_FALSE(truncated.ok());
    EXPECT_NE(truncated.error().find("truncated"), std::string::npos) << truncated.error();
    std::filesystem::remove(path);
}

TEST(RecordFile, UnfinishedWriterLeavesNoFile) {
    const std::string path = tempPath("unfinished.bin");
    {
        auto w = data::RecordWriter::create(path);
        ASSERT_TRUE(w.ok());
        const auto r =
            data::makeRecord(fromFen("8/8/8/8/8/8/8/K6k w - - 0 1"), 0, data::GameResult::Draw);
        EXPECT_EQ((*w)->write(r), "");
    }
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Lichess PGN, puzzle and EPD conversion: counts and values on the real Lichess sample checked
// against the CSV made from it, filters, .zst input (compressed here with libzstd, and
// truncated), malformed games, the first puzzle's record, EPD ce/bm/c9.
#include <gtest/gtest.h>

#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "chess/fen.h"
#include "chess/uci_move.h"
#include "data/convert.h"
#include "data/convert_epd.h"
#include "data/record_file.h"
#include "test_helpers.h"

using namespace axon;
using data::GameResult;
using data::TrainingRecord;
using test::sharedData;

namespace {

constexpr const char* kSamplePgn = "pgn/lichess_eval_sample.pgn";
// Counted in the sample with a script: 941 Standard games, 433 of them with evals, holding
// 29,579 of the file's 29,838 [%eval] comments, 1,631 of them mates.
constexpr std::uint64_t kGames = 981;
constexpr std::uint64_t kOtherVariants = 40;
constexpr std::uint64_t kStandardWithoutEvals = 941 - 433;
constexpr std::uint64_t kStandardEvals = 29579;
constexpr std::uint64_t kMateEvals = 1631;

std::string tempPath(const std::string& name) {
    return test::uniqueTempPath("convert-lichess-" + name).string();
}

using test::readFile;
using test::writeFile;

struct Converted {
    data::ConvertStats stats;
    std::vector<TrainingRecord> records;
    std::string error;
};

Converted convertFile(data::DataFormat from, const std::string& path,
                      const data::LichessPgnOptions& pgn = {}, bool puzzleLine = false) {
    data::ConvertConfig config;
    config.pgn = pgn;
    config.puzzles.wholeLine = puzzleLine;
    Converted c;
    data::MemorySink sink;
    data::ConvertOutput out(sink, c.stats);
    c.error = data::convertInput(from, path, config, out);
    c.records = std::move(sink.records);
    return c;
}

Converted convertText(data::DataFormat from, const std::string& text,
                      const data::LichessPgnOptions& pgn = {}) {
    const std::string path = tempPath("text.txt");
    writeFile(path, text);
    Converted c = convertFile(from, path, pgn);
    std::filesystem::remove(path);
    return c;
}

// Board and side to move: the part of a FEN a record keeps.
std::string positionKey(const std::string& fen) {
    const auto space = fen.find(' ');
    return fen.substr(0, space + 2);
}

std::string compress(const std::string& text) {
    std::string out(ZSTD_compressBound(text.size()), '\0');
    ZSTD_CCtx* ctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(ctx, ZSTD_c_compressionLevel, 3);
    ZSTD_CCtx_setParameter(ctx, ZSTD_c_checksumFlag, 1);
    const std::size_t n = ZSTD_compress2(ctx, out.data(), out.size(), text.data(), text.size());
    ZSTD_freeCCtx(ctx);
    EXPECT_FALSE(ZSTD_isError(n));
    out.resize(n);
    return out;
}

} // namespace

TEST(LichessPgn, SampleCountsAndValuesMatchTheCsv) {
    const auto pgn = sharedData(kSamplePgn);
    const auto csvPath = sharedData("evals/lichess_positions_evals.csv");
    AXON_REQUIRE_DATA(pgn);
    AXON_REQUIRE_DATA(csvPath);
    const Converted c = convertFile(data::DataFormat::LichessPgn, pgn.string());
    ASSERT_EQ(c.error, "");
    EXPECT_EQ(c.stats.items, kGames);
    EXPECT_EQ(c.stats.malformed, 0u) << c.stats.firstMalformed;
    EXPECT_EQ(c.stats.skipped.at("variant"), kOtherVariants);
    EXPECT_EQ(c.stats.notes.at("games without evals"), kStandardWithoutEvals);
    EXPECT_EQ(c.stats.written, kStandardEvals);
    ASSERT_EQ(c.records.size(), kStandardEvals);

    // The first game (1-0): after 1. d4 {0.0}, Black to move and lost; after 1... d5 {0.27},
    // White to move with +27 and won.
    EXPECT_EQ(data::recordFen(c.records[0]),
              "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
    EXPECT_EQ(c.records[0].score, 0);
    EXPECT_EQ(c.records[0].result, GameResult::Loss);
    EXPECT_EQ(c.records[0].ply, 1);
    EXPECT_EQ(c.records[1].score, 27);
    EXPECT_EQ(c.records[1].result, GameResult::Win);
    EXPECT_EQ(c.records[1].ply, 2);
    EXPECT_EQ(c.records[1].bestMove, 0);

    // Every CSV row (the first occurrence of each position) is among the records with the
    // same score, from the side to move's view, and ply; every record's position is in the CSV.
    std::multimap<std::string, const TrainingRecord*> byKey;
    for (const TrainingRecord& r : c.records) byKey.emplace(positionKey(data::recordFen(r)), &r);
    std::ifstream csv(csvPath);
    std::string line;
    std::getline(csv, line);
    std::set<std::string> csvKeys;
    int rows = 0, mates = 0, misses = 0;
    while (std::getline(csv, line)) {
        std::vector<std::string> f;
        std::stringstream s(line);
        for (std::string field; std::getline(s, field, ',');) f.push_back(field);
        ASSERT_GE(f.size(), 6u) << line;
        const std::string key = positionKey(f[0]);
        const bool black = key.back() == 'b';
        int white;
        if (!f[3].empty()) {
            const int n = std::stoi(f[3]);
            white = n > 0 ? data::kRecordScoreLimit - n : -(data::kRecordScoreLimit + n);
            ++mates;
        } else {
            white = std::stoi(f[2]);
        }
        const int expected = black ? -white : white;
        const int ply = std::stoi(f[5]);
        csvKeys.insert(key);
        ++rows;
        bool found = false;
        for (auto [it, end] = byKey.equal_range(key); it != end; ++it)
            found |= it->second->score == expected && it->second->ply == ply;
        EXPECT_TRUE(found) << line;
        if (!found && ++misses > 20) break; // enough to see what is wrong
    }
    EXPECT_EQ(rows, 27239);
    EXPECT_GT(mates, 1000);
    for (const auto& [key, r] : byKey) ASSERT_TRUE(csvKeys.count(key)) << key;
}

TEST(LichessPgn, FiltersCountWhatTheyLeaveOut) {
    const auto pgn = sharedData(kSamplePgn);
    AXON_REQUIRE_DATA(pgn);
    data::LichessPgnOptions o;
    o.mates = data::MateScores::Skip;
    Converted c = convertFile(data::DataFormat::LichessPgn, pgn.string(), o);
    EXPECT_EQ(c.stats.written, kStandardEvals - kMateEvals);
    EXPECT_EQ(c.stats.skipped.at("mate score"), kMateEvals);
    for (const auto& r : c.records) ASSERT_LT(std::abs(r.score), 30000);

    // Both players rated 2000+: 7 games with 389 evals; blitz: 3,513 evals; at least 300 s
    // initial time: 24,346 evals (counted with a script).
    o = {};
    o.minElo = 2000;
    EXPECT_EQ(convertFile(data::DataFormat::LichessPgn, pgn.string(), o).stats.written, 389u);
    o = {};
    o.timeControl = *data::parseTimeControlFilter("blitz");
    EXPECT_EQ(convertFile(data::DataFormat::LichessPgn, pgn.string(), o).stats.written, 3513u);
    o.timeControl = *data::parseTimeControlFilter("300");
    EXPECT_EQ(convertFile(data::DataFormat::LichessPgn, pgn.string(), o).stats.written, 24346u);
    o = {};
    o.maxElo = 1500;
    c = convertFile(data::DataFormat::LichessPgn, pgn.string(), o);
    EXPECT_GT(c.stats.skipped.at("elo"), 0u);
    EXPECT_LT(c.stats.written, kStandardEvals);

    o = {};
    o.skipPlies = 10;
    o.skipCheck = true;
    o.skipCaptures = true;
    c = convertFile(data::DataFormat::LichessPgn, pgn.string(), o);
    EXPECT_GT(c.stats.skipped.at("early ply"), 0u);
    EXPECT_GT(c.stats.skipped.at("in check"), 0u);
    EXPECT_GT(c.stats.skipped.at("next move captures"), 0u);
    std::uint64_t skipped = 0;
    for (const auto& [reason, n] : c.stats.skipped)
        if (reason != "variant") skipped += n;
    EXPECT_EQ(c.stats.written + skipped, kStandardEvals);
    for (const auto& r : c.records) {
        ASSERT_GT(r.ply, 10);
        ASSERT_FALSE(test::fen(data::recordFen(r)).inCheck()) << data::recordFen(r);
    }
}

TEST(LichessPgn, TimeControlClasses) {
    EXPECT_EQ(data::timeControlClass("15+0"), "ultrabullet");
    EXPECT_EQ(data::timeControlClass("60+0"), "bullet");
    EXPECT_EQ(data::timeControlClass("180+2"), "blitz");
    EXPECT_EQ(data::timeControlClass("300+8"), "rapid"); // 300 + 40 x 8 = 620 s
    EXPECT_EQ(data::timeControlClass("1800+0"), "classical");
    EXPECT_EQ(data::timeControlClass("-"), "correspondence");
    EXPECT_FALSE(data::timeControlClass("abc").has_value());
    EXPECT_FALSE(data::parseTimeControlFilter("hyperbullet").ok());
    const auto f = data::parseTimeControlFilter("Blitz,rapid");
    ASSERT_TRUE(f.ok());
    EXPECT_EQ(f->classes, (std::vector<std::string>{"blitz", "rapid"}));
}

TEST(LichessPgn, MalformedGamesAreCountedAndSkipped) {
    const std::string text = R"([Event "good"]
[Result "0-1"]

1. e4 { [%eval 0.3] } 1... e5 { [%eval #-2] } 0-1

[Event "illegal"]
[Result "1-0"]

1. e4 { [%eval 0.3] } 1... Ke7 2. Qxf7 { [%eval 1.0] } 1-0

[Event "unfinished"]
[Result "*"]

1. d4 { [%eval 0.1] } *

[Event "setup"]
[Result "1/2-1/2"]
[Variant "From Position"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"]
[SetUp "1"]

40. e4 { [%eval 5.5] } 1/2-1/2
)";
    const Converted c = convertText(data::DataFormat::LichessPgn, text);
    ASSERT_EQ(c.error, "");
    EXPECT_EQ(c.stats.items, 4u);
    EXPECT_EQ(c.stats.malformed, 1u);
    EXPECT_NE(c.stats.firstMalformed.find("game 2"), std::string::npos) << c.stats.firstMalformed;
    EXPECT_EQ(c.stats.skipped.at("no result"), 1u);
    ASSERT_EQ(c.records.size(), 3u);
    EXPECT_EQ(c.records[0].score, -30); // Black to move, White +0.3
    EXPECT_EQ(c.records[0].result, GameResult::Win);
    EXPECT_EQ(c.records[1].score,
              -(data::kRecordScoreLimit - 2)); // White to move, Black mates in 2
    EXPECT_EQ(c.records[1].result, GameResult::Loss);
    EXPECT_EQ(c.records[2].ply, 79); // move 40 from the FEN, after White's move
    EXPECT_EQ(c.records[2].score, -550);
    EXPECT_EQ(c.records[2].result, GameResult::Draw);

    // Not PGN at all: nothing readable is an error, not an empty success.
    const Converted junk = convertText(data::DataFormat::LichessPgn, std::string(500, '\x01'));
    EXPECT_NE(junk.error, "");
}

TEST(LichessPgn, ZstdInputMatchesPlainAndTruncationIsAnError) {
    const auto pgn = sharedData(kSamplePgn);
    AXON_REQUIRE_DATA(pgn);
    const std::string text = readFile(pgn.string());
    const std::string packed = compress(text);
    const std::string zst = tempPath("sample.pgn.zst");
    writeFile(zst, packed);
    const Converted plain = convertFile(data::DataFormat::LichessPgn, pgn.string());
    const Converted viaZstd = convertFile(data::DataFormat::LichessPgn, zst);
    ASSERT_EQ(viaZstd.error, "");
    EXPECT_EQ(viaZstd.records, plain.records);

    // Cut anywhere, or with a corrupted byte, the input is refused as a whole.
    for (const double at : {0.1, 0.5, 0.99}) {
        writeFile(zst, packed.substr(0, std::size_t(double(packed.size()) * at)));
        const Converted cut = convertFile(data::DataFormat::LichessPgn, zst);
        EXPECT_NE(cut.error.find("truncated"), std::string::npos) << at << ": " << cut.error;
    }
    std::string corrupt = packed;
    corrupt[corrupt.size() / 2] = char(corrupt[corrupt.size() / 2] ^ 0x5A);
    writeFile(zst, corrupt);
    EXPECT_NE(convertFile(data::DataFormat::LichessPgn, zst).error.find("zstd"), std::string::npos);

    // Through the driver: no output file.
    data::ConvertConfig config;
    config.from = data::DataFormat::LichessPgn;
    config.inputs = {zst};
    config.output = tempPath("never.bin");
    std::filesystem::remove(config.output);
    EXPECT_FALSE(data::runConvert(config).ok());
    EXPECT_FALSE(std::filesystem::exists(config.output));
    EXPECT_FALSE(std::filesystem::exists(config.output + ".tmp"));
    std::filesystem::remove(zst);
}

TEST(LichessPuzzles, FirstPuzzleAndWholeLines) {
    const auto csv = sharedData("puzzles/lichess_puzzles_dev.csv");
    AXON_REQUIRE_DATA(csv);
    const Converted c = convertFile(data::DataFormat::Puzzles, csv.string());
    ASSERT_EQ(c.error, "");
    EXPECT_EQ(c.stats.items, 5000u);
    EXPECT_EQ(c.stats.malformed, 0u) << c.stats.firstMalformed;
    ASSERT_EQ(c.records.size(), 5000u);
    // 0fYUn: "1r4k1/5ppp/p7/8/1P1R4/P1r4P/3R2P1/6K1 b - - 0 27", moves c3a3 d4d8 b8d8 d2d8: the
    // solver faces the position after c3a3 (ply 54, the game URL's #54) and plays d4d8.
    const TrainingRecord& first = c.records[0];
    EXPECT_EQ(data::recordFen(first), "1r4k1/5ppp/p7/8/1P1R4/r6P/3R2P1/6K1 w - - 0 28");
    const chess::Move best(first.bestMove);
    EXPECT_EQ(best.from(), chess::D4);
    EXPECT_EQ(best.to(), chess::D8);
    EXPECT_EQ(first.score, data::kPuzzleScore);
    EXPECT_EQ(first.result, GameResult::Draw);
    EXPECT_EQ(first.ply, 54);

    // Every solver position: 13,968 over the file (counted with a script); the second of the
    // first puzzle is after b8d8, with d2d8 to play.
    const Converted line = convertFile(data::DataFormat::Puzzles, csv.string(), {}, true);
    ASSERT_EQ(line.records.size(), 13968u);
    EXPECT_EQ(line.records[0], first);
    EXPECT_EQ(data::recordFen(line.records[1]), "3r2k1/5ppp/p7/8/1P6/r6P/3R2P1/6K1 w - - 0 29");
    EXPECT_EQ(chess::Move(line.records[1].bestMove).from(), chess::D2);
}

TEST(LichessPuzzles, BadRowsAndHeaders) {
    const Converted noHeader =
        convertText(data::DataFormat::Puzzles, "0fYUn,1r4k1/5ppp/p7/8/8/8/8/6K1 b - - 0 27,a1a2\n");
    EXPECT_NE(noHeader.error.find("header"), std::string::npos) << noHeader.error;
    const Converted rows =
        convertText(data::DataFormat::Puzzles, "PuzzleId,FEN,Moves\n"
                                               "a,8/8/8/8/8/8/8/8 w - - 0 1,e2e4 e7e5\n"
                                               "b,4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,e2e4\n"
                                               "c,4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,e2e5 e8e7\n"
                                               "d,4k3/8/8/8/8/8/4P3/4K3 w - - 0 1,e2e4 e8e7\n");
    EXPECT_EQ(rows.error, "");
    EXPECT_EQ(rows.stats.malformed, 3u);
    ASSERT_EQ(rows.records.size(), 1u);
    EXPECT_EQ(data::recordFen(rows.records[0]), "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
}

TEST(EpdConvert, CeBmAndResults) {
    const Converted c = convertText(
        data::DataFormat::Epd,
        "# a comment\n"
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ce -20; bm e5; c9 \"1-0\";\n"
        "\n"
        "4k3/8/8/8/8/8/4P3/4K3 w - - bm e4; id \"no ce\";\n"
        "4k3/8/8/8/8/8/4P3/4K3 w - - ce 150; result \"0-1\";\n"
        "4k3/8/8/8/8/8/4P3/4K3 w - - ce 10; c9 \"not a result\";\n"
        "this is not epd\n");
    ASSERT_EQ(c.error, "");
    EXPECT_EQ(c.stats.items, 5u);
    EXPECT_EQ(c.stats.malformed, 1u);
    EXPECT_EQ(c.stats.notes.at("positions without ce (score 0)"), 1u);
    ASSERT_EQ(c.records.size(), 4u);
    EXPECT_EQ(c.records[0].score, -20);
    EXPECT_EQ(c.records[0].result, GameResult::Loss); // Black to move, White won
    const chess::Move e5(c.records[0].bestMove);
    EXPECT_EQ(e5.from(), chess::E7);
    EXPECT_EQ(e5.to(), chess::E5);
    EXPECT_EQ(c.records[1].score, 0);
    EXPECT_EQ(c.records[1].result, GameResult::Draw);
    EXPECT_EQ(chess::Move(c.records[1].bestMove).to(), chess::E4);
    EXPECT_EQ(c.records[2].score, 150);
    EXPECT_EQ(c.records[2].result, GameResult::Loss);
    EXPECT_EQ(c.records[2].bestMove, 0);
    EXPECT_EQ(c.records[3].result, GameResult::Draw);
}

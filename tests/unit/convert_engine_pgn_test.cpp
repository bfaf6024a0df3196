// SPDX-License-Identifier: GPL-3.0-or-later
// Engine-match PGN conversion (data/engine_pgn.h): every comment form fastchess, cutechess and
// OpenBench write; the real samples of ../shared/data/pgn/engine-matches with their counts and
// the signs of known comments; OpenBench's compact and verbose .pgn.bz2 uploads against the
// plain file they were made from; book moves, mates, Chess960 and set-up games, SAN without
// move numbers; truncated and corrupt .bz2 input.
#include <gtest/gtest.h>

#include <bzlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "chess/fen.h"
#include "chess/pgn_reader.h"
#include "data/convert.h"
#include "data/datagen.h"
#include "data/engine_pgn.h"
#include "data/record_file.h"
#include "test_helpers.h"

using namespace axon;
using data::EngineComment;
using data::GameResult;
using data::TrainingRecord;
using test::sharedData;

namespace {

constexpr const char* kMatches = "pgn/engine-matches/";

std::string tempPath(const std::string& name) {
    return test::uniqueTempPath("convert-engine-pgn-" + name).string();
}

using test::readFile;
using test::writeFile;

struct Converted {
    data::ConvertStats stats;
    std::vector<TrainingRecord> records;
    std::string error;
    std::uint64_t skipped(const std::string& why) const {
        const auto it = stats.skipped.find(why);
        return it == stats.skipped.end() ? 0 : it->second;
    }
};

Converted convertFile(const std::string& path) {
    data::ConvertConfig config;
    Converted c;
    data::MemorySink sink;
    data::ConvertOutput out(sink, c.stats);
    c.error = data::convertInput(data::DataFormat::EnginePgn, path, config, out);
    c.records = std::move(sink.records);
    return c;
}

Converted convertText(const std::string& text) {
    const std::string path = tempPath("text.pgn");
    writeFile(path, text);
    Converted c = convertFile(path);
    std::filesystem::remove(path);
    return c;
}

std::string bzip2(const std::string& text) {
    unsigned size = unsigned(text.size() + text.size() / 100 + 600);
    std::string out(size, '\0');
    std::string in = text;
    EXPECT_EQ(BZ2_bzBuffToBuffCompress(out.data(), &size, in.data(), unsigned(in.size()), 9, 0, 0),
              BZ_OK);
    out.resize(size);
    return out;
}

EngineComment parse(const char* comment) { return data::parseEngineComment(comment); }

// The record the converter should write for the move of game `gameIndex` (0-based) in `path`
// whose SAN is `san` and whose comment is `comment`: the position it was played from, scored
// from its mover's view.
TrainingRecord expectedRecord(const std::string& path, int gameIndex, const std::string& san,
                              const std::string& comment, int score) {
    std::ifstream in(path);
    chess::PgnReader reader(in);
    chess::PgnGame game;
    for (int i = 0; i <= gameIndex; ++i) EXPECT_TRUE(reader.next(game).ok());
    chess::Position pos = *game.startPosition();
    for (const chess::PgnMove& m : game.moves) {
        if (m.text == san && m.comment == comment) {
            const double white = game.result == "1-0" ? 1.0 : game.result == "0-1" ? 0.0 : 0.5;
            return data::makeRecord(pos, score, data::resultFor(pos.sideToMove(), white), m.move,
                                    pos.gamePly());
        }
        pos.makeMove(m.move);
    }
    ADD_FAILURE() << san << " {" << comment << "} not found in game " << gameIndex;
    return {};
}

bool contains(const std::vector<TrainingRecord>& records, const TrainingRecord& r) {
    return std::find(records.begin(), records.end(), r) != records.end();
}

} // namespace

TEST(EngineComment, EveryFormTheToolsWrite) {
    EngineComment c = parse("+0.98/15 0.126s");
    EXPECT_EQ(c.kind, EngineComment::Kind::Score);
    EXPECT_EQ(c.score, 98);
    EXPECT_EQ(c.depth, 15);
    EXPECT_FALSE(c.mate);
    EXPECT_EQ(parse("-0.23/6 0.002s, n=3114, sd=8").score, -23);
    EXPECT_EQ(parse("-0.23/6").score, -23);
    EXPECT_EQ(parse("-0.23/6, line=e2e4 e7e5").score, -23);
    EXPECT_EQ(parse("0.00/18 0.172s").score, 0);
    EXPECT_EQ(parse("-0.00/3").score, 0);
    EXPECT_EQ(parse("+1.5/3").score, 150);
    EXPECT_EQ(parse("12/5").score, 1200);
    EXPECT_EQ(parse("+0.125/3").score, 13);
    EXPECT_EQ(parse("-0.124/3").score, -12);
    EXPECT_EQ(parse("+327.66/40").score, data::kRecordScoreLimit); // clamped
    EXPECT_EQ(parse("  +0.30/12 0.5s  ").score, 30);
    // Where another tool put words first, the token is still found.
    EXPECT_EQ(parse("White mates, +M1/245").score, data::kRecordScoreLimit - 1);

    c = parse("+M5/12");
    EXPECT_TRUE(c.mate);
    EXPECT_EQ(c.score, data::kRecordScoreLimit - 5);
    EXPECT_EQ(c.depth, 12);
    c = parse("-M3/7 0.000s");
    EXPECT_TRUE(c.mate);
    EXPECT_EQ(c.score, -(data::kRecordScoreLimit - 3));
    EXPECT_EQ(parse("+M1/245 0.003s, White mates").score, data::kRecordScoreLimit - 1);

    EXPECT_EQ(parse("book").kind, EngineComment::Kind::Book);
    EXPECT_EQ(parse(" book ").kind, EngineComment::Kind::Book);
    for (const char* none : {"", "   ", "unknown", "booked", "x+0.5/3", "+0.5", "+0.5/", "+0.5/x",
                             "+.5/3", "+0./3", "+0.98/15x", "+1234567/3", "+0.5/12345", "M/3",
                             "+-0.5/3", "1-0", "1/2-1/2", "0.126s", "n=3114, sd=8"}) {
        EXPECT_EQ(parse(none).kind, EngineComment::Kind::None) << "'" << none << "'";
    }
}

TEST(EnginePgn, FastchessSampleCountsAndSigns) {
    const auto pgn = sharedData(std::string(kMatches) + "fastchess-default-5+0.05.pgn");
    AXON_REQUIRE_DATA(pgn);
    const Converted c = convertFile(pgn.string());
    ASSERT_EQ(c.error, "");
    // 40 games, 5,114 scored comments (counted with grep): every one written or skipped once.
    EXPECT_EQ(c.stats.items, 40u);
    EXPECT_EQ(c.stats.malformed, 0u);
    EXPECT_EQ(c.records.size(), 3353u);
    EXPECT_EQ(c.skipped("capture or promotion"), 861u);
    EXPECT_EQ(c.skipped("in check"), 489u);
    EXPECT_EQ(c.skipped("opening"), 128u);
    EXPECT_EQ(c.skipped("decided score"), 283u);
    EXPECT_EQ(c.skipped("no score"), 0u);

    // Game 1 (Axon White, Toga Black, drawn): "19. a4 {+1.20/15 0.131s} Qf4 {+0.36/9 0.189s}".
    // Each score is its mover's view: White +1.20 with White to move, and Black's +0.36 with
    // Black to move although White's engine thought White better.
    const TrainingRecord white = expectedRecord(pgn.string(), 0, "a4", "+1.20/15 0.131s", 120);
    EXPECT_EQ(white.sideToMove(), chess::White);
    EXPECT_EQ(white.result, GameResult::Draw);
    EXPECT_TRUE(contains(c.records, white));
    const TrainingRecord black = expectedRecord(pgn.string(), 0, "Qf4", "+0.36/9 0.189s", 36);
    EXPECT_EQ(black.sideToMove(), chess::Black);
    EXPECT_TRUE(contains(c.records, black));
    // The same position with the sign turned is not there.
    TrainingRecord flipped = black;
    flipped.score = -36;
    EXPECT_FALSE(contains(c.records, flipped));

    for (const TrainingRecord& r : c.records) {
        EXPECT_FALSE(data::validateRecord(r).has_value()) << data::recordFen(r);
        EXPECT_NE(r.bestMove, 0);
        EXPECT_LE(std::abs(r.score), data::kMaxRecordedScore);
    }
}

TEST(EnginePgn, OpenBenchUploadsMatchThePlainFileTheyWereMadeFrom) {
    const auto plain = sharedData(std::string(kMatches) + "fastchess-openbench-style.pgn");
    const auto compact = sharedData(std::string(kMatches) + "openbench-compact.pgn.bz2");
    const auto verbose = sharedData(std::string(kMatches) + "openbench-verbose.pgn.bz2");
    AXON_REQUIRE_DATA(plain);
    AXON_REQUIRE_DATA(compact);
    AXON_REQUIRE_DATA(verbose);
    const Converted fromPlain = convertFile(plain.string());
    ASSERT_EQ(fromPlain.error, "");
    EXPECT_EQ(fromPlain.stats.items, 10u);
    EXPECT_EQ(fromPlain.records.size(), 1022u);
    EXPECT_EQ(fromPlain.skipped("capture or promotion") + fromPlain.skipped("in check") +
                  fromPlain.skipped("opening") + fromPlain.skipped("decided score") +
                  fromPlain.records.size(),
              1466u); // the file's scored comments
    for (const auto& upload : {compact, verbose}) {
        const Converted c = convertFile(upload.string());
        ASSERT_EQ(c.error, "") << upload;
        EXPECT_EQ(c.records, fromPlain.records) << upload;
        EXPECT_EQ(c.stats.skipped, fromPlain.stats.skipped) << upload;
    }

    // Game 1: "9. Bh3 Nd7 10. f4 exf4 11. gxf4 Bh4+ {+0.17/7 ...}": the first position kept (the
    // four before it are the opening, gxf4 captures), Black to move and +0.17 for Black.
    const TrainingRecord first =
        expectedRecord(plain.string(), 0, "Bh4+", "+0.17/7 0.002s, n=3431, sd=11", 17);
    ASSERT_FALSE(fromPlain.records.empty());
    EXPECT_EQ(fromPlain.records[0], first);
    EXPECT_EQ(first.sideToMove(), chess::Black);
}

TEST(EnginePgn, BookMovesMatesChecksAndCapturesAreLeftOut) {
    // SAN without move numbers, as OpenBench's pgn_util.py writes it.
    const Converted c = convertText(R"([Event "filters"]
[Result "1-0"]

e4 {book} e5 {book} Nf3 {book} Nc6 {book} Bc4 {+0.30/12 0.5s} Bc5 {-0.25/11 0.4s}
c3 {+0.35/12} Nf6 {-0.30/12} d4 {+0.40/12} exd4 {-0.2/10} cxd4 {+0.45/13} Bb4+ {-0.30/12}
Bd2 {+M5/20} Bxd2+ {-M4/21} Nbxd2 {+M3/30} d5 {-M2/20} exd5 {} Nxd5 1-0

[Event "unfinished"]
[Result "*"]

1. d4 {+0.10/5} d5 {-0.10/5} *

[Event "illegal"]
[Result "1-0"]

1. e4 {+0.10/5} Ke7 {-0.10/5} 1-0
)");
    ASSERT_EQ(c.error, "");
    EXPECT_EQ(c.stats.items, 3u);
    EXPECT_EQ(c.stats.malformed, 1u);
    EXPECT_NE(c.stats.firstMalformed.find("game 3 (line "), std::string::npos)
        << c.stats.firstMalformed;
    EXPECT_EQ(c.skipped("no result"), 1u);
    EXPECT_EQ(c.skipped("book move"), 4u);
    EXPECT_EQ(c.skipped("opening"), 4u); // Bc4 Bc5 c3 Nf6: the plies right after the book
    EXPECT_EQ(c.skipped("capture or promotion"), 3u); // exd4, cxd4, Bxd2+ (a mate score too)
    EXPECT_EQ(c.skipped("in check"), 2u);             // Bd2, Nbxd2
    EXPECT_EQ(c.skipped("decided score"), 1u);        // d5: a mate
    EXPECT_EQ(c.skipped("no score"), 2u);             // exd5 {} and Nxd5
    ASSERT_EQ(c.records.size(), 2u);
    // d4 with White to move (won), Bb4+ with Black to move (lost).
    EXPECT_EQ(c.records[0].sideToMove(), chess::White);
    EXPECT_EQ(c.records[0].score, 40);
    EXPECT_EQ(c.records[0].result, GameResult::Win);
    EXPECT_EQ(c.records[0].ply, 8);
    EXPECT_EQ(c.records[1].sideToMove(), chess::Black);
    EXPECT_EQ(c.records[1].score, -30);
    EXPECT_EQ(c.records[1].result, GameResult::Loss);
    EXPECT_EQ(c.records[1].ply, 11);
}

TEST(EnginePgn, Chess960AndSetUpGames) {
    const Converted c = convertText(R"([Event "960"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]
[Result "0-1"]

9. h3 {+0.20/10 0.1s} h6 {-0.15/9 0.1s} 10. g3 {+0.25/10} g6 {-0.20/9} 11. c3 {+0.30/10}
a6 {-0.22/9} 12. e3 {+0.31/11} b6 {-0.28/10} 0-1
)");
    ASSERT_EQ(c.error, "");
    EXPECT_EQ(c.stats.malformed, 0u);
    ASSERT_EQ(c.records.size(), 4u);
    EXPECT_EQ(c.records[0].score, 30);
    EXPECT_EQ(c.records[0].result, GameResult::Loss); // White to move, Black won
    EXPECT_EQ(c.records[1].score, -22);
    EXPECT_EQ(c.records[1].result, GameResult::Win);
    // Move 11 from the FEN's move 9: ply 20.
    EXPECT_EQ(c.records[0].ply, 20);
    // Both castling rights of each side survive: the rooks are the outermost on their sides.
    EXPECT_EQ(int(c.records[0].castling()), 15);
}

TEST(EnginePgn, TruncatedAndCorruptBzip2AreErrorsNamingTheFileAndLine) {
    const auto plain = sharedData(std::string(kMatches) + "fastchess-openbench-style.pgn");
    AXON_REQUIRE_DATA(plain);
    const std::string text = readFile(plain.string());
    const std::string packed = bzip2(text);
    const std::string path = tempPath("games.pgn.bz2");
    const Converted whole = convertFile(plain.string());

    // Two streams one after the other (pbzip2, or files joined with cat) read as one text.
    const std::size_t half = text.find("\n[Event", text.size() / 2) + 1;
    writeFile(path, bzip2(text.substr(0, half)) + bzip2(text.substr(half)));
    const Converted joined = convertFile(path);
    ASSERT_EQ(joined.error, "");
    EXPECT_EQ(joined.records, whole.records);

    for (const double at : {0.05, 0.5, 0.99}) {
        writeFile(path, packed.substr(0, std::size_t(double(packed.size()) * at)));
        const Converted cut = convertFile(path);
        EXPECT_NE(cut.error.find(path + ": line "), std::string::npos) << at << ": " << cut.error;
        EXPECT_NE(cut.error.find("truncated bzip2 stream"), std::string::npos) << cut.error;
    }
    std::string corrupt = packed;
    corrupt[corrupt.size() / 2] = char(corrupt[corrupt.size() / 2] ^ 0x5A);
    writeFile(path, corrupt);
    const Converted bad = convertFile(path);
    EXPECT_NE(bad.error.find(path + ": line "), std::string::npos) << bad.error;
    EXPECT_NE(bad.error.find("corrupt bzip2"), std::string::npos) << bad.error;
    writeFile(path, packed + "trailing junk");
    EXPECT_NE(convertFile(path).error.find("corrupt bzip2"), std::string::npos);

    // Through the driver: no output file.
    writeFile(path, corrupt);
    data::ConvertConfig config;
    config.from = data::DataFormat::EnginePgn;
    config.inputs = {path};
    config.output = tempPath("never.bin");
    std::filesystem::remove(config.output);
    EXPECT_FALSE(data::runConvert(config).ok());
    EXPECT_FALSE(std::filesystem::exists(config.output));
    EXPECT_FALSE(std::filesystem::exists(config.output + ".tmp"));
    std::filesystem::remove(path);
}

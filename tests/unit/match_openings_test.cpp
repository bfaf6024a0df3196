// SPDX-License-Identifier: GPL-3.0-or-later
// Opening books (EPD and PGN) and their order, and reading engines' `info` lines.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "match/openings.h"
#include "match/uci_engine.h"
#include "test_helpers.h"

namespace axon::match {
namespace {

std::string writeTemp(const std::string& name, const std::string& text) {
    static const std::string dir = test::scratchDir("openings");
    const auto path = std::filesystem::path(dir) / name;
    std::ofstream(path) << text;
    return path.string();
}

TEST(MatchOpenings, ReadsEpdIgnoringOperations) {
    const std::string path = writeTemp(
        "axon_match_openings.epd",
        "# comment\n"
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n"
        "\n"
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"x\";\r\n");
    auto book = loadOpenings(path);
    ASSERT_TRUE(book.ok()) << book.error();
    ASSERT_EQ(book->size(), 2u);
    // e3 is dropped: no legal en-passant capture, so the core writes '-'.
    EXPECT_EQ((*book)[0].fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    EXPECT_EQ((*book)[1].fen, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1");
    EXPECT_TRUE((*book)[1].moves.empty());
    std::filesystem::remove(path);

    EXPECT_FALSE(loadOpenings(writeTemp("axon_match_bad.epd", "not a fen\n")).ok());
    EXPECT_FALSE(loadOpenings(writeTemp("axon_match_empty.epd", "\n")).ok());
    EXPECT_FALSE(loadOpenings("/nonexistent/book.epd").ok());
}

TEST(MatchOpenings, ReadsPgnMainlines) {
    const std::string path = writeTemp(
        "axon_match_openings.pgn",
        "[Event \"a\"]\n\n1. e4 e5 2. Nf3 (2. f4) Nc6 *\n\n"
        "[Event \"bad\"]\n\n1. e4 e4 *\n\n"
        "[Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 *\n");
    auto book = loadOpenings(path);
    std::filesystem::remove(path);
    ASSERT_TRUE(book.ok()) << book.error();
    ASSERT_EQ(book->size(), 2u); // the illegal game is skipped
    EXPECT_EQ((*book)[0].fen, chess::Position::kStartFen);
    EXPECT_EQ((*book)[0].moves, (std::vector<std::string>{"e2e4", "e7e5", "g1f3", "b8c6"}));
    EXPECT_EQ((*book)[1].fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    EXPECT_EQ((*book)[1].moves, (std::vector<std::string>{"e2e4"}));
}

TEST(MatchOpenings, SharedBooksLoad) {
    const auto epd = test::sharedData("books/UHO_4060_v4.epd");
    AXON_REQUIRE_DATA(epd);
    auto book = loadOpenings(epd.string());
    ASSERT_TRUE(book.ok()) << book.error();
    EXPECT_GT(book->size(), 100000u);
}

TEST(MatchOpenings, RandomOrderIsASeededPermutation) {
    std::vector<Opening> book;
    for (int i = 0; i < 50; ++i) book.push_back(Opening{std::to_string(i), {}, false});
    const OpeningSequence sequential(book, OpeningOrder::Sequential, 0);
    const OpeningSequence a(book, OpeningOrder::Random, 7);
    const OpeningSequence b(book, OpeningOrder::Random, 7);
    const OpeningSequence c(book, OpeningOrder::Random, 8);
    std::set<std::string> seen;
    bool differsFromSeed8 = false, differsFromSequential = false;
    for (std::size_t i = 0; i < 50; ++i) {
        EXPECT_EQ(sequential.at(i).fen, std::to_string(i));
        EXPECT_EQ(a.at(i).fen, b.at(i).fen);
        differsFromSeed8 |= a.at(i).fen != c.at(i).fen;
        differsFromSequential |= a.at(i).fen != sequential.at(i).fen;
        seen.insert(a.at(i).fen);
    }
    EXPECT_EQ(seen.size(), 50u);
    EXPECT_TRUE(differsFromSeed8);
    EXPECT_TRUE(differsFromSequential);
    EXPECT_EQ(a.at(50).fen, a.at(0).fen); // wraps around
    EXPECT_EQ(OpeningSequence().at(3).fen, chess::Position::kStartFen);
}

TEST(MatchUci, InfoLinesGiveScoreAndDepth) {
    SearchResult r;
    parseInfoLine("info depth 12 seldepth 18 multipv 1 score cp -35 nodes 1000 pv e2e4 e7e5", r);
    EXPECT_EQ(r.depth, 12);
    ASSERT_TRUE(r.scoreCp.has_value());
    EXPECT_EQ(*r.scoreCp, -35);
    EXPECT_FALSE(r.scoreMate.has_value());
    parseInfoLine("info depth 13 score mate -4 pv e2e4", r);
    EXPECT_EQ(r.depth, 13);
    EXPECT_FALSE(r.scoreCp.has_value());
    EXPECT_EQ(*r.scoreMate, -4);
    // Strings and currmove lines change nothing.
    parseInfoLine("info string depth 99 score cp 5", r);
    parseInfoLine("info currmove e2e4 currmovenumber 1", r);
    EXPECT_EQ(r.depth, 13);
    EXPECT_EQ(*r.scoreMate, -4);
}

} // namespace
} // namespace axon::match

// SPDX-License-Identifier: GPL-3.0-or-later
// genfens (engine/genfens.h): argument parsing as OpenBench writes it, hostile arguments and
// books, and the openings themselves: legal, in play, distinct, in the score window and
// deterministic in the seed; plus the UCI command's output lines.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "chess/fen.h"
#include "chess/rules.h"
#include "engine/eval_file.h"
#include "engine/genfens.h"
#include "test_helpers.h"
#include "uci/session.h"
#include "uci_recorder.h"

using namespace axon;

namespace {

eval::EvalSource embedded() { return *engine::loadEvalSource(engine::kEmbeddedEvalName); }

std::vector<std::string> generate(const engine::GenfensRequest& request) {
    std::vector<std::string> fens;
    auto stats = engine::generateFens(request, embedded(),
                                      [&](const std::string& fen) { fens.push_back(fen); });
    EXPECT_TRUE(stats.ok()) << stats.error();
    return fens;
}

std::string writeFile(const std::string& name, const std::string& text) {
    const std::string path = test::scratchDir("genfens") + "/" + name;
    std::ofstream(path) << text;
    return path;
}

} // namespace

TEST(GenfensArguments, TheFormOpenBenchSends) {
    // genfens.py formats 'genfens %d seed %d book %s %s' with an empty extra: a trailing space.
    auto r = engine::parseGenfensArguments(" 64 seed 2147483647 book None ");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->count, 64u);
    EXPECT_EQ(r->seed, 2147483647u);
    EXPECT_TRUE(r->book.empty());
    EXPECT_EQ(r->basePlies(), engine::kGenfensStartPlies);

    r = engine::parseGenfensArguments("5 seed 7 book Books/UHO_4060_v4.epd plies 3 nodes 500 "
                                      "maxscore 300");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->book, "Books/UHO_4060_v4.epd");
    EXPECT_EQ(r->basePlies(), 3);
    EXPECT_EQ(r->nodes, 500u);
    EXPECT_EQ(r->maxScore, 300);
    r = engine::parseGenfensArguments("5 seed 7 book x.epd");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->basePlies(), engine::kGenfensBookPlies);
}

TEST(GenfensArguments, HostileArgumentsAreErrors) {
    for (const char* bad :
         {"", "   ", "-5 seed 1 book None", "0 seed 1 book None", "abc seed 1 book None",
          "99999999999999999999999 seed 1 book None", "10000001 seed 1", "5 seed -1 book None",
          "5 seed", "5 seed 1 book", "5 seed 1 seed 2", "5 colour white", "5 plies 201",
          "5 nodes 0", "5 maxscore -3", "5 seed 1x"}) {
        auto r = engine::parseGenfensArguments(bad);
        EXPECT_FALSE(r.ok()) << "accepted '" << bad << "'";
        if (!r.ok()) {
            EXPECT_FALSE(r.error().empty());
        }
    }
}

TEST(Genfens, OpeningsAreLegalDistinctInPlayAndSeeded) {
    engine::GenfensRequest request;
    request.count = 200;
    request.seed = 12345;
    const auto fens = generate(request);
    ASSERT_EQ(fens.size(), 200u);
    std::set<std::string> distinct;
    for (const std::string& fen : fens) {
        auto pos = chess::parseFen(fen);
        ASSERT_TRUE(pos.ok()) << fen << ": " << pos.error();
        EXPECT_EQ(chess::toFen(*pos), fen);
        EXPECT_EQ(chess::gameStatus(*pos), chess::GameStatus::Ongoing) << fen;
        // Eight or nine random plies: the fullmove number is 5.
        EXPECT_TRUE(fen.ends_with(" 5")) << fen;
        distinct.insert(fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1)));
    }
    EXPECT_EQ(distinct.size(), fens.size());

    EXPECT_EQ(generate(request), fens) << "the same seed must give the same openings";
    request.count = 20;
    const auto prefix = generate(request);
    EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), fens.begin()));
    request.seed = 12346;
    const auto other = generate(request);
    int shared = 0;
    for (const std::string& fen : other)
        shared += int(distinct.count(fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1))));
    EXPECT_LT(shared, 3) << "a neighbouring seed gave mostly the same openings";
}

TEST(Genfens, TheScoreWindowRejectsDecidedOpenings) {
    engine::GenfensRequest request;
    request.count = 20;
    request.seed = 3;
    request.maxScore = 40; // only nearly level positions pass
    std::vector<std::string> fens;
    auto stats = engine::generateFens(request, embedded(),
                                      [&](const std::string& fen) { fens.push_back(fen); });
    ASSERT_TRUE(stats.ok()) << stats.error();
    EXPECT_EQ(stats->generated, 20u);
    EXPECT_EQ(fens.size(), 20u);
    EXPECT_GT(stats->outOfWindow, 0u);
}

TEST(Genfens, BookPositionsAndBookErrors) {
    const std::string book =
        writeFile("book.epd", "# two positions, EPD and FEN\r\n\n"
                              "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - hmvc 0; "
                              "fmvn 2;\r\n"
                              "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n");
    engine::GenfensRequest request;
    request.count = 30;
    request.seed = 99;
    request.book = book;
    const auto fens = generate(request);
    ASSERT_EQ(fens.size(), 30u);
    for (const std::string& fen : fens) {
        auto pos = chess::parseFen(fen);
        ASSERT_TRUE(pos.ok()) << fen;
        // Two or three plies from a book position at move 2 or 3.
        const int move = std::stoi(fen.substr(fen.rfind(' ') + 1));
        EXPECT_GE(move, 3) << fen;
        EXPECT_LE(move, 4) << fen;
    }

    request.book = writeFile("bad.epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n"
                                        "not a fen\n");
    auto r = engine::generateFens(request, embedded(), [](const std::string&) {});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("bad.epd:2:"), std::string::npos) << r.error();

    request.book = writeFile("empty.epd", "\n# nothing\n");
    r = engine::generateFens(request, embedded(), [](const std::string&) {});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("no positions"), std::string::npos) << r.error();

    // A PGN book gives each game's final position; a game that does not replay is an error.
    request.book = writeFile("book.pgn", "[Event \"1\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"
                                         "[Event \"2\"]\n\n1. d4 d5 2. c4 e6 *\n");
    const auto fromPgn = generate(request);
    ASSERT_EQ(fromPgn.size(), 30u);
    for (const std::string& fen : fromPgn) {
        const int move = std::stoi(fen.substr(fen.rfind(' ') + 1));
        EXPECT_GE(move, 4) << fen;
        EXPECT_LE(move, 5) << fen;
    }
    request.book = writeFile("bad.pgn", "[Event \"1\"]\n\n1. e4 e5 *\n\n"
                                        "[Event \"2\"]\n\n1. e4 Ke7 *\n");
    r = engine::generateFens(request, embedded(), [](const std::string&) {});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("bad.pgn: game 2"), std::string::npos) << r.error();

    request.book = "/nonexistent/book.epd";
    r = engine::generateFens(request, embedded(), [](const std::string&) {});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("/nonexistent/book.epd"), std::string::npos) << r.error();
}

TEST(Genfens, AnImpossibleRequestGivesUpWithAnError) {
    // One book position and no random plies (one more half of the time): the position itself
    // and the 20 after one ply are all there is, and 100 are asked for.
    engine::GenfensRequest request;
    request.count = 100;
    request.plies = 0;
    request.book =
        writeFile("one.epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n");
    std::vector<std::string> fens;
    auto r = engine::generateFens(request, embedded(),
                                  [&](const std::string& fen) { fens.push_back(fen); });
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("in a row were rejected"), std::string::npos) << r.error();
    // The start position and the 20 after one ply, at most.
    EXPECT_LE(fens.size(), 21u);
}

TEST(Genfens, TheUciCommandPrintsWhatOpenBenchReads) {
    test::UciRecorder out;
    uci::Session session(out.sink());
    ASSERT_TRUE(session.handle("genfens 10 seed 5 book None "));
    auto lines = out.take();
    ASSERT_EQ(lines.size(), 10u);
    for (const std::string& line : lines) {
        ASSERT_TRUE(line.starts_with("info string genfens ")) << line;
        EXPECT_TRUE(chess::parseFen(line.substr(20)).ok()) << line;
    }
    for (const char* bad : {"genfens", "genfens -1 seed 1 book None",
                            "genfens 3 seed 1 book "
                            "/nonexistent.epd"}) {
        ASSERT_TRUE(session.handle(bad));
        lines = out.take();
        ASSERT_EQ(lines.size(), 1u) << bad;
        EXPECT_TRUE(lines[0].starts_with("info string error: genfens: ")) << lines[0];
    }
    // The session goes on answering.
    ASSERT_TRUE(session.handle("isready"));
    EXPECT_EQ(out.take(), std::vector<std::string>{"readyok"});
}

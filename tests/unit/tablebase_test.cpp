// SPDX-License-Identifier: GPL-3.0-or-later
// The Syzygy reader on the shared 3-4-piece tables: known results, the WDL of every sampled
// position equal to the minimax of its moves' WDL, DTZ stepping down along the best line, wins
// played out to mate within the fifty-move rule, and damaged, foreign and missing files refused
// with their names while the other tables keep working. (Against Stockfish's reading of the same
// files: tests/cli/tablebase_cli.sh.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "tablebase/material.h"
#include "tablebase/table_file.h"
#include "tablebase/tablebases.h"
#include "test_helpers.h"
#include "util/prng.h"

namespace axon {
namespace {

using namespace chess;
using tablebase::Tablebases;
using tablebase::Wdl;
namespace fs = std::filesystem;

const std::string& tablesDir() {
    static const std::string dir = test::sharedData("syzygy").string();
    return dir;
}

std::shared_ptr<Tablebases> openShared() {
    auto tb = Tablebases::open(tablesDir());
    EXPECT_TRUE(tb.ok()) << (tb.ok() ? "" : tb.error());
    return tb.ok() ? *tb : nullptr;
}

int sign(int v) { return (v > 0) - (v < 0); }

// A random legal position of two kings and `extra` other pieces (pawns off the back ranks), no
// castling, counters at zero.
Position randomPosition(util::Prng& rng, int extra) {
    constexpr PieceType kTypes[5] = {Pawn, Knight, Bishop, Rook, Queen};
    while (true) {
        Position pos;
        pos.clear();
        Bitboard used = 0;
        auto place = [&](Piece p) {
            while (true) {
                const Square s = Square(rng.below(64));
                if (used & squareBB(s)) continue;
                if (typeOf(p) == Pawn && (rankOf(s) == 0 || rankOf(s) == 7)) continue;
                used |= squareBB(s);
                pos.putPiece(p, s);
                return;
            }
        };
        place(WhiteKing);
        place(BlackKing);
        for (int i = 0; i < extra; ++i) place(makePiece(Color(rng.below(2)), kTypes[rng.below(5)]));
        pos.setSideToMove(Color(rng.below(2)));
        pos.setCounters(0, 1);
        pos.finishSetup();
        if (!pos.validate()) return pos;
    }
}

TEST(Tablebase, FindsEveryTableOfTheSharedSet) {
    AXON_REQUIRE_DATA(tablesDir());
    auto tb = openShared();
    ASSERT_TRUE(tb);
    EXPECT_EQ(tb->wdlCount(), 35);
    EXPECT_EQ(tb->dtzCount(), 35);
    EXPECT_EQ(tb->maxPieces(), 4);
}

// Every file's header, value maps, index, block lengths and length (64k + 16 bytes, the data
// clear of the checksum) pass the reader's checks: the checks refuse no genuine table.
// AXON_TABLE_DIRS (a SyzygyPath value) checks other tables too, such as generated 5-piece ones.
TEST(Tablebase, EveryFileOfTheSharedSetPassesTheChecks) {
    AXON_REQUIRE_DATA(tablesDir());
    std::vector<std::string> dirs{tablesDir()};
    if (const char* extra = std::getenv("AXON_TABLE_DIRS"))
        for (std::string& dir : tablebase::splitTablePaths(extra)) dirs.push_back(std::move(dir));
    int checked = 0;
    for (const auto& dir : dirs) {
        for (const auto& entry : fs::directory_iterator(dir)) {
            const std::string ext = entry.path().extension().string();
            if (ext != ".rtbw" && ext != ".rtbz") continue;
            const auto material = tablebase::parseTableName(entry.path().stem().string());
            ASSERT_TRUE(material) << entry.path();
            const auto kind =
                ext == ".rtbw" ? tablebase::TableKind::Wdl : tablebase::TableKind::Dtz;
            auto table = tablebase::TableFile::load(entry.path().string(), kind,
                                                    tablebase::TableInfo::fromMaterial(*material));
            EXPECT_TRUE(table.ok()) << (table.ok() ? "" : table.error());
            ++checked;
        }
    }
    EXPECT_GE(checked, 70) << "the shared set has 35 WDL and 35 DTZ files";
}

TEST(Tablebase, KnownResults) {
    AXON_REQUIRE_DATA(tablesDir());
    auto tb = openShared();
    ASSERT_TRUE(tb);
    struct Case {
        const char* fen;
        Wdl wdl;
        int dtzSign;
    };
    const Case cases[] = {
        {"8/8/8/8/8/8/8/K1k5 w - - 0 1", Wdl::Draw, 0},     // KvK, no table
        {"4k3/8/8/8/8/8/8/4K2Q w - - 0 1", Wdl::Win, 1},    // KQvK
        {"4k3/8/8/8/8/8/8/4K2Q b - - 0 1", Wdl::Loss, -1},  // the same, defending
        {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Wdl::Win, 1},    // KRvK
        {"8/8/8/8/8/4k3/8/4K2b w - - 0 1", Wdl::Draw, 0},   // KvKB
        {"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", Wdl::Draw, 0},  // KPvK, the king in time
        {"8/2k5/8/8/8/8/2K5/2Q4r b - - 0 1", Wdl::Draw, 0}, // KQvKR: Rxc1+ draws
        {"8/2k5/8/8/8/8/2K5/2Q4r w - - 0 1", Wdl::Win, 1},  // ... Qxh1 wins
        {"8/8/8/8/pP6/8/8/K1k5 b - b3 0 1", Wdl::Draw, 0},  // en passant: axb3 Kb1
        {"1k6/8/1K6/8/8/8/8/7R w - - 0 1", Wdl::Win, 1},    // mate in one
    };
    for (const Case& c : cases) {
        Position pos = test::fen(c.fen);
        const auto wdl = tb->probeWdl(pos);
        const auto dtz = tb->probeDtz(pos);
        ASSERT_TRUE(wdl && dtz) << c.fen;
        EXPECT_EQ(*wdl, c.wdl) << c.fen;
        EXPECT_EQ(sign(*dtz), c.dtzSign) << c.fen;
        EXPECT_EQ(toFen(pos), toFen(test::fen(c.fen))) << "the probe left the position changed";
    }
    Position mateInOne = test::fen("1k6/8/1K6/8/8/8/8/7R w - - 0 1");
    EXPECT_EQ(tb->probeDtz(mateInOne), 1);
    // Castling rights and more pieces than the tables hold: not in the tables.
    Position castling = test::fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    EXPECT_FALSE(tb->probeWdl(castling));
    Position five = test::fen("4k3/8/8/8/8/8/8/RRR1K3 w - - 0 1");
    EXPECT_FALSE(tb->probeWdl(five));
}

// Without the fifty-move rule a table's result is the minimax of its moves' results: any index
// or decoding error shows as a position that disagrees with its children.
TEST(Tablebase, WdlIsTheMinimaxOfItsMoves) {
    AXON_REQUIRE_DATA(tablesDir());
    auto tb = openShared();
    ASSERT_TRUE(tb);
    util::Prng rng(20261202);
    const int samples = test::kSanitizedBuild ? 400 : 3000;
    int checked = 0;
    for (int i = 0; i < samples; ++i) {
        Position pos = randomPosition(rng, 1 + int(rng.below(2)));
        const auto wdl = tb->probeWdl(pos);
        ASSERT_TRUE(wdl) << toFen(pos);
        const MoveList moves(pos);
        int best = moves.empty() ? (pos.inCheck() ? -1 : 0) : -1;
        for (Move m : moves) {
            pos.makeMove(m);
            const auto child = tb->probeWdl(pos);
            pos.unmakeMove();
            ASSERT_TRUE(child) << toFen(pos) << " after " << m.raw();
            best = std::max(best, -sign(int(*child)));
        }
        EXPECT_EQ(sign(int(*wdl)), best) << toFen(pos);
        ++checked;
    }
    EXPECT_EQ(checked, samples);
}

// DTZ: a won position is one ply (or two, where the file stores moves) further from its zeroing
// move than the best reply's position; a lost one one further than its longest defence.
TEST(Tablebase, DtzStepsDownAlongTheBestLine) {
    AXON_REQUIRE_DATA(tablesDir());
    auto tb = openShared();
    ASSERT_TRUE(tb);
    util::Prng rng(2026120201);
    const int samples = test::kSanitizedBuild ? 300 : 2000;
    int decided = 0;
    for (int i = 0; i < samples; ++i) {
        Position pos = randomPosition(rng, 1 + int(rng.below(2)));
        const auto dtz = tb->probeDtz(pos);
        const auto wdl = tb->probeWdl(pos);
        ASSERT_TRUE(dtz && wdl) << toFen(pos);
        EXPECT_EQ(sign(*dtz), sign(int(*wdl))) << toFen(pos);
        if (*dtz == 0) continue;
        ++decided;
        // The distance through each move that keeps the result for the side to move.
        int bestThrough = *dtz > 0 ? 1 << 20 : 0;
        for (Move m : MoveList(pos)) {
            const bool zeroing = pos.isCapture(m) || typeOf(pos.movedPiece(m)) == Pawn;
            pos.makeMove(m);
            const auto childWdl = tb->probeWdl(pos);
            const auto childDtz = tb->probeDtz(pos);
            const bool mates = pos.inCheck() && countLegalMoves(pos) == 0;
            pos.unmakeMove();
            ASSERT_TRUE(childWdl && childDtz);
            if (sign(-int(*childWdl)) != sign(*dtz)) continue;
            const int through = zeroing || mates ? 1 : std::abs(*childDtz) + 1;
            bestThrough =
                *dtz > 0 ? std::min(bestThrough, through) : std::max(bestThrough, through);
        }
        EXPECT_LE(std::abs(std::abs(*dtz) - bestThrough), 1)
            << toFen(pos) << " dtz " << *dtz << " best line " << bestThrough;
    }
    EXPECT_GT(decided, samples / 4);
}

// The ranking's best move, played by both sides, mates within the fifty-move rule.
TEST(Tablebase, RankedMovesWinToMateWithinTheFiftyMoveRule) {
    AXON_REQUIRE_DATA(tablesDir());
    auto tb = openShared();
    ASSERT_TRUE(tb);
    const char* starts[] = {
        "8/8/8/4k3/8/8/8/K6Q w - - 0 1",  // KQvK
        "8/8/8/4k3/8/8/8/K6R w - - 0 1",  // KRvK
        "8/8/8/4k3/8/8/8/KBN5 w - - 0 1", // KBNvK
        "8/8/8/8/k7/8/4P3/4K3 w - - 0 1", // KPvK
    };
    for (const char* start : starts) {
        Position pos = test::fen(start);
        const auto startWdl = tb->probeWdl(pos);
        ASSERT_TRUE(startWdl) << start;
        if (*startWdl != Wdl::Win) continue;
        int plies = 0;
        while (plies < 400) {
            const MoveList moves(pos);
            if (moves.empty()) break;
            auto ranking =
                tb->rankRootMoves(pos, std::span<const Move>(moves.begin(), moves.end()), true);
            ASSERT_TRUE(ranking) << toFen(pos);
            // The best rank; among equals the lowest DTZ: the shortest way to zero for the
            // winner (positive), the longest for the loser (negative).
            auto better = [](const tablebase::RankedMove& a, const tablebase::RankedMove& b) {
                return a.rank != b.rank ? a.rank > b.rank : a.dtz < b.dtz;
            };
            const auto best =
                *std::min_element(ranking->moves.begin(), ranking->moves.end(), better);
            pos.makeMove(best.move);
            ++plies;
            ASSERT_LT(pos.halfmoveClock(), 100)
                << start << ": the fifty-move rule at " << toFen(pos);
        }
        EXPECT_TRUE(pos.inCheck() && countLegalMoves(pos) == 0)
            << start << ": no mate after " << plies << " plies: " << toFen(pos);
        EXPECT_EQ(plies % 2, 1) << start << ": the wrong side was mated";
    }
}

TEST(Tablebase, MissingDirectoryIsRefusedWithItsName) {
    const auto tb = Tablebases::open("/nonexistent/syzygy");
    ASSERT_FALSE(tb.ok());
    EXPECT_NE(tb.error().find("/nonexistent/syzygy"), std::string::npos) << tb.error();
    const auto empty = Tablebases::open("<empty>");
    ASSERT_TRUE(empty.ok());
    EXPECT_EQ((*empty)->wdlCount(), 0);
}

TEST(Tablebase, SeveralDirectories) {
    AXON_REQUIRE_DATA(tablesDir());
    const std::string a = test::scratchDir("tb-a"), b = test::scratchDir("tb-b");
    for (const auto& entry : fs::directory_iterator(tablesDir())) {
        const std::string name = entry.path().filename().string();
        // Three-piece tables in one directory, four-piece ones in the other.
        fs::copy_file(entry.path(), (name.size() <= 9 ? a : b) + "/" + name);
    }
    auto tb = Tablebases::open(a + ":" + b);
    ASSERT_TRUE(tb.ok()) << tb.error();
    EXPECT_EQ((*tb)->wdlCount(), 35);
    Position pos = test::fen("8/2k5/8/8/8/8/2K5/2Q4r w - - 0 1");
    EXPECT_EQ((*tb)->probeWdl(pos), Wdl::Win);
}

// A truncated file, one with another format's magic and one with another table's contents are
// each refused with their names; the tables beside them keep answering.
TEST(Tablebase, DamagedFilesAreRefusedAndTheOthersStillLoad) {
    AXON_REQUIRE_DATA(tablesDir());
    const std::string dir = test::scratchDir("tb-damaged");
    for (const auto& entry : fs::directory_iterator(tablesDir()))
        fs::copy_file(entry.path(), dir + "/" + entry.path().filename().string());
    const std::string kqk = test::readFile(dir + "/KQvK.rtbw");
    test::writeFile(dir + "/KQvK.rtbw", kqk.substr(0, kqk.size() / 2));
    std::string krk = test::readFile(dir + "/KRvK.rtbw");
    krk[0] = char(0xD7); // a DTZ file's first byte
    test::writeFile(dir + "/KRvK.rtbw", krk);
    test::writeFile(dir + "/KBvKN.rtbw", test::readFile(tablesDir() + "/KNNvK.rtbw"));
    // Bytes appended after the checksum, and a copy cut short inside the checksum: the data of
    // both is whole, so only the length tells.
    test::writeFile(dir + "/KPvK.rtbw",
                    test::readFile(tablesDir() + "/KPvK.rtbw") + std::string(48, '\0'));
    const std::string kqkr = test::readFile(dir + "/KQvKR.rtbw");
    test::writeFile(dir + "/KQvKR.rtbw", kqkr.substr(0, kqkr.size() - 8));

    auto opened = Tablebases::open(dir);
    ASSERT_TRUE(opened.ok());
    auto& tb = *opened;
    Position qk = test::fen("4k3/8/8/8/8/8/8/4K2Q w - - 0 1");
    Position rk = test::fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    Position bkn = test::fen("4k3/8/8/3n4/8/8/8/B3K3 w - - 0 1");
    Position bk = test::fen("4k3/8/8/8/8/8/8/B3K3 w - - 0 1");
    Position pk = test::fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    Position qkr = test::fen("r3k3/8/8/8/8/8/8/4K1Q1 w - - 0 1");
    EXPECT_FALSE(tb->probeWdl(qk));
    EXPECT_FALSE(tb->probeWdl(rk));
    EXPECT_FALSE(tb->probeWdl(bkn));
    EXPECT_FALSE(tb->probeWdl(pk));
    EXPECT_FALSE(tb->probeWdl(qkr));
    EXPECT_EQ(tb->probeWdl(bk), Wdl::Draw) << "an intact table stopped answering";
    const auto errors = tb->takeErrors();
    ASSERT_EQ(errors.size(), 5u);
    auto mentions = [&](const std::string& file, const std::string& what) {
        return std::any_of(errors.begin(), errors.end(), [&](const std::string& e) {
            return e.find(file) != std::string::npos && e.find(what) != std::string::npos;
        });
    };
    EXPECT_TRUE(mentions("KQvK.rtbw", "truncated")) << errors[0];
    EXPECT_TRUE(mentions("KRvK.rtbw", "magic")) << errors[1];
    EXPECT_TRUE(mentions("KBvKN.rtbw", "match")) << errors[2];
    EXPECT_TRUE(mentions("KPvK.rtbw", "extended copy")) << errors[3];
    EXPECT_TRUE(mentions("KQvKR.rtbw", "truncated or extended")) << errors[4];
    EXPECT_TRUE(tb->takeErrors().empty()) << "each damaged file is reported once";
}

// Random damage to a small table: every probe of every sampled position answers or fails,
// never reads outside the file (the sanitizer builds check) or hangs.
TEST(Tablebase, RandomlyDamagedBytesNeverCrash) {
    AXON_REQUIRE_DATA(tablesDir());
    const std::string original = test::readFile(tablesDir() + "/KRvKN.rtbw");
    ASSERT_FALSE(original.empty());
    util::Prng rng(7);
    const int rounds = test::kSanitizedBuild ? 20 : 100;
    for (int round = 0; round < rounds; ++round) {
        const std::string dir = test::scratchDir("tb-fuzz-" + std::to_string(round));
        std::string bytes = original;
        const int flips = 1 + int(rng.below(8));
        for (int i = 0; i < flips; ++i) bytes[rng.below(bytes.size())] = char(rng.next());
        test::writeFile(dir + "/KRvKN.rtbw", bytes);
        auto tb = Tablebases::open(dir);
        ASSERT_TRUE(tb.ok());
        util::Prng positions(11);
        for (int i = 0; i < 200; ++i) {
            Position pos;
            // KRvKN positions, either way round.
            do {
                pos = randomPosition(positions, 2);
            } while (!(pos.count(White, Rook) == 1 && pos.count(Black, Knight) == 1) &&
                     !(pos.count(Black, Rook) == 1 && pos.count(White, Knight) == 1));
            const auto wdl = (*tb)->probeWdl(pos);
            if (wdl) {
                EXPECT_GE(int(*wdl), -2);
            }
        }
        fs::remove_all(dir);
    }
}

} // namespace
} // namespace axon

// SPDX-License-Identifier: GPL-3.0-or-later
// EPD: the classic test suites and perft files parse and round-trip; operations, counters and
// quoting behave; malformed records are rejected with messages naming the fault.
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "chess/epd.h"
#include "chess/movegen.h"
#include "chess/san.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;

bool hasText(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

EpdRecord parsed(const std::string& line) {
    auto record = parseEpd(line);
    EXPECT_TRUE(record.ok()) << line << ": " << (record.ok() ? "" : record.error());
    return record.ok() ? *record : EpdRecord{};
}

std::vector<std::string> sans(const EpdRecord& record, const std::vector<Move>& moves) {
    std::vector<std::string> out;
    for (const Move m : moves) out.push_back(toSan(record.position, m));
    return out;
}

// Writing a record and reading it back gives the same record and the same text.
void expectRoundTrip(const EpdRecord& record) {
    const std::string text = toEpd(record);
    auto again = parseEpd(text);
    ASSERT_TRUE(again.ok()) << text << ": " << again.error();
    EXPECT_TRUE(*again == record) << text;
    EXPECT_EQ(toEpd(*again), text);
}

std::vector<std::string> nonBlankLines(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (!line.empty()) lines.push_back(line);
    }
    return lines;
}

struct SuiteSummary {
    size_t records = 0;
    size_t avoidMoves = 0;
    size_t sameText = 0; // records written back exactly as the file has them
};

// Every record has a unique id with the suite's prefix and legal best (and avoid) moves, and
// survives a write-read cycle; records agree with their lines read one by one.
SuiteSummary checkTestSuite(const std::filesystem::path& path, const std::string& idPrefix) {
    SuiteSummary summary;
    std::ifstream in(path);
    auto records = readEpd(in);
    EXPECT_TRUE(records.ok()) << (records.ok() ? "" : records.error());
    if (!records.ok()) return summary;
    const auto lines = nonBlankLines(path);
    EXPECT_EQ(records->size(), lines.size());
    std::set<std::string> ids;
    for (size_t i = 0; i < records->size() && i < lines.size(); ++i) {
        const EpdRecord& record = (*records)[i];
        EXPECT_EQ(record.id.rfind(idPrefix, 0), 0u) << lines[i];
        EXPECT_EQ(record.id.find('\r'), std::string::npos) << lines[i];
        EXPECT_TRUE(ids.insert(record.id).second) << "duplicate id " << record.id;
        EXPECT_FALSE(record.bestMoves.empty()) << lines[i];
        const MoveList legal(record.position);
        for (const Move m : record.bestMoves) EXPECT_TRUE(legal.contains(m)) << lines[i];
        for (const Move m : record.avoidMoves) EXPECT_TRUE(legal.contains(m)) << lines[i];
        EXPECT_TRUE(parsed(lines[i]) == record) << lines[i];
        expectRoundTrip(record);
        summary.avoidMoves += record.avoidMoves.size();
        summary.sameText += toEpd(record) == lines[i];
    }
    summary.records = records->size();
    return summary;
}

TEST(EpdSuites, WinAtChess) {
    const auto path = sharedData("epd/wac.epd");
    AXON_REQUIRE_DATA(path);
    const SuiteSummary summary = checkTestSuite(path, "WAC.");
    EXPECT_EQ(summary.records, 300u);
    // Lines are "FEN bm ...; id ...;", the writer's own order, with minimal SAN and check marks.
    EXPECT_EQ(summary.sameText, 300u);
}

TEST(EpdSuites, WinAtChessRevised) {
    const auto path = sharedData("epd/wacnew.epd");
    AXON_REQUIRE_DATA(path);
    const SuiteSummary summary = checkTestSuite(path, "WAC.");
    EXPECT_EQ(summary.records, 300u);
    EXPECT_EQ(summary.avoidMoves, 1u);
    // All but three: two put c0 before id, one am before bm.
    EXPECT_EQ(summary.sameText, 297u);
}

TEST(EpdSuites, BratkoKopec) {
    const auto path = sharedData("epd/bratko-kopec.epd");
    AXON_REQUIRE_DATA(path);
    const SuiteSummary summary = checkTestSuite(path, "BK.");
    EXPECT_EQ(summary.records, 24u);
    EXPECT_EQ(summary.sameText, 24u);
}

TEST(EpdSuites, EncyclopediaOfMiddlegamesWithCrlf) {
    const auto path = sharedData("epd/ecm.epd");
    AXON_REQUIRE_DATA(path);
    const SuiteSummary summary = checkTestSuite(path, "ECM.");
    EXPECT_EQ(summary.records, 879u);
    EXPECT_EQ(summary.sameText, 879u);
}

TEST(EpdSuites, KnownRecords) {
    const auto path = sharedData("epd/wacnew.epd");
    AXON_REQUIRE_DATA(path);
    std::ifstream in(path);
    auto records = readEpd(in);
    ASSERT_TRUE(records.ok()) << records.error();
    ASSERT_EQ(records->size(), 300u);
    const EpdRecord& first = (*records)[0];
    EXPECT_EQ(first.id, "WAC.001");
    EXPECT_EQ(sans(first, first.bestMoves), std::vector<std::string>{"Qg6"});
    EXPECT_EQ(first.bestMoves[0], Move(G3, G6));
    EXPECT_EQ(first.position.sideToMove(), White);

    const EpdRecord& avoid = (*records)[273];
    EXPECT_EQ(avoid.id, "WAC.274");
    EXPECT_EQ(sans(avoid, avoid.avoidMoves), std::vector<std::string>{"Rd6"});
    EXPECT_EQ(sans(avoid, avoid.bestMoves), (std::vector<std::string>{"Rb6", "Rg5+"}));

    const EpdRecord& comment = (*records)[149];
    EXPECT_EQ(comment.id, "WAC.150");
    EXPECT_EQ(comment.comments[0], "All win but e3 is best.");
    EXPECT_EQ(sans(comment, comment.bestMoves),
              (std::vector<std::string>{"Ba3", "Be5", "Bf8", "e3"}));
    EXPECT_EQ(comment.position.sideToMove(), Black);
}

// Perft files are EPD too: six FEN fields, then ";D1 20 ;D2 400" operations.
TEST(EpdSuites, PerftFilesKeepUnknownOperations) {
    for (const char* file : {"perft/standard.epd", "perft/fischer.epd"}) {
        const auto path = sharedData(file);
        AXON_REQUIRE_DATA(path);
        std::ifstream in(path);
        auto records = readEpd(in);
        ASSERT_TRUE(records.ok()) << file << ": " << records.error();
        EXPECT_GE(records->size(), 127u);
        int checked = 0;
        for (const EpdRecord& record : *records) {
            ASSERT_FALSE(record.otherOperations.empty()) << file;
            for (const EpdOperation& op : record.otherOperations) {
                ASSERT_EQ(op.operands.size(), 1u) << op.opcode;
                if (op.opcode != "D1") continue;
                EXPECT_EQ(op.operands[0].text, std::to_string(countLegalMoves(record.position)))
                    << toFen(record.position);
                ++checked;
            }
            expectRoundTrip(record);
        }
        EXPECT_GE(checked, 125) << file;
    }
}

// --- Operations ----------------------------------------------------------------------------------

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

TEST(EpdOperations, TypedOpcodes) {
    const EpdRecord r =
        parsed(std::string(kStart) +
               " bm e4 d4; am f3 g4; ce +25; id \"start\"; c0 \"first\"; c9 \"last\";");
    EXPECT_EQ(sans(r, r.bestMoves), (std::vector<std::string>{"e4", "d4"}));
    EXPECT_EQ(sans(r, r.avoidMoves), (std::vector<std::string>{"f3", "g4"}));
    EXPECT_EQ(r.centipawns, 25);
    EXPECT_EQ(r.id, "start");
    EXPECT_EQ(r.comments[0], "first");
    EXPECT_EQ(r.comments[9], "last");
    EXPECT_TRUE(r.comments[5].empty());
    EXPECT_TRUE(r.otherOperations.empty());
    expectRoundTrip(r);
    EXPECT_EQ(parsed(std::string(kStart) + " ce -300;").centipawns, -300);
    EXPECT_FALSE(parsed(std::string(kStart) + " bm e4;").centipawns.has_value());
}

TEST(EpdOperations, QuotedStringsMayHoldSemicolonsAndSpaces) {
    const EpdRecord r = parsed(std::string(kStart) + " id \"a; b;c\"; c1 \"x ; y\"; bm Nf3;");
    EXPECT_EQ(r.id, "a; b;c");
    EXPECT_EQ(r.comments[1], "x ; y");
    EXPECT_EQ(sans(r, r.bestMoves), std::vector<std::string>{"Nf3"});
    expectRoundTrip(r);
}

TEST(EpdOperations, OtherOpcodesAreKeptInOrder) {
    const EpdRecord r =
        parsed(std::string(kStart) + " acd 12; pv e4 e5 Nf3; noop; sv \"quoted text\"; D1 20;");
    ASSERT_EQ(r.otherOperations.size(), 5u);
    EXPECT_EQ(r.otherOperations[0].opcode, "acd");
    EXPECT_EQ(r.otherOperations[0].operands, (std::vector<EpdOperand>{{"12", false}}));
    EXPECT_EQ(r.otherOperations[1].opcode, "pv");
    EXPECT_EQ(r.otherOperations[1].operands.size(), 3u);
    EXPECT_TRUE(r.otherOperations[2].operands.empty());
    EXPECT_EQ(r.otherOperations[3].operands, (std::vector<EpdOperand>{{"quoted text", true}}));
    EXPECT_EQ(r.otherOperations[4].opcode, "D1");
    expectRoundTrip(r);
    EXPECT_EQ(toEpd(r),
              std::string(kStart) + " acd 12; pv e4 e5 Nf3; noop; sv \"quoted text\"; D1 20;");
}

TEST(EpdOperations, MoveCounters) {
    const EpdRecord ops = parsed(std::string(kStart) + " hmvc 7; fmvn 42; id \"x\";");
    EXPECT_EQ(ops.position.halfmoveClock(), 7);
    EXPECT_EQ(ops.position.fullmoveNumber(), 42);
    expectRoundTrip(ops);
    EXPECT_TRUE(hasText(toEpd(ops), "hmvc 7;"));
    EXPECT_TRUE(hasText(toEpd(ops), "fmvn 42;"));

    const EpdRecord fields = parsed(std::string(kStart) + " 7 42 id \"x\";");
    EXPECT_TRUE(fields == ops);
    const EpdRecord plain = parsed(std::string(kStart) + " id \"x\";");
    EXPECT_EQ(plain.position.halfmoveClock(), 0);
    EXPECT_EQ(plain.position.fullmoveNumber(), 1);
    EXPECT_FALSE(hasText(toEpd(plain), "hmvc"));
    EXPECT_FALSE(plain == ops);
}

TEST(EpdOperations, LenientLayout) {
    const std::string base = std::string(kStart) + " bm e4; id \"x\";";
    const EpdRecord expected = parsed(base);
    for (const std::string& line :
         {std::string(kStart) + " bm e4; id \"x\"", std::string(kStart) + " bm e4;id \"x\";\r",
          std::string(kStart) + "\tbm\te4 ;  id \"x\" ;  ",
          std::string(kStart) + " ;bm e4 ;;id \"x\";",
          "  " + std::string(kStart) + " bm e4!; id\"x\";",
          std::string(kStart) + " 0 1 bm e4; id \"x\";"}) {
        auto r = parseEpd(line);
        ASSERT_TRUE(r.ok()) << line << ": " << r.error();
        EXPECT_TRUE(*r == expected) << line;
    }
    EXPECT_TRUE(parsed(std::string(kStart)).otherOperations.empty());
}

TEST(EpdOperations, WriterOfABuiltRecord) {
    EpdRecord r;
    r.position = startPosition();
    r.bestMoves = {Move(E2, E4), Move(G1, F3)};
    r.id = "say \"hi\"";
    r.comments[2] = "";
    r.otherOperations.push_back({"pv", {{"e4", false}, {"two words", false}, {"", false}}});
    EXPECT_EQ(toEpd(r),
              std::string(kStart) + " bm e4 Nf3; id \"say 'hi'\"; pv e4 \"two words\" \"\";");
    const EpdRecord back = parsed(toEpd(r));
    EXPECT_EQ(back.id, "say 'hi'");
    EXPECT_EQ(back.otherOperations[0].operands[1], (EpdOperand{"two words", true}));
}

TEST(EpdOperations, Chess960CastlingRoundTrips) {
    const EpdRecord r = parsed("4k3/8/8/8/8/8/8/5KR1 w G - bm O-O; id \"960\";");
    ASSERT_EQ(r.bestMoves.size(), 1u);
    EXPECT_EQ(r.bestMoves[0], Move(F1, G1, MoveType::Castling));
    EXPECT_TRUE(r.position.isChess960());
    expectRoundTrip(r);
}

// --- Malformed records ---------------------------------------------------------------------------

TEST(EpdErrors, MalformedRecordsNameTheFault) {
    const std::string s = kStart;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "4 position fields"},
        {"   \r", "4 position fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "found 3"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - bm e4;", "side to move"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - bm e4;", "placement"},
        {"8/8/8/8/8/8/8/8 w - - id \"empty\";", "king"},
        {s + " bm e5;", "bm: "},
        {s + " bm Zz9;", "bm: "},
        {s + " bm;", "bm: expected at least one move"},
        {s + " am Ke2;", "am: "},
        {s + " bm nf3;", "upper case"},
        {s + " id \"unterminated;", "id: unterminated string"},
        {s + " id;", "id: expected one string"},
        {s + " id \"a\" \"b\";", "id: expected one string"},
        {s + " c3 a b;", "c3: expected one string"},
        {s + " ce abc;", "ce: expected an integer"},
        {s + " ce 12.5;", "ce: expected an integer"},
        {s + " ce +-5;", "ce: expected an integer"},
        {s + " ce 99999999999;", "ce: expected an integer"},
        {s + " ce;", "ce: expected one integer"},
        {s + " bm e4; bm d4;", "bm: given twice"},
        {s + " id \"a\"; id \"b\";", "id: given twice"},
        {s + " hmvc x;", "hmvc: expected one non-negative integer"},
        {s + " hmvc -1;", "hmvc: expected one non-negative integer"},
        {s + " fmvn;", "fmvn: expected one non-negative integer"},
        {s + " 3 hmvc 4;", "hmvc: the half-move clock is given twice"},
        {s + " hmvc 500;", "half-move clock"},
        {s + " 1abc 5;", "malformed opcode '1abc'"},
        {s + " bm e4; \"x\";", "malformed opcode"},
        {s + " b-m e4;", "malformed opcode 'b-m'"},
    };
    for (const auto& [line, message] : cases) {
        auto r = parseEpd(line);
        ASSERT_FALSE(r.ok()) << line;
        EXPECT_TRUE(hasText(r.error(), message)) << line << " -> " << r.error();
    }
}

TEST(EpdErrors, StreamErrorsNameTheLine) {
    std::istringstream in(std::string(kStart) + " bm e4;\r\n\r\n# a comment\n" + kStart +
                          " bm e5;\n" + kStart + " bm d4;\n");
    auto records = readEpd(in);
    ASSERT_FALSE(records.ok());
    EXPECT_EQ(records.error().rfind("line 4: bm: ", 0), 0u) << records.error();

    std::istringstream good("\xEF\xBB\xBF" + std::string(kStart) + " bm e4;\n\n# note\n" + kStart +
                            " bm d4;");
    auto ok = readEpd(good);
    ASSERT_TRUE(ok.ok()) << ok.error();
    EXPECT_EQ(ok->size(), 2u);

    std::istringstream empty("");
    auto none = readEpd(empty);
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->empty());
}

TEST(EpdErrors, MutatedLinesNeverCrash) {
    const std::string line =
        "1rb1r1k1/p1p2ppp/5n2/2pP4/5P2/2QB4/qNP3PP/2KRB2R b - - bm Bg4 Re2; c0 \"Bg4 wins, but Re2 "
        "is far better.\"; id \"WAC.252\"; ce -12; pv Bg4 Rd2;";
    const std::string alphabet = "\";; -+x0123456789abcdefghKQRBNkqrbnp/ wbmidce\r\t\xff";
    std::mt19937 rng(99);
    int accepted = 0;
    for (int i = 0; i < 10'000; ++i) {
        std::string text = line;
        for (int edits = 1 + int(rng() % 4); edits > 0; --edits) {
            const size_t at = rng() % text.size();
            const char c = alphabet[rng() % alphabet.size()];
            switch (rng() % 3) {
            case 0: text.insert(text.begin() + long(at), c); break;
            case 1:
                if (text.size() > 1) text.erase(at, 1);
                break;
            default: text[at] = c; break;
            }
        }
        auto r = parseEpd(text);
        if (!r.ok()) {
            EXPECT_FALSE(r.error().empty());
            continue;
        }
        ++accepted;
        expectRoundTrip(*r);
    }
    EXPECT_GT(accepted, 500);
    EXPECT_LT(accepted, 9'500);
}

} // namespace
} // namespace axon::test

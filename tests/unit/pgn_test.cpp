// SPDX-License-Identifier: GPL-3.0-or-later
// PGN reading and writing on a real Lichess export: legal replay, SAN, eval and clock comments,
// skipped variants, write/read round trips, the writer's format, and streaming without slurping.
#include <fstream>
#include <map>
#include <sstream>

#include "chess/movegen.h"
#include "chess/pgn_reader.h"
#include "chess/pgn_writer.h"
#include "chess/san.h"
#include "pgn_test_helpers.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace chess;

const char* const kSample = "pgn/lichess_eval_sample.pgn";

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool hasEval(const PgnMove& m) { return m.evalCp || m.evalMate; }

TEST(PgnLichess, StandardAndChess960GamesReplayLegallyAndVariantsAreSkipped) {
    const auto path = sharedData(kSample);
    AXON_REQUIRE_DATA(path);
    std::ifstream in(path, std::ios::binary);
    const ReadAll all = readAll(in);

    int standard = 0, chess960 = 0, plies = 0, evals = 0, clockGames = 0, bothGames = 0;
    int sanMismatches = 0;
    std::string firstMismatch;
    for (const PgnGame& g : all.games) {
        (g.chess960 ? chess960 : standard)++;
        EXPECT_EQ(g.tag("Variant"), g.chess960 ? "Chess960" : "Standard");
        EXPECT_EQ(g.result, g.tag("Result")) << g.tag("Site");
        auto pos = g.startPosition();
        ASSERT_TRUE(pos.ok()) << pos.error();
        bool clock = false, eval = false;
        for (const PgnMove& m : g.moves) {
            ASSERT_TRUE(MoveList(*pos).contains(m.move)) << g.tag("Site") << " " << m.text;
            // Lichess writes canonical SAN; the reader keeps it minus !? glyphs.
            if (toSan(*pos, m.move) != m.text && sanMismatches++ == 0)
                firstMismatch = g.tag("Site") + ": " + m.text + " vs " + toSan(*pos, m.move);
            pos->makeMove(m.move);
            evals += hasEval(m);
            eval |= hasEval(m);
            clock |= m.clockSeconds.has_value();
        }
        plies += int(g.moves.size());
        clockGames += clock;
        bothGames += clock && eval;
    }
    EXPECT_EQ(standard, 941);
    EXPECT_EQ(chess960, 1);
    EXPECT_EQ(plies, 65'614); // counted independently from the file's move tokens
    EXPECT_EQ(sanMismatches, 0) << firstMismatch;
    // SOURCES.md counts 29,838 eval comments and 418 clock games over all 981 games; 259 of the
    // evals and 24 of the clock games belong to the skipped variant games (see the next test).
    EXPECT_EQ(evals, 29'579);
    EXPECT_EQ(clockGames, 394);
    EXPECT_EQ(bothGames, 175); // 180 minus 5 variant games

    std::map<std::string, int> variants;
    ASSERT_EQ(all.kinds.size(), all.skipped.size());
    for (size_t i = 0; i < all.kinds.size(); ++i) {
        EXPECT_EQ(all.kinds[i], PgnError::UnsupportedVariant) << all.errors[i];
        EXPECT_NE(all.errors[i].find("unsupported variant '" + all.skipped[i].tag("Variant") + "'"),
                  std::string::npos)
            << all.errors[i];
        variants[all.skipped[i].tag("Variant")]++;
    }
    EXPECT_EQ(all.errors.size(), 39u);
    EXPECT_EQ(variants, (std::map<std::string, int>{{"Antichess", 12},
                                                    {"Atomic", 5},
                                                    {"Crazyhouse", 11},
                                                    {"Horde", 9},
                                                    {"Three-check", 2}}));
}

// The comment commands over the whole file, variant games included, straight from the lexer.
TEST(PgnLichess, EvalAndClockCommentCountsMatchTheSource) {
    const auto path = sharedData(kSample);
    AXON_REQUIRE_DATA(path);
    std::ifstream in(path, std::ios::binary);
    PgnLexer lexer(in);
    int games = 0, evals = 0, clockGames = 0, mates = 0;
    bool clockInGame = false;
    for (const PgnToken* t = &lexer.next(); t->kind != PgnTokenKind::End; t = &lexer.next()) {
        if (t->kind == PgnTokenKind::Tag && t->text == "Event") {
            clockGames += clockInGame;
            clockInGame = false;
            ++games;
        }
        if (t->kind != PgnTokenKind::Comment) continue;
        PgnMove m;
        absorbComment(t->text, m);
        evals += hasEval(m);
        mates += m.evalMate.has_value();
        clockInGame |= m.clockSeconds.has_value();
        EXPECT_TRUE(m.comment.empty()) << t->text; // Lichess comments hold commands only
    }
    clockGames += clockInGame;
    EXPECT_EQ(games, 981);
    EXPECT_EQ(evals, 29'838);
    EXPECT_EQ(mates, 325 + 600 + 189 + 609); // "#-DD", "#-D", "#DD", "#D" in the file
    EXPECT_EQ(clockGames, 418);
}

TEST(PgnLichess, FirstGameDetails) {
    const auto path = sharedData(kSample);
    AXON_REQUIRE_DATA(path);
    std::ifstream in(path, std::ios::binary);
    PgnReader reader(in);
    PgnGame g;
    auto r = reader.next(g);
    ASSERT_TRUE(r.ok() && *r);
    EXPECT_EQ(g.number, 1);
    EXPECT_EQ(g.firstLine, 1);
    ASSERT_EQ(g.tags.size(), 17u);
    EXPECT_EQ(g.tags[0], (std::pair<std::string, std::string>{"Event", "Rated Rapid game"}));
    EXPECT_EQ(g.tag("Opening"), "Slav Defense: Schlechter Variation");
    ASSERT_EQ(g.moves.size(), 47u);
    EXPECT_EQ(g.moves[0].text, "d4");
    EXPECT_EQ(g.moves[0].evalCp, 0);
    EXPECT_EQ(g.moves[0].clockSeconds, 300.0);
    EXPECT_EQ(g.moves[1].evalCp, 27);
    EXPECT_EQ(g.moves[11].text, "O-O");
    EXPECT_EQ(g.moves[11].move.type(), MoveType::Castling);
    EXPECT_EQ(g.moves[38].text, "fxe4");
    EXPECT_EQ(g.moves[38].evalCp, -147);
    EXPECT_EQ(g.moves[38].clockSeconds, 112.0);
    EXPECT_EQ(g.moves.back().text, "Bc3");
    EXPECT_EQ(g.result, "1-0");
    EXPECT_TRUE(g.moves[0].comment.empty());

    // The Chess960 game: X-FEN castling letters, king on b1.
    for (r = reader.next(g); !r.ok() || (*r && !g.chess960); r = reader.next(g)) {
    }
    ASSERT_TRUE(*r && g.chess960);
    EXPECT_EQ(g.startFen, "rkbqrbnn/pppppppp/8/8/8/8/PPPPPPPP/RKBQRBNN w KQkq - 0 1");
    EXPECT_EQ(g.moves.size(), 79u);
    EXPECT_EQ(g.moves.back().text, "Qa4#");
}

void expectSameGame(const PgnGame& a, const PgnGame& b) {
    EXPECT_EQ(a.startFen, b.startFen);
    EXPECT_EQ(a.chess960, b.chess960);
    EXPECT_EQ(a.result, b.result);
    EXPECT_EQ(a.preComment, b.preComment);
    ASSERT_EQ(a.moves.size(), b.moves.size());
    for (size_t i = 0; i < a.moves.size(); ++i) {
        const PgnMove &x = a.moves[i], &y = b.moves[i];
        EXPECT_EQ(x.move, y.move) << "ply " << i;
        EXPECT_EQ(x.comment, y.comment) << "ply " << i;
        EXPECT_EQ(x.nags, y.nags) << "ply " << i;
        EXPECT_EQ(x.evalCp, y.evalCp) << "ply " << i;
        EXPECT_EQ(x.evalMate, y.evalMate) << "ply " << i;
        EXPECT_EQ(x.clockSeconds, y.clockSeconds) << "ply " << i;
        EXPECT_EQ(x.emtSeconds, y.emtSeconds) << "ply " << i;
    }
    // Every tag survives; the writer only adds missing Seven Tag Roster entries.
    for (const auto& [name, value] : a.tags) EXPECT_EQ(b.tag(name), value) << name;
    const auto isAddedByWriter = [](const std::string& name) {
        for (const char* added :
             {"Event", "Site", "Date", "Round", "White", "Black", "Result", "SetUp", "FEN"})
            if (name == added) return true;
        return false;
    };
    for (const auto& entry : b.tags)
        EXPECT_TRUE(a.hasTag(entry.first) || isAddedByWriter(entry.first)) << entry.first;
}

TEST(PgnLichess, WriteThenReadGivesTheSameGames) {
    const auto path = sharedData(kSample);
    AXON_REQUIRE_DATA(path);
    std::ifstream in(path, std::ios::binary);
    const ReadAll all = readAll(in);
    ASSERT_EQ(all.games.size(), 942u);

    std::string everything;
    size_t longestLine = 0;
    for (const PgnGame& g : all.games) {
        auto text = toPgn(g);
        ASSERT_TRUE(text.ok()) << text.error();
        std::istringstream lines(*text);
        for (std::string line; std::getline(lines, line);)
            if (line.rfind('[', 0) != 0)
                longestLine = std::max(longestLine, line.size()); // movetext
        everything += *text;
    }
    EXPECT_LE(longestLine, 80u);

    const ReadAll again = readText(everything);
    EXPECT_TRUE(again.errors.empty()) << (again.errors.empty() ? "" : again.errors[0]);
    ASSERT_EQ(again.games.size(), all.games.size());
    for (size_t i = 0; i < all.games.size(); ++i) {
        SCOPED_TRACE(all.games[i].tag("Site"));
        expectSameGame(all.games[i], again.games[i]);
        if (::testing::Test::HasFatalFailure()) return;
    }
    // Written SAN is canonical, so a second round is byte-identical.
    std::string second;
    for (const PgnGame& g : again.games) second += *toPgn(g);
    EXPECT_EQ(second, everything);
}

PgnGame smallGame() {
    PgnGame g;
    Position pos = startPosition();
    for (const char* san : {"e4", "e5", "Nf3"}) {
        PgnMove m;
        m.move = *parseSan(pos, san);
        m.text = san;
        pos.makeMove(m.move);
        g.moves.push_back(m);
    }
    g.moves[0].evalCp = 27;
    g.moves[0].clockSeconds = 300;
    g.moves[1].nags = {1};
    g.moves[2].comment = "good";
    g.moves[2].evalMate = -3;
    g.result = "1-0";
    return g;
}

TEST(PgnWriter, ExportFormat) {
    PgnGame g = smallGame();
    g.setTag("White", "Smith, \"The\" \\King");
    g.setTag("ECO", "C40");
    auto text = toPgn(g);
    ASSERT_TRUE(text.ok()) << text.error();
    EXPECT_EQ(*text, "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                     "[White \"Smith, \\\"The\\\" \\\\King\"]\n[Black \"?\"]\n[Result \"1-0\"]\n"
                     "[ECO \"C40\"]\n\n"
                     "1. e4 { [%eval 0.27] [%clk 0:05:00] } 1... e5 $1 2. Nf3 { [%eval #-3] good } "
                     "1-0\n\n");
    const ReadAll back = readText(*text);
    ASSERT_EQ(back.games.size(), 1u);
    EXPECT_EQ(back.games[0].tag("White"), "Smith, \"The\" \\King");
    expectSameGame(g, back.games[0]);
}

TEST(PgnWriter, SetUpBlackToMoveNullMovesAndWrapping) {
    const std::string source =
        "[FEN \"r2qk1nr/ppp3pp/2n1bp2/2p1p3/2P1P3/3P1N2/PP2BPPP/RN1Q1RK1 b kq "
        "- 0 8\"]\n\n8... Nge7 9. Nc3 -- 10. Nd5 *\n";
    const ReadAll first = readText(source);
    ASSERT_EQ(first.games.size(), 1u) << (first.errors.empty() ? "" : first.errors[0]);
    const PgnGame& g = first.games[0];
    ASSERT_EQ(g.moves.size(), 4u);
    EXPECT_TRUE(g.moves[2].isNull());
    auto text = toPgn(g);
    ASSERT_TRUE(text.ok()) << text.error();
    EXPECT_NE(text->find("[SetUp \"1\"]\n[FEN \"r2qk1nr/"), std::string::npos) << *text;
    EXPECT_NE(text->find("\n\n8... Nge7 9. Nc3 -- 10. Nd5 *\n"), std::string::npos) << *text;
    expectSameGame(g, readText(*text).games.at(0));

    // Long comments are wrapped between words, never past 80 columns.
    PgnGame wordy = smallGame();
    for (int i = 0; i < 60; ++i) wordy.moves[1].comment += "word" + std::to_string(i) + " ";
    wordy.moves[1].comment.pop_back();
    auto wrapped = toPgn(wordy);
    ASSERT_TRUE(wrapped.ok());
    std::istringstream lines(*wrapped);
    int count = 0;
    for (std::string line; std::getline(lines, line); ++count) EXPECT_LE(line.size(), 80u) << line;
    EXPECT_GT(count, 12);
    expectSameGame(wordy, readText(*wrapped).games.at(0));
}

TEST(PgnWriter, RejectsIllegalMovesAndKeepsAnyCommentText) {
    PgnGame g = smallGame();
    g.moves[2].move = Move(E2, E4); // not White's pawn any more
    EXPECT_FALSE(toPgn(g).ok());

    PgnGame braces = smallGame();
    braces.moves[0].comment = "unbalanced } brace { here {";
    braces.moves[1].comment = "nested { is } fine";
    auto text = toPgn(braces);
    ASSERT_TRUE(text.ok());
    const ReadAll back = readText(*text);
    ASSERT_EQ(back.games.size(), 1u);
    EXPECT_NE(text->find("; [%eval 0.27] [%clk 0:05:00] unbalanced } brace { here {\n1... e5"),
              std::string::npos)
        << *text;
    EXPECT_EQ(back.games[0].moves[0].comment, "unbalanced } brace { here {");
    EXPECT_EQ(back.games[0].moves[1].comment, "nested { is } fine");
    EXPECT_EQ(back.games[0].moves.size(), 3u);
}

TEST(PgnComments, EvalClockAndEmtCommands) {
    PgnMove m;
    absorbComment("[%eval -0.05] [%clk 1:02:03.5] keep [%cal Ge2e4] this [%emt 0:00:07]", m);
    EXPECT_EQ(m.evalCp, -5);
    EXPECT_FALSE(m.evalMate);
    EXPECT_EQ(m.clockSeconds, 3723.5);
    EXPECT_EQ(m.emtSeconds, 7.0);
    EXPECT_EQ(m.comment, "keep [%cal Ge2e4] this");

    PgnMove mate;
    absorbComment("[%eval #-3]", mate);
    EXPECT_EQ(mate.evalMate, -3);
    EXPECT_FALSE(mate.evalCp);
    absorbComment("[%eval 1.235,30] second", mate); // a later eval replaces the mate
    EXPECT_EQ(mate.evalCp, 124);
    EXPECT_FALSE(mate.evalMate);
    EXPECT_EQ(mate.comment, "second");

    PgnMove bad;
    absorbComment("[%eval abc] [%clk 1:xx] [%eval 99999999999]", bad);
    EXPECT_FALSE(bad.evalCp || bad.evalMate || bad.clockSeconds);
    EXPECT_EQ(bad.comment, "[%eval abc] [%clk 1:xx] [%eval 99999999999]");

    EXPECT_EQ(formatEvalCp(27), "0.27");
    EXPECT_EQ(formatEvalCp(-5), "-0.05");
    EXPECT_EQ(formatEvalCp(50), "0.5");
    EXPECT_EQ(formatEvalCp(0), "0.0");
    EXPECT_EQ(formatEvalCp(-1234), "-12.34");
    EXPECT_EQ(formatClock(300), "0:05:00");
    EXPECT_EQ(formatClock(3723.5), "1:02:03.5");
    EXPECT_EQ(formatClock(59.123), "0:00:59.123");
}

// A stream buffer that serves the sample `times` times in small chunks and counts what it
// served, to see how far ahead of the games the reader reads.
class RepeatingBuffer : public std::streambuf {
  public:
    RepeatingBuffer(const std::string& data, int times) : m_data(data), m_left(times) {}
    std::uint64_t served() const { return m_served; }

  protected:
    int_type underflow() override {
        if (m_offset == m_data.size()) {
            if (m_left == 0) return traits_type::eof();
            m_offset = 0;
        }
        if (m_offset == 0) --m_left;
        const size_t n = std::min<size_t>(4096, m_data.size() - m_offset);
        char* start = const_cast<char*>(m_data.data()) + m_offset;
        setg(start, start, start + n);
        m_offset += n;
        m_served += n;
        return traits_type::to_int_type(*start);
    }

  private:
    const std::string& m_data;
    int m_left;
    size_t m_offset = 0;
    std::uint64_t m_served = 0;
};

TEST(PgnStreaming, ReadsAConcatenatedStreamGameByGameWithoutReadingAhead) {
    const auto path = sharedData(kSample);
    AXON_REQUIRE_DATA(path);
    const std::string sample = slurp(path) + "\n";
    // The 1.9 MB sample many times over, far beyond the lexer's buffer (3 times under sanitizers).
    constexpr int kTimes = kSanitizedBuild ? 3 : 20;
    RepeatingBuffer buffer(sample, kTimes);
    std::istream in(&buffer);
    PgnReader reader(in);
    PgnGame game; // one game's storage, reused for every game
    int games = 0, skipped = 0, plies = 0;
    std::uint64_t maxAhead = 0;
    while (true) {
        auto r = reader.next(game);
        maxAhead = std::max(maxAhead, buffer.served() - reader.bytesConsumed());
        if (!r.ok()) {
            ++skipped;
            continue;
        }
        if (!*r) break;
        ++games;
        plies += int(game.moves.size());
    }
    EXPECT_EQ(games, 942 * kTimes);
    EXPECT_EQ(skipped, 39 * kTimes);
    EXPECT_EQ(plies, 65'614 * kTimes);
    EXPECT_EQ(reader.gamesSeen(), 981 * kTimes);
    EXPECT_EQ(reader.bytesConsumed(), sample.size() * kTimes);
    // The stream is consumed as the games are: never more than the lexer's one buffer ahead.
    EXPECT_LE(maxAhead, std::uint64_t(64 * 1024 + 4096));
}

} // namespace
} // namespace axon::test

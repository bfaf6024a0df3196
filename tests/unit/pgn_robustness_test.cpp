// SPDX-License-Identifier: GPL-3.0-or-later
// The PGN reader on other parsers' edge-case files (chess-library, python-chess, pgn-extract),
// on syntax corners, and on hostile input: bounded work, no desynchronisation, errors that say
// where.
#include <fstream>
#include <map>
#include <sstream>

#include "chess/movegen.h"
#include "chess/pgn_reader.h"
#include "chess/pgn_writer.h"
#include "chess/rules.h"
#include "chess/uci_move.h"
#include "pgn_test_helpers.h"
#include "test_helpers.h"
#include "util/prng.h"

namespace axon::test {
namespace {

using namespace chess;

std::string robustness(const std::string& name) { return "pgn/robustness/" + name; }

ReadAll readFile(const std::string& name, PgnReaderOptions options = {}) {
    std::ifstream in(sharedData(robustness(name)), std::ios::binary);
    EXPECT_TRUE(in.good()) << name;
    return readAll(in, options);
}

std::string slurp(const std::string& name) {
    std::ifstream in(sharedData(robustness(name)), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The position after the game's mainline, checking every move on the way.
Position finalPosition(const PgnGame& g) {
    auto pos = g.startPosition();
    EXPECT_TRUE(pos.ok());
    if (!pos.ok()) return startPosition();
    for (const PgnMove& m : g.moves) {
        if (m.isNull()) {
            pos->makeNullMove();
            continue;
        }
        EXPECT_TRUE(MoveList(*pos).contains(m.move)) << m.text;
        pos->makeMove(m.move);
    }
    return *pos;
}

std::string texts(const PgnGame& g, size_t count) {
    std::string out;
    for (size_t i = 0; i < g.moves.size() && i < count; ++i)
        out += (i ? " " : "") + g.moves[i].text;
    return out;
}

// Games read and games skipped, for every file of the folder; a new file must be added here.
const std::map<std::string, std::pair<int, int>> kFileCounts = {
    {"chess-library/backslash_header.pgn", {1, 0}},
    {"chess-library/basic.pgn", {1, 0}},
    {"chess-library/black2move.pgn", {0, 1}},
    {"chess-library/book.pgn", {1, 0}},
    {"chess-library/castling.pgn", {1, 0}},
    {"chess-library/comment_before_moves.pgn", {1, 0}},
    {"chess-library/corrupted.pgn", {0, 1}},
    {"chess-library/empty_body.pgn", {2, 0}},
    {"chess-library/multiple.pgn", {4, 0}},
    {"chess-library/newline.pgn", {1, 0}},
    {"chess-library/no_moves.pgn", {1, 0}},
    {"chess-library/no_moves_but_comment_followed_by_termination_marker.pgn", {2, 0}},
    {"chess-library/no_moves_but_game_termination.pgn", {1, 0}},
    {"chess-library/no_moves_but_game_termination_2.pgn", {1, 0}},
    {"chess-library/no_moves_but_game_termination_3.pgn", {1, 0}},
    {"chess-library/no_moves_but_game_termination_multiple.pgn", {2, 0}},
    {"chess-library/no_moves_but_game_termination_multiple_2.pgn", {3, 0}},
    {"chess-library/no_moves_two_games.pgn", {2, 0}},
    {"chess-library/no_result.pgn", {1, 0}},
    {"chess-library/non_ascii.pgn", {1, 0}},
    {"chess-library/skip.pgn", {2, 0}},
    {"chess-library/square_bracket_in_header.pgn", {1, 0}},
    {"chess-library/threefold_repetition.pgn", {1, 0}},
    {"chess-library/unescaped_quote_header.pgn", {1, 0}},
    {"chess-library/variations.pgn", {1, 0}},
    {"pgn-extract/bots.pgn", {12, 0}},
    {"pgn-extract/fischer.pgn", {34, 0}},
    {"pgn-extract/fools-mate.pgn", {1, 0}},
    {"pgn-extract/nested-comment.pgn", {1, 0}},
    {"pgn-extract/odds.pgn", {32, 0}},
    {"pgn-extract/test-allownullmoves.pgn", {2, 0}},
    {"pgn-extract/test-checkmate.pgn", {2, 0}},
    {"pgn-extract/test-evaluation.pgn", {1, 0}},
    {"pgn-extract/test-fencomments.pgn", {1, 0}},
    {"pgn-extract/test-fifty.pgn", {2, 0}},
    {"pgn-extract/test-long-line.pgn", {1, 0}},
    {"pgn-extract/test-nagcomments.pgn", {1, 0}},
    {"pgn-extract/test-nochecks.pgn", {2, 0}},
    {"pgn-extract/test-nomovenumbers.pgn", {1, 0}},
    {"pgn-extract/test-noresults.pgn", {1, 0}},
    {"pgn-extract/test-notags.pgn", {1, 0}},
    {"pgn-extract/test-promotion-in.pgn", {8, 0}},
    {"pgn-extract/test-repetition.pgn", {12, 0}},
    {"pgn-extract/test-setup-in.pgn", {2, 0}},
    {"pgn-extract/test-seventyfive.pgn", {5, 0}},
    {"pgn-extract/test-splitvariants.pgn", {1, 0}},
    {"pgn-extract/test-stalemate.pgn", {3, 0}},
    {"python-chess/anastasian-lewis.pgn", {1, 0}},
    {"python-chess/antichess-programfox.pgn", {0, 2}},
    {"python-chess/chessbase-empty-line.pgn", {1, 0}},
    {"python-chess/cutechess-fischerrandom.pgn", {4, 0}},
    {"python-chess/kasparov-deep-blue-1997.pgn", {6, 0}},
    {"python-chess/knightvuillaume-jannlee-zh-lichess.pgn", {0, 1}},
    {"python-chess/molinari-bordais-1979.pgn", {1, 0}},
    {"python-chess/nepomniachtchi-liren-game1.pgn", {1, 0}},
    {"python-chess/saturs-jannlee-zh-lichess.pgn", {0, 1}},
    {"python-chess/stockfish-learning.pgn", {1, 0}},
    {"python-chess/uci-moves.pgn", {1, 0}},
    {"python-chess/utf8-bom.pgn", {2, 0}},
};

TEST(PgnRobustness, EveryFileReadsWithTheExpectedGameCounts) {
    const auto dir = sharedData("pgn/robustness");
    AXON_REQUIRE_DATA(dir);
    int files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (!entry.is_regular_file()) continue;
        const std::string name = std::filesystem::relative(entry.path(), dir).generic_string();
        SCOPED_TRACE(name);
        const ReadAll all = readFile(name);
        ++files;
        const auto expected = kFileCounts.find(name);
        ASSERT_NE(expected, kFileCounts.end()) << "no expectation for " << name;
        EXPECT_EQ(int(all.games.size()), expected->second.first);
        EXPECT_EQ(int(all.errors.size()), expected->second.second);
        for (const PgnGame& g : all.games) finalPosition(g);
        // Whatever was read is written and read back unchanged.
        for (const PgnGame& g : all.games) {
            auto text = toPgn(g);
            ASSERT_TRUE(text.ok()) << text.error();
            const ReadAll back = readText(*text);
            ASSERT_EQ(back.games.size(), 1u) << *text;
            EXPECT_EQ(back.games[0].moves, [&] {
                auto moves = g.moves;
                for (size_t i = 0; i < moves.size(); ++i)
                    moves[i].text = back.games[0].moves[i].text;
                return moves;
            }());
            EXPECT_EQ(back.games[0].startFen, g.startFen);
            EXPECT_EQ(back.games[0].result, g.result);
        }
    }
    EXPECT_EQ(files, int(kFileCounts.size()));
}

TEST(PgnRobustness, TagValueDefects) {
    AXON_REQUIRE_DATA(sharedData(robustness("chess-library")));
    EXPECT_EQ(readFile("chess-library/backslash_header.pgn").games.at(0).tag("Event"),
              "Tournament \\");

    const PgnGame brackets = readFile("chess-library/square_bracket_in_header.pgn").games.at(0);
    EXPECT_EQ(brackets.tag("Event"), "Batch 10: s20red4c4_t3 vs master[!important]");
    EXPECT_EQ(brackets.tag("Variation"), "closing ] opening");
    EXPECT_EQ(brackets.tag("White"), "New-cfe8\"dsadsa\"ce842c");
    EXPECT_EQ(brackets.moves.size(), 130u);

    const PgnGame quotes = readFile("chess-library/unescaped_quote_header.pgn").games.at(0);
    EXPECT_EQ(quotes.tag("Event"), "Tournament \"Championship\" Finals");
    EXPECT_EQ(quotes.tag("Site"), "Club \"Victory\"");
    EXPECT_EQ(quotes.tag("White"), "Smith, John \"The King\"");
    EXPECT_EQ(quotes.tag("Black"), "Jones, \"Lightning\" Mike");
    EXPECT_EQ(texts(quotes, 4), "d4 Nf6 c4 g6");
    EXPECT_EQ(quotes.moves.size(), 20u);
    EXPECT_EQ(quotes.result, "*");

    const PgnGame utf8 = readFile("chess-library/non_ascii.pgn").games.at(0);
    EXPECT_EQ(utf8.tag("Event"), "Tournoi Fran\xC3\xA7ois");
    EXPECT_EQ(utf8.tag("Black"), "\xD0\x92\xD0\xBB\xD0\xB0\xD0\xB4\xD0\xB8\xD0\xBC\xD0\xB8\xD1\x80 "
                                 "\xD0\x9F\xD0\xB5\xD1\x82\xD1\x80\xD0\xBE\xD0\xB2");
    EXPECT_EQ(utf8.moves.size(), 20u);

    const ReadAll bom = readFile("python-chess/utf8-bom.pgn");
    ASSERT_EQ(bom.games.size(), 2u);
    EXPECT_EQ(bom.games[0].tags.at(0).first, "Event");
    EXPECT_EQ(bom.games[0].tag("Event"), "A");
    EXPECT_EQ(bom.games[1].tag("Event"), "B");
    EXPECT_TRUE(bom.games[0].moves.empty());

    // ChessBase puts an empty line inside the tag section; it is still one game.
    const PgnGame chessbase = readFile("python-chess/chessbase-empty-line.pgn").games.at(0);
    EXPECT_EQ(chessbase.tags.size(), 11u);
    EXPECT_EQ(chessbase.tag("Date"), "2017.12.04");
    EXPECT_EQ(chessbase.moves.size(), 134u);
    EXPECT_EQ(chessbase.result, "0-1");
}

TEST(PgnRobustness, CorruptedGameIsReportedAndTheReaderGoesOn) {
    AXON_REQUIRE_DATA(sharedData(robustness("chess-library")));
    const ReadAll alone = readFile("chess-library/corrupted.pgn");
    ASSERT_EQ(alone.errors.size(), 1u);
    EXPECT_EQ(alone.kinds[0], PgnError::IllegalMove);
    EXPECT_NE(alone.errors[0].find("game 1 (line 57)"), std::string::npos) << alone.errors[0];
    EXPECT_NE(alone.errors[0].find("63. Kx"), std::string::npos) << alone.errors[0];
    EXPECT_EQ(alone.skipped[0].tag("SetUp"), "1");
    EXPECT_EQ(alone.skipped[0].moves.size(), 124u); // read up to the bad move

    // Truncated at any byte, a game followed by another never takes the second one with it.
    const ReadAll joined = readText(
        slurp("chess-library/corrupted.pgn") + "\n\n" + slurp("chess-library/book.pgn") + "\n" +
        slurp("chess-library/black2move.pgn") + "\n" + slurp("pgn-extract/fools-mate.pgn"));
    ASSERT_EQ(joined.errors.size(), 2u);
    ASSERT_EQ(joined.games.size(), 2u);
    EXPECT_EQ(joined.games[0].number, 2);
    EXPECT_EQ(joined.games[0].moves.size(), 16u);
    EXPECT_EQ(joined.games[0].tag("ECO"), "C58");
    // The position has the queen on d8: Black cannot castle long.
    EXPECT_NE(joined.errors[1].find("game 3 (line 77): cannot play 1... 0-0-0"), std::string::npos)
        << joined.errors[1];
    EXPECT_EQ(texts(joined.games[1], 4), "f3 e5 g4 Qh4#");
    EXPECT_EQ(gameStatus(finalPosition(joined.games[1])), GameStatus::Checkmate);
}

TEST(PgnRobustness, GamesWithoutMovesOrResults) {
    AXON_REQUIRE_DATA(sharedData(robustness("chess-library")));
    const ReadAll empty = readFile("chess-library/empty_body.pgn");
    ASSERT_EQ(empty.games.size(), 2u);
    EXPECT_TRUE(empty.games[0].moves.empty());
    EXPECT_EQ(empty.games[0].result, "*"); // Result "?" is no result
    EXPECT_EQ(empty.games[1].moves.size(), 252u);
    EXPECT_EQ(empty.games[1].moves[0].text, "Nge7"); // "1... Nge7" from a black-to-move FEN
    EXPECT_EQ(empty.games[1].result, "0-1");

    const PgnGame noMoves = readFile("chess-library/no_moves.pgn").games.at(0);
    EXPECT_TRUE(noMoves.moves.empty());
    EXPECT_EQ(noMoves.result, "1/2-1/2"); // no marker: the Result tag

    const PgnGame marker =
        readFile("chess-library/no_moves_but_game_termination_2.pgn").games.at(0);
    EXPECT_EQ(marker.result, "1/2-1/2"); // the marker wins over the tag
    EXPECT_EQ(marker.tag("Result"), "0-1");

    const PgnGame noResult = readFile("chess-library/no_result.pgn").games.at(0);
    EXPECT_EQ(noResult.preComment, "No result");
    EXPECT_EQ(noResult.result, "*");

    const ReadAll stalled =
        readFile("chess-library/no_moves_but_comment_followed_by_termination_marker.pgn");
    ASSERT_EQ(stalled.games.size(), 2u);
    EXPECT_EQ(stalled.games[1].preComment, "White's connection stalls");
    EXPECT_EQ(stalled.games[1].result, "0-1");
    EXPECT_EQ(stalled.games[1].tag("Termination"), "stalled connection");

    const ReadAll fens = readFile("chess-library/no_moves_but_game_termination_multiple_2.pgn");
    ASSERT_EQ(fens.games.size(), 3u);
    EXPECT_EQ(fens.games[2].startFen, "8/p3kp1p/1p4p1/2r2b2/2BR3P/1P3P2/P4PK1/8 b - - 0 28");

    const PgnGame castling = readFile("chess-library/castling.pgn").games.at(0);
    EXPECT_EQ(texts(castling, 6), "Bg2 0-0 0-0 a5 Nd4 Na6");
    EXPECT_EQ(castling.moves[1].move, Move(E8, H8, MoveType::Castling));
    EXPECT_EQ(castling.moves[2].move, Move(E1, H1, MoveType::Castling));
    EXPECT_EQ(castling.result, "1/2-1/2");
}

TEST(PgnRobustness, CommentsNagsAndVariations) {
    AXON_REQUIRE_DATA(sharedData(robustness("chess-library")));
    const PgnGame before = readFile("chess-library/comment_before_moves.pgn").games.at(0);
    EXPECT_EQ(before.preComment,
              "The original result of the game (1-0) was overturned by an arbiter decision.");
    ASSERT_EQ(before.moves.size(), 139u);
    EXPECT_EQ(before.moves[11].text, "e6");
    EXPECT_EQ(before.moves[11].nags, std::vector<int>{6}); // "?!"
    EXPECT_EQ(before.moves[11].evalCp, 121);
    EXPECT_EQ(before.moves[11].comment, "Inaccuracy. Bb7 was best.");

    const PgnGame lines = readFile("chess-library/variations.pgn").games.at(0);
    EXPECT_EQ(lines.moves.size(), 108u);
    EXPECT_EQ(lines.moves[3].nags, std::vector<int>{146});
    EXPECT_EQ(texts(lines, 8), "e4 e5 f4 b6 d3 Nc6 fxe5 Nxe5");
    EXPECT_EQ(lines.moves.back().text, "Kg7");
    EXPECT_EQ(lines.result, "1/2-1/2");

    const PgnGame split = readFile("pgn-extract/test-splitvariants.pgn").games.at(0);
    ASSERT_EQ(split.moves.size(), 3u);
    EXPECT_EQ(split.moves[0].comment, "comment1");
    EXPECT_EQ(split.moves[1].comment, "comment2 comment5"); // comment3/4 are inside variations
    EXPECT_EQ(split.moves[2].text, "Nf3");

    const PgnGame nested = readFile("pgn-extract/nested-comment.pgn").games.at(0);
    EXPECT_TRUE(nested.tags.empty());
    ASSERT_EQ(nested.moves.size(), 1u);
    EXPECT_EQ(nested.moves[0].comment, "This game contains { a nested comment } which should be "
                                       "handled ok with the --nestedcomment option.");

    const PgnGame nags = readFile("pgn-extract/test-nagcomments.pgn").games.at(0);
    ASSERT_EQ(nags.moves.size(), 1u);
    EXPECT_EQ(nags.moves[0].nags, (std::vector<int>{1, 2}));
    EXPECT_EQ(nags.moves[0].comment,
              "good or bad? some think this is good while others think it is not");

    const PgnGame longLine = readFile("pgn-extract/test-long-line.pgn").games.at(0);
    EXPECT_EQ(longLine.moves.at(2).comment.size(), 139u);

    const PgnGame spanning = readFile("pgn-extract/test-fencomments.pgn").games.at(0);
    EXPECT_EQ(spanning.moves.at(42).comment, "2 minutes to time-control at move 36.");
    EXPECT_EQ(spanning.moves.at(54).nags, std::vector<int>{2}); // 28. Bb8 $2 (28. Bd6+ ...)
}

TEST(PgnRobustness, NullMovesUciMovesAndMoveNumbers) {
    AXON_REQUIRE_DATA(sharedData(robustness("pgn-extract")));
    const ReadAll nulls = readFile("pgn-extract/test-allownullmoves.pgn");
    ASSERT_EQ(nulls.games.size(), 2u);
    EXPECT_EQ(texts(nulls.games[0], 5), "Rh3 -- Qxh7+ Rxh7 Rxh7#");
    EXPECT_TRUE(nulls.games[0].moves[1].isNull());
    EXPECT_EQ(gameStatus(finalPosition(nulls.games[0])), GameStatus::Checkmate);
    EXPECT_EQ(nulls.games[1].moves.size(), 2u);

    PgnReaderOptions strict;
    strict.allowNullMoves = false;
    const ReadAll refused = readFile("pgn-extract/test-allownullmoves.pgn", strict);
    ASSERT_EQ(refused.errors.size(), 2u);
    EXPECT_EQ(refused.kinds[0], PgnError::IllegalMove);
    EXPECT_NE(refused.errors[0].find("null move 31... --"), std::string::npos) << refused.errors[0];

    const PgnGame chessbase = readFile("python-chess/anastasian-lewis.pgn").games.at(0);
    ASSERT_EQ(chessbase.moves.size(), 84u);
    EXPECT_TRUE(chessbase.moves[81].isNull());
    EXPECT_EQ(chessbase.moves[81].text, "Z0");

    const PgnGame uci = readFile("python-chess/uci-moves.pgn").games.at(0);
    EXPECT_EQ(uci.moves.size(), 113u);
    EXPECT_EQ(uci.moves[0].move, Move(G1, F3));
    EXPECT_EQ(uci.result, "1/2-1/2");

    const ReadAll promotions = readFile("pgn-extract/test-promotion-in.pgn");
    ASSERT_EQ(promotions.games.size(), 8u);
    const PieceType expected[] = {Rook, Knight, Bishop, Queen, Rook, Knight, Bishop, Queen};
    for (int i = 0; i < 8; ++i) {
        ASSERT_EQ(promotions.games[i].moves.size(), 1u);
        EXPECT_EQ(promotions.games[i].moves[0].move,
                  Move(D7, D8, MoveType::Promotion, expected[i]));
    }

    const ReadAll kasparov = readFile("python-chess/kasparov-deep-blue-1997.pgn"); // "1.Nf3"
    EXPECT_EQ(texts(kasparov.games.at(0), 3), "Nf3 d5 g3");
    EXPECT_EQ(kasparov.games[0].moves.size(), 89u);
}

TEST(PgnRobustness, StartPositionsChess960AndVariants) {
    AXON_REQUIRE_DATA(sharedData(robustness("python-chess")));
    const ReadAll frc = readFile("python-chess/cutechess-fischerrandom.pgn");
    ASSERT_EQ(frc.games.size(), 4u);
    for (const PgnGame& g : frc.games) EXPECT_TRUE(g.chess960);
    EXPECT_EQ(frc.games[0].startFen, "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1");
    EXPECT_EQ(frc.games[0].moves[17].text, "O-O");
    EXPECT_EQ(frc.games[0].moves[17].move, Move(E8, G8, MoveType::Castling)); // king takes rook
    EXPECT_EQ(frc.games[0].moves.size(), 120u);

    // Shredder-FEN castling letters make a game Chess960 without a Variant tag.
    const ReadAll shredder =
        readText("[FEN \"rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1\"]\n\n1. O-O-O O-O-O *");
    ASSERT_EQ(shredder.games.size(), 1u) << shredder.errors.at(0);
    EXPECT_TRUE(shredder.games[0].chess960);
    EXPECT_EQ(shredder.games[0].moves[0].move, Move(B1, A1, MoveType::Castling));
    EXPECT_EQ(shredder.games[0].moves[1].move, Move(B8, A8, MoveType::Castling));

    for (const char* name :
         {"python-chess/knightvuillaume-jannlee-zh-lichess.pgn",
          "python-chess/saturs-jannlee-zh-lichess.pgn", "python-chess/antichess-programfox.pgn"}) {
        const ReadAll variant = readFile(name);
        ASSERT_FALSE(variant.kinds.empty()) << name;
        for (PgnError kind : variant.kinds) EXPECT_EQ(kind, PgnError::UnsupportedVariant) << name;
    }
    // A skipped variant game does not take the next game with it.
    const ReadAll after = readText(slurp("python-chess/saturs-jannlee-zh-lichess.pgn") + "\n" +
                                   slurp("pgn-extract/fools-mate.pgn"));
    EXPECT_EQ(after.errors.size(), 1u);
    ASSERT_EQ(after.games.size(), 1u);
    EXPECT_EQ(after.games[0].moves.size(), 4u);

    const ReadAll badFen = readText("[FEN \"8/8/8/8 w - -\"]\n\n1. e4 *\n\n1. d4 *");
    ASSERT_EQ(badFen.errors.size(), 1u);
    EXPECT_EQ(badFen.kinds[0], PgnError::BadStartPosition);
    ASSERT_EQ(badFen.games.size(), 1u);
    EXPECT_EQ(badFen.games[0].moves.at(0).text, "d4");

    const ReadAll setUp = readFile("pgn-extract/test-setup-in.pgn");
    ASSERT_EQ(setUp.games.size(), 2u);
    EXPECT_EQ(setUp.games[1].startFen, Position::kStartFen);
    EXPECT_EQ(setUp.games[0].moves, setUp.games[1].moves);

    const ReadAll odds = readFile("pgn-extract/odds.pgn");
    EXPECT_EQ(odds.games.at(0).startFen,
              "rnbqkbnr/ppppp1pp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");

    // pgn-extract's fischer.pgn is Bobby Fischer's games, ordinary chess.
    const ReadAll fischer = readFile("pgn-extract/fischer.pgn");
    ASSERT_EQ(fischer.games.size(), 34u);
    for (const PgnGame& g : fischer.games) {
        EXPECT_FALSE(g.chess960);
        EXPECT_EQ(g.startFen, Position::kStartFen);
        EXPECT_NE((g.tag("White") + g.tag("Black")).find("Fischer, R"), std::string::npos);
    }

    const PgnGame repetition = readFile("chess-library/threefold_repetition.pgn").games.at(0);
    EXPECT_EQ(repetition.tag("Variant"), "From Position");
    EXPECT_EQ(repetition.moves.size(), 9u);
    EXPECT_EQ(gameStatus(finalPosition(repetition)), GameStatus::ThreefoldRepetition);
}

TEST(PgnReader, SyntaxCorners) {
    const std::string text = "% an escaped line [Event \"no\"]\n"
                             "[Event \"one\"] [Site \"two\"]\n"
                             "[Round \"a \\\"b\\\" c\\\\d\"]\n"
                             "\n"
                             "1.e4 ; rest of line { not a comment\n"
                             "1...e5!? 2. Nf3 $14 +- 2... Nc6 3. Bb5 a6 4. Ba4 e.p. 1/2-1/2\n"
                             "garbage-free junk {between games}\n"
                             "[Event \"three\"]\n1. d4 (1. e4 (1. c4 {x)} ) ) d5 \xC2\xBD-\xC2\xBD";
    const ReadAll all = readText(text);
    ASSERT_EQ(all.errors.size(), 1u); // the junk words
    ASSERT_EQ(all.games.size(), 2u);
    const PgnGame& g = all.games[0];
    EXPECT_EQ(g.tag("Event"), "one");
    EXPECT_EQ(g.tag("Site"), "two");
    EXPECT_EQ(g.tag("Round"), "a \"b\" c\\d");
    EXPECT_EQ(texts(g, 7), "e4 e5 Nf3 Nc6 Bb5 a6 Ba4");
    EXPECT_EQ(g.moves[0].comment, "rest of line { not a comment");
    EXPECT_EQ(g.moves[1].nags, std::vector<int>{5});
    EXPECT_EQ(g.moves[2].nags, (std::vector<int>{14, 18}));
    EXPECT_EQ(g.result, "1/2-1/2");
    EXPECT_EQ(all.games[1].tag("Event"), "three");
    EXPECT_EQ(texts(all.games[1], 2), "d4 d5");
    EXPECT_EQ(all.games[1].result, "1/2-1/2");
    EXPECT_EQ(all.games[1].number, 3);
    EXPECT_EQ(all.games[1].firstLine, 8);
}

// Windows line ends change nothing: every file read again with CRLF gives the same games.
TEST(PgnRobustness, CrlfLineEndsReadTheSame) {
    AXON_REQUIRE_DATA(sharedData(robustness("chess-library")));
    int games = 0;
    for (const auto& [name, counts] : kFileCounts) {
        std::string crlf;
        for (char c : slurp(name)) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        const ReadAll lf = readFile(name), dos = readText(crlf);
        ASSERT_EQ(dos.games.size(), lf.games.size()) << name;
        EXPECT_EQ(dos.errors, lf.errors) << name;
        for (size_t i = 0; i < lf.games.size(); ++i) {
            EXPECT_EQ(dos.games[i].tags, lf.games[i].tags) << name;
            EXPECT_EQ(dos.games[i].moves, lf.games[i].moves) << name;
            EXPECT_EQ(dos.games[i].preComment, lf.games[i].preComment) << name;
            ++games;
        }
    }
    EXPECT_EQ(games, 177); // the games of kFileCounts
}

// Two tags per line, re-read from the lexer's buffer, across its 64 KiB refills.
TEST(PgnReader, TagPairsAcrossBufferBoundaries) {
    std::string text;
    for (int i = 0; i < 5000; ++i)
        text += "[A" + std::to_string(i) + " \"v" + std::to_string(i) + "\"] [B" +
                std::to_string(i) + " \"w\\\"" + std::to_string(i) + "\"]\n";
    PgnReaderOptions options;
    options.maxTags = 20000;
    const ReadAll all = readText(text + "\n1. e4 *", options);
    ASSERT_EQ(all.games.size(), 1u);
    const PgnGame& g = all.games[0];
    ASSERT_EQ(g.tags.size(), 10000u);
    int wrong = 0;
    for (int i = 0; i < 5000; ++i) {
        wrong += g.tags[2 * i].first != "A" + std::to_string(i) ||
                 g.tags[2 * i].second != "v" + std::to_string(i) ||
                 g.tags[2 * i + 1].second != "w\"" + std::to_string(i);
    }
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(texts(g, 1), "e4");
}

TEST(PgnReader, UnterminatedCommentCostsOneGame) {
    const ReadAll all =
        readText("[Event \"a\"]\n\n1. e4 { never closed\n\n[Event \"b\"]\n\n1. d4 *\n");
    ASSERT_EQ(all.errors.size(), 1u);
    EXPECT_EQ(all.kinds[0], PgnError::Malformed);
    ASSERT_EQ(all.games.size(), 1u);
    EXPECT_EQ(all.games[0].tag("Event"), "b");
    EXPECT_EQ(texts(all.games[0], 1), "d4");
}

TEST(PgnReader, LimitsBoundHostileInput) {
    // Too many plies: skipped, and the next game still read.
    std::string longGame = "[Event \"long\"]\n\n";
    for (int i = 0; i < 3000; ++i) longGame += "Nf3 Nf6 Ng1 Ng8 ";
    PgnReaderOptions options;
    options.maxPlies = 10000;
    const ReadAll plies = readText(longGame + "*\n\n[Event \"next\"]\n\n1. e4 *\n", options);
    ASSERT_EQ(plies.errors.size(), 1u);
    EXPECT_EQ(plies.kinds[0], PgnError::TooLarge);
    ASSERT_EQ(plies.games.size(), 1u);
    EXPECT_EQ(plies.games[0].tag("Event"), "next");

    options.maxGameBytes = 1000;
    const ReadAll bytes = readText(longGame + "*\n\n1. e4 *\n", options);
    ASSERT_EQ(bytes.errors.size(), 1u);
    EXPECT_EQ(bytes.kinds[0], PgnError::TooLarge);
    EXPECT_EQ(bytes.games.size(), 1u);

    // Deep nesting is counted, not recursed into.
    const std::string deep =
        "1. e4 " + std::string(1'000'000, '(') + std::string(1'000'000, ')') + " e5 *";
    const ReadAll nested = readText(deep);
    ASSERT_EQ(nested.games.size(), 1u);
    EXPECT_EQ(texts(nested.games[0], 2), "e4 e5");

    // A huge comment, word and tag line are cut to the lexer's limits.
    const std::string huge(3'000'000, 'x');
    const ReadAll big = readText("[Event \"" + huge + "\"]\n\n1. e4 {" + huge + "} " + huge + " *");
    ASSERT_EQ(big.errors.size(), 1u);
    EXPECT_LT(big.errors[0].size(), 1000u);
    EXPECT_LE(big.skipped.at(0).tag("Event").size(), PgnLexerLimits{}.maxTagLine);
    EXPECT_EQ(big.skipped[0].moves.at(0).comment.size(), PgnLexerLimits{}.maxComment);
}

// Every truncation of real files, and random byte soup made of PGN fragments: each run ends,
// and the reader's error messages always name a game and a line.
TEST(PgnReader, TruncationsAndRandomInputTerminate) {
    AXON_REQUIRE_DATA(sharedData(robustness("chess-library")));
    const std::string source = slurp("chess-library/comment_before_moves.pgn").substr(0, 1500) +
                               "\n\n" + slurp("chess-library/variations.pgn").substr(0, 1200);
    int games = 0;
    for (size_t cut = 0; cut <= source.size(); ++cut) {
        const ReadAll all = readText(source.substr(0, cut));
        games += int(all.games.size());
        // Never more games than the source has (plus one for a cut inside the second game's
        // repeated Event tag), and both at the full length.
        EXPECT_LE(all.games.size() + all.errors.size(), 3u) << cut;
        EXPECT_TRUE(cut < source.size() || all.games.size() + all.errors.size() == 2u);
        for (const std::string& e : all.errors) EXPECT_EQ(e.rfind("game ", 0), 0u) << e;
    }
    EXPECT_GT(games, int(source.size()) / 2);

    const char* const pieces[] = {"[",
                                  "]",
                                  "\"",
                                  "{",
                                  "}",
                                  "(",
                                  ")",
                                  ";",
                                  "\n",
                                  " ",
                                  "$",
                                  "1.",
                                  "e4",
                                  "Nf3",
                                  "O-O",
                                  "0-0-0",
                                  "1-0",
                                  "*",
                                  "\\",
                                  "%",
                                  "[Event \"x\"]\n",
                                  "\xEF\xBB\xBF",
                                  "[%eval #-",
                                  "[%clk 9:",
                                  "--",
                                  "e8=Q",
                                  "\r",
                                  "\0"};
    util::Prng rng(20240601);
    int total = 0;
    for (int round = 0; round < 2000; ++round) {
        std::string soup;
        const int length = int(rng.below(200));
        for (int i = 0; i < length; ++i) {
            const char* piece = pieces[rng.below(std::size(pieces))];
            soup += *piece ? std::string(piece) : std::string(1, '\0');
        }
        const ReadAll all = readText(soup);
        total += int(all.games.size() + all.errors.size());
        for (const std::string& e : all.errors) EXPECT_EQ(e.rfind("game ", 0), 0u) << e;
        for (const PgnGame& g : all.games) EXPECT_TRUE(toPgn(g).ok());
    }
    EXPECT_GT(total, 0);
}

} // namespace
} // namespace axon::test

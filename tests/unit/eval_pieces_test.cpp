// SPDX-License-Identifier: GPL-3.0-or-later
// Each piece's contribution to the static evaluation (the analysis heat map, docs/eval-pieces.md):
// the incremental removals equal the reference evaluation of every board with one piece taken
// off, for random networks of every shape and each SIMD back end; with the embedded network the
// signs make sense (a side's queen helps that side), kings never appear, colour-flipped positions
// give mirrored answers, positions in check and removals that leave a king capturable are
// evaluated as the boards they are; the facade, and the UCI command `eval pieces`, which a
// session answers during a search too.
#include <gtest/gtest.h>

#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "chess/uci_move.h"
#include "engine/engine.h"
#include "engine/eval_file.h"
#include "eval/evaluator.h"
#include "nn/accumulator.h"
#include "nn_test_helpers.h"
#include "uci/session.h"
#include "uci_recorder.h"

namespace axon::test {
namespace {

using namespace chess;

// The board without the piece on `s`, the same side to move.
Position withoutPiece(const Position& pos, Square s) {
    Position out;
    out.clear();
    for (Bitboard b = pos.pieces() & ~squareBB(s); b; b &= b - 1)
        out.putPiece(pos.pieceOn(lsb(b)), lsb(b));
    out.setSideToMove(pos.sideToMove());
    out.finishSetup();
    return out;
}

// Bench positions plus boards with few pieces, one in check, one whose pinned knight leaves its
// king capturable when taken off, and one with the kings alone.
std::vector<Position> testPositions() {
    std::vector<Position> out;
    for (const std::string& f : engine::benchPositions()) out.push_back(fen(f));
    for (const char* f : {"4k3/8/8/8/1b6/8/3N4/4K3 b - - 0 1", "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1",
                          "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
                          "8/8/4k3/8/8/3K4/8/8 w - - 0 1", "8/5k2/8/8/8/8/1P6/4K3 b - - 0 1"})
        out.push_back(fen(f));
    return out;
}

const eval::EvalSource& embedded() {
    static const eval::EvalSource source{engine::embeddedNetwork(), {}};
    return source;
}

const eval::PieceContribution* at(const eval::PieceContributions& c, Square s) {
    for (const auto& p : c.pieces)
        if (p.square == s) return &p;
    return nullptr;
}

template <typename B>
void expectRemovalsEqualReference(const nn::Network& net, const Position& pos, const char* what) {
    const nn::RemovalEvaluations r = nn::evaluateRemovals<B>(net, pos);
    ASSERT_EQ(r.base, nn::evaluateReference(net, pos)) << what << " " << toFen(pos);
    for (Bitboard b = pos.pieces() & ~pos.pieces(King); b; b &= b - 1) {
        const Square s = lsb(b);
        ASSERT_EQ(r.without[s], nn::evaluateReference(net, withoutPiece(pos, s)))
            << what << " " << toFen(pos) << " without " << squareName(s);
    }
}

TEST(EvalPieces, RemovalsEqualTheReferenceOfEachBoard) {
    const auto positions = testPositions();
    for (const NetVariant& v : netVariants()) {
        const nn::Network net = nn::makeRandomNetwork(makeArch(v), 5);
        for (const Position& pos : positions) {
            ASSERT_NO_FATAL_FAILURE(
                expectRemovalsEqualReference<nn::simd::Scalar>(net, pos, v.name));
            ASSERT_NO_FATAL_FAILURE(
                expectRemovalsEqualReference<nn::simd::Native>(net, pos, v.name));
        }
    }
    // The embedded network too: its numbers are the ones the page shows.
    ASSERT_TRUE(embedded().network);
    for (const Position& pos : positions)
        ASSERT_NO_FATAL_FAILURE(
            expectRemovalsEqualReference<nn::simd::Native>(*embedded().network, pos, "embedded"));
}

TEST(EvalPieces, EqualTheEvaluationOfEachBoardFromWhitesView) {
    const eval::EvalSource pst{};
    for (const eval::EvalSource* source : {&embedded(), &pst}) {
        for (const Position& pos : testPositions()) {
            const int sign = pos.sideToMove() == White ? 1 : -1;
            const eval::PieceContributions c = eval::pieceContributions(*source, pos);
            ASSERT_EQ(c.base, sign * eval::evaluateOnce(*source, pos)) << toFen(pos);
            // One entry per piece but the kings, in square order.
            ASSERT_EQ(int(c.pieces.size()), popcount(pos.pieces()) - 2) << toFen(pos);
            Square previous = A1;
            for (const eval::PieceContribution& p : c.pieces) {
                ASSERT_NE(typeOf(p.piece), King);
                ASSERT_EQ(p.piece, pos.pieceOn(p.square));
                ASSERT_TRUE(p.square >= previous);
                previous = p.square;
                const int without = sign * eval::evaluateOnce(*source, withoutPiece(pos, p.square));
                ASSERT_EQ(p.cp, c.base - without) << toFen(pos) << " " << squareName(p.square);
            }
        }
    }
}

TEST(EvalPieces, EachSidesQueenAndRooksHelpThatSide) {
    // Quiet positions, either side to move: taking a queen or a rook off costs its owner.
    for (const char* f :
         {Position::kStartFen, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
          "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
          "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10"}) {
        const Position pos = fen(f);
        const eval::PieceContributions c = eval::pieceContributions(embedded(), pos);
        int whiteSum = 0, blackSum = 0;
        for (const eval::PieceContribution& p : c.pieces) {
            const PieceType t = typeOf(p.piece);
            if (t == Queen) {
                if (colorOf(p.piece) == White)
                    EXPECT_GT(p.cp, 400) << f << " " << squareName(p.square);
                else
                    EXPECT_LT(p.cp, -400) << f << " " << squareName(p.square);
            }
            if (t == Rook) {
                if (colorOf(p.piece) == White)
                    EXPECT_GT(p.cp, 150) << f << " " << squareName(p.square);
                else
                    EXPECT_LT(p.cp, -150) << f << " " << squareName(p.square);
            }
            (colorOf(p.piece) == White ? whiteSum : blackSum) += p.cp;
        }
        EXPECT_GT(whiteSum, 1000) << f;
        EXPECT_LT(blackSum, -1000) << f;
    }
}

TEST(EvalPieces, ColourFlippedPositionsGiveMirroredAnswers) {
    // The network sees each side from its own king, so swapping colours (board flipped, the
    // other side to move) must give the same numbers from the other side: exactly.
    const eval::EvalSource pst{};
    for (const eval::EvalSource* source : {&embedded(), &pst}) {
        for (const Position& pos : testPositions()) {
            const eval::PieceContributions a = eval::pieceContributions(*source, pos);
            const eval::PieceContributions b =
                eval::pieceContributions(*source, colourFlipped(pos));
            ASSERT_EQ(a.base, -b.base) << toFen(pos);
            ASSERT_EQ(a.pieces.size(), b.pieces.size());
            for (const eval::PieceContribution& p : a.pieces) {
                const eval::PieceContribution* q = at(b, flipRank(p.square));
                ASSERT_TRUE(q) << toFen(pos) << " " << squareName(p.square);
                EXPECT_EQ(q->piece, makePiece(~colorOf(p.piece), typeOf(p.piece)));
                EXPECT_EQ(q->cp, -p.cp) << toFen(pos) << " " << squareName(p.square);
            }
        }
    }
}

TEST(EvalPieces, InCheckAndKingCapturableBoardsAreEvaluatedAsTheyStand) {
    // White is in check (Qh4, Fool's mate): evaluated statically, like `eval`.
    const Position mated = fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    ASSERT_TRUE(mated.inCheck());
    const eval::PieceContributions m = eval::pieceContributions(embedded(), mated);
    EXPECT_EQ(int(m.pieces.size()), 30);
    EXPECT_LT(at(m, H4)->cp, 0); // Black's queen helps Black

    // The knight on d2 is pinned to its king by the bishop on b4; with Black to move, taking it
    // off leaves White's king capturable. The board is still evaluated (it is not searched).
    const Position pinned = fen("4k3/8/8/8/1b6/8/3N4/4K3 b - - 0 1");
    const eval::PieceContributions p = eval::pieceContributions(embedded(), pinned);
    ASSERT_EQ(p.pieces.size(), 2u);
    const Position cut = withoutPiece(pinned, D2);
    ASSERT_TRUE(cut.isAttacked(E1, Black, cut.pieces()));
    EXPECT_EQ(at(p, D2)->cp, p.base + eval::evaluateOnce(embedded(), cut));

    // The kings alone: nothing to take off.
    const eval::PieceContributions kings =
        eval::pieceContributions(embedded(), fen("8/8/4k3/8/8/3K4/8/8 w - - 0 1"));
    EXPECT_TRUE(kings.pieces.empty());
}

TEST(EvalPieces, EngineFacadeUsesItsEvaluation) {
    engine::Engine e;
    ASSERT_FALSE(e.setPosition("", {"e2e4", "e7e5", "g1f3"}));
    const engine::PieceContributions current = e.pieceContributions();
    const engine::PieceContributions direct = eval::pieceContributions(embedded(), e.position());
    EXPECT_EQ(current.base, direct.base);
    EXPECT_EQ(current.pieces, direct.pieces);
    const Position other = fen("4k3/8/8/8/1b6/8/3N4/4K3 b - - 0 1");
    EXPECT_EQ(e.pieceContributions(other).pieces,
              eval::pieceContributions(embedded(), other).pieces);
    // The hand-written evaluation when EvalFile says so.
    ASSERT_FALSE(e.options().set("EvalFile", "<pst>"));
    EXPECT_EQ(e.pieceContributions().pieces,
              eval::pieceContributions(eval::EvalSource{}, e.position()).pieces);
}

using Recorder = UciRecorder;

// The square, piece and value of each triple after "info string pieces base <cp>".
struct ParsedPieces {
    int base = 0;
    std::vector<std::tuple<std::string, char, int>> pieces;
};

ParsedPieces parsePiecesLine(const std::string& line) {
    std::istringstream in(line);
    std::string info, string, pieces, base;
    ParsedPieces out;
    in >> info >> string >> pieces >> base >> out.base;
    EXPECT_EQ(info + " " + string + " " + pieces + " " + base, "info string pieces base") << line;
    std::string square;
    char piece = 0;
    int cp = 0;
    while (in >> square >> piece >> cp) out.pieces.emplace_back(square, piece, cp);
    EXPECT_TRUE(in.eof()) << line;
    return out;
}

TEST(EvalPieces, UciEvalPiecesPrintsOneLineAndPlainEvalIsUnchanged) {
    Recorder out;
    uci::Session session(out.sink(), engine::EngineLimits{8, 1});
    ASSERT_TRUE(session.handle("position startpos moves e2e4 e7e5 g1f3 b8c6"));
    ASSERT_TRUE(session.handle("eval pieces"));
    auto lines = out.take();
    ASSERT_EQ(lines.size(), 1u);
    const ParsedPieces parsed = parsePiecesLine(lines[0]);
    engine::Engine reference;
    ASSERT_FALSE(reference.setPosition("", {"e2e4", "e7e5", "g1f3", "b8c6"}));
    const engine::PieceContributions expected = reference.pieceContributions();
    EXPECT_EQ(parsed.base, expected.base);
    ASSERT_EQ(parsed.pieces.size(), expected.pieces.size());
    ASSERT_EQ(parsed.pieces.size(), 30u);
    for (std::size_t i = 0; i < parsed.pieces.size(); ++i) {
        EXPECT_EQ(std::get<0>(parsed.pieces[i]), squareName(expected.pieces[i].square));
        EXPECT_EQ(std::get<1>(parsed.pieces[i]), "PNBRQKpnbrqk"[expected.pieces[i].piece]);
        EXPECT_EQ(std::get<2>(parsed.pieces[i]), expected.pieces[i].cp);
    }
    EXPECT_EQ(std::get<0>(parsed.pieces[3]), "d1"); // a1 R, b1 N, c1 B, d1 Q
    EXPECT_GT(std::get<2>(parsed.pieces[3]), 0);

    // Plain `eval` keeps its breakdown; an unknown argument is an error.
    ASSERT_TRUE(session.handle("eval"));
    lines = out.take();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].rfind("evaluation: ", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find("network (side to move)"), std::string::npos);
    ASSERT_TRUE(session.handle("eval piece"));
    lines = out.take();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0], "info string error: eval: unknown argument 'piece' (eval, or eval pieces)");

    // Answered while an infinite search runs, for the position set after it started.
    ASSERT_TRUE(session.handle("go infinite"));
    ASSERT_TRUE(session.handle("position fen 4k3/8/8/8/1b6/8/3N4/4K3 b - - 0 1"));
    ASSERT_TRUE(session.handle("eval pieces"));
    ASSERT_TRUE(session.searching());
    ASSERT_TRUE(session.handle("stop"));
    lines = out.take();
    std::vector<std::string> piecesLines;
    for (const std::string& line : lines)
        if (line.rfind("info string pieces", 0) == 0) piecesLines.push_back(line);
    ASSERT_EQ(piecesLines.size(), 1u);
    const ParsedPieces pinned = parsePiecesLine(piecesLines[0]);
    ASSERT_EQ(pinned.pieces.size(), 2u);
    EXPECT_EQ(std::get<0>(pinned.pieces[0]), "d2");
    EXPECT_EQ(std::get<1>(pinned.pieces[0]), 'N');
    EXPECT_EQ(std::get<0>(pinned.pieces[1]), "b4");
    EXPECT_EQ(std::get<1>(pinned.pieces[1]), 'b');
    EXPECT_EQ(lines.back().rfind("bestmove ", 0), 0u) << lines.back();
}

} // namespace
} // namespace axon::test

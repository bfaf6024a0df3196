// SPDX-License-Identifier: GPL-3.0-or-later
// The staged move picker over thousands of positions from random playouts, with hash moves,
// killers and counter moves that are legal, noisy, illegal, garbage (a hash collision) or equal
// to each other, and random history tables: every legal move comes out exactly once, nothing
// else comes out, the stages keep their order (hash move, good noisy moves, killer 1, killer 2,
// counter move, quiet moves, bad noisy moves), and skipping quiets drops only quiet moves.
#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci_move.h"
#include "search/movepick.h"
#include "search/params.h"
#include "search/threats.h"
#include "test_helpers.h"
#include "util/prng.h"

namespace axon::test {
namespace {

using namespace chess;
using search::MovePicker;

// Random history tables: the picker's order depends on them, its completeness must not.
struct RandomTables {
    std::unique_ptr<search::ButterflyHistory> butterfly =
        std::make_unique<search::ButterflyHistory>();
    std::unique_ptr<search::CaptureHistory> captures = std::make_unique<search::CaptureHistory>();
    std::unique_ptr<search::PieceToHistory> continuation1 =
        std::make_unique<search::PieceToHistory>();
    std::unique_ptr<search::PieceToHistory> continuation2 =
        std::make_unique<search::PieceToHistory>();

    explicit RandomTables(util::Prng& rng) {
        auto fill = [&](std::int16_t* begin, std::size_t count) {
            for (std::size_t i = 0; i < count; ++i)
                begin[i] =
                    std::int16_t(int(rng.below(2 * search::kHistoryMax + 1)) - search::kHistoryMax);
        };
        fill(&butterfly->table[0][0][0], sizeof butterfly->table / sizeof(std::int16_t));
        fill(&captures->table[0][0][0], sizeof captures->table / sizeof(std::int16_t));
        fill(&(*continuation1)[0][0], sizeof *continuation1 / sizeof(std::int16_t));
        fill(&(*continuation2)[0][0], sizeof *continuation2 / sizeof(std::int16_t));
    }
    // `threats` must outlive the picker, as the search's stack entry does.
    search::OrderingTables tables(bool withContinuations, const search::Threats& threats) const {
        return {butterfly.get(),
                captures.get(),
                {withContinuations ? continuation1.get() : nullptr,
                 withContinuations ? continuation2.get() : nullptr},
                &threats};
    }
};

// Positions reached by random legal playouts from a few openings, middlegames and endings with
// castling, en passant, promotions and checks.
std::vector<Position> samplePositions(util::Prng& rng, int count) {
    const std::vector<std::string> starts = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/1P4k1/8/8/8/8/5Kp1/8 w - - 0 1",
    };
    std::vector<Position> positions;
    while (int(positions.size()) < count) {
        Position pos = fen(starts[rng.below(starts.size())]);
        const int plies = int(rng.below(40));
        for (int ply = 0; ply < plies; ++ply) {
            MoveList<GenType::All> moves(pos);
            if (moves.empty()) break;
            pos.makeMove(moves[int(rng.below(moves.size()))]);
        }
        if (MoveList<GenType::All>(pos).empty()) continue;
        positions.push_back(pos);
    }
    return positions;
}

// A move for the picker's hints: none, a legal quiet or noisy move, a move of another position
// (usually illegal here), a random 16-bit value (a hash collision), or the null move.
Move randomHint(util::Prng& rng, const Position& pos, const std::vector<Position>& others) {
    const MoveList<GenType::All> legal(pos);
    switch (rng.below(6)) {
    case 0: return Move::none();
    case 1:
    case 2: return legal[int(rng.below(legal.size()))];
    case 3: {
        const MoveList<GenType::All> foreign(others[rng.below(others.size())]);
        return foreign.empty() ? Move::none() : foreign[int(rng.below(foreign.size()))];
    }
    case 4: return Move(std::uint16_t(rng.next()));
    default: return Move::null();
    }
}

enum class Kind { TT, GoodNoisy, Killer1, Killer2, Counter, Quiet, BadNoisy };

bool isGoodNoisy(const Position& pos, Move m) {
    const bool goodPromotion = m.type() != MoveType::Promotion || m.promotion() == Queen;
    return pos.isNoisy(m) && goodPromotion && pos.seeGe(m, 0);
}

TEST(MovePicker, EveryLegalMoveExactlyOnceInStageOrder) {
    util::Prng rng(20261125);
    const auto positions = samplePositions(rng, 3000);
    const RandomTables histories(rng);
    int withHints = 0;
    for (const Position& pos : positions) {
        const MoveList<GenType::All> legal(pos);
        Move tt = randomHint(rng, pos, positions), k1 = randomHint(rng, pos, positions),
             k2 = randomHint(rng, pos, positions), counter = randomHint(rng, pos, positions);
        // Duplicates the search can produce: a killer equal to the hash move, equal killers.
        if (rng.below(8) == 0) k1 = tt;
        if (rng.below(8) == 0) k2 = k1;
        if (rng.below(8) == 0) counter = k2;
        const auto usable = [&](Move m) { return legal.contains(m); };
        withHints += usable(tt) + usable(k1) + usable(k2) + usable(counter) > 0;

        const search::Threats threats(pos);
        MovePicker picker(pos, tt, k1, k2, counter, histories.tables(rng.below(4) != 0, threats));
        std::vector<Move> picked;
        std::vector<Kind> kinds;
        for (Move m; (m = picker.next());) {
            ASSERT_TRUE(legal.contains(m)) << toFen(pos) << " gave " << m.raw();
            picked.push_back(m);
            const bool quiet = !pos.isNoisy(m);
            Kind kind =
                !quiet ? (isGoodNoisy(pos, m) ? Kind::GoodNoisy : Kind::BadNoisy) : Kind::Quiet;
            if (picked.size() == 1 && m == tt)
                kind = Kind::TT;
            else if (quiet && m == k1)
                kind = Kind::Killer1;
            else if (quiet && m == k2)
                kind = Kind::Killer2;
            else if (quiet && m == counter)
                kind = Kind::Counter;
            kinds.push_back(kind);
        }
        ASSERT_EQ(picker.next(), Move::none()) << "an exhausted picker stays exhausted";
        const std::set<std::uint16_t> distinct = [&] {
            std::set<std::uint16_t> s;
            for (Move m : picked) s.insert(m.raw());
            return s;
        }();
        ASSERT_EQ(distinct.size(), picked.size()) << toFen(pos) << ": a move came out twice";
        ASSERT_EQ(int(picked.size()), legal.size()) << toFen(pos) << ": a legal move is missing";
        if (usable(tt)) {
            ASSERT_EQ(picked.front(), tt) << toFen(pos);
        }
        ASSERT_TRUE(std::is_sorted(kinds.begin(), kinds.end())) << toFen(pos) << ": stage order";
    }
    EXPECT_GT(withHints, 1000) << "the hints must often be usable for the test to mean much";
}

// The threat maps from attackersTo, square by square: an oracle independent of search/threats.h.
struct ThreatOracle {
    Bitboard byPawn = 0, byMinor = 0, byRook = 0, all = 0;
    explicit ThreatOracle(const Position& pos) {
        const Bitboard pawns = pos.pieces(Pawn), minors = pos.pieces(Knight, Bishop);
        for (int sq = 0; sq < kNumSquares; ++sq) {
            const Bitboard attackers = pos.attackersTo(Square(sq)) & pos.pieces(~pos.sideToMove());
            if (attackers & pawns) byPawn |= squareBB(Square(sq));
            if (attackers & (pawns | minors)) byMinor |= squareBB(Square(sq));
            if (attackers & (pawns | minors | pos.pieces(Rook))) byRook |= squareBB(Square(sq));
            if (attackers) all |= squareBB(Square(sq));
        }
    }
    // Where a piece of this type can be taken by a cheaper one.
    Bitboard cheaperAttacks(PieceType pt) const {
        return pt == Queen ? byRook : pt == Rook ? byMinor : byPawn;
    }
    // The quiet stage's threat term of a move, as search/threats.h documents it.
    int adjustment(const Position& pos, Move m) const {
        const PieceType pt = typeOf(pos.movedPiece(m));
        if (pt == Pawn || pt == King) return 0;
        const Bitboard to = squareBB(m.to());
        const int escape = search::params::threatEscapeBonus;
        const int enPrise = search::params::threatEnPriseMalus;
        if (cheaperAttacks(pt) & squareBB(m.from())) {
            if (pt == Queen && !(byRook & to)) return escape * 10 / 3;
            if (pt == Rook && !(byMinor & to)) return escape * 5 / 3;
            return byPawn & to ? 0 : escape;
        }
        if (!(cheaperAttacks(pt) & to)) return 0;
        return pt == Queen ? -enPrise * 3 : pt == Rook ? -enPrise * 5 / 3 : -enPrise;
    }
};

TEST(Threats, MapsMatchAttackersSquareBySquare) {
    util::Prng rng(20261127);
    int threatenedPositions = 0;
    for (const Position& pos : samplePositions(rng, 2000)) {
        const search::Threats threats(pos);
        const ThreatOracle oracle(pos);
        ASSERT_EQ(threats.byPawn, oracle.byPawn) << toFen(pos);
        ASSERT_EQ(threats.byMinor, oracle.byMinor) << toFen(pos);
        ASSERT_EQ(threats.byRook, oracle.byRook) << toFen(pos);
        ASSERT_EQ(threats.all, oracle.all) << toFen(pos);
        const Color us = pos.sideToMove();
        ASSERT_EQ(threats.threatened, (pos.pieces(us, Queen) & oracle.byRook) |
                                          (pos.pieces(us, Rook) & oracle.byMinor) |
                                          (pos.pieces(us, Knight, Bishop) & oracle.byPawn))
            << toFen(pos);
        threatenedPositions += threats.threatened != 0;
    }
    EXPECT_GT(threatenedPositions, 100)
        << "threatened pieces must be common for the test to mean much";
}

// Without continuations a quiet move's score is the butterfly entry of its bucket: whether the
// opponent attacks its from square and its to square, found here with attackersTo. Each of the
// four buckets must occur, or the test would not tell them apart.
TEST(MovePicker, QuietScoreReadsTheButterflyBucketOfTheAttackedSquares) {
    util::Prng rng(20261128);
    const auto positions = samplePositions(rng, 1000);
    const RandomTables histories(rng);
    int perBucket[search::ButterflyHistory::kBuckets] = {};
    for (const Position& pos : positions) {
        const Color us = pos.sideToMove();
        const search::Threats threats(pos);
        const MovePicker picker(pos, Move::none(), Move::none(), Move::none(), Move::none(),
                                histories.tables(false, threats));
        const auto attacked = [&](Square s) { return (pos.attackersTo(s) & pos.pieces(~us)) != 0; };
        for (const Move m : MoveList(pos)) {
            if (pos.isNoisy(m)) continue;
            const int bucket = 2 * attacked(m.from()) + attacked(m.to());
            ++perBucket[bucket];
            ASSERT_EQ(picker.quietScore(m), histories.butterfly->table[us][bucket][m.raw() & 4095])
                << toFen(pos) << " " << toUci(m, false);
        }
    }
    for (const int count : perBucket) EXPECT_GT(count, 100);
}

// A knight attacked by a pawn (e4): its retreats to squares no pawn attacks come first among the
// quiets, ahead of the quiet with the best history (a2a3); the retreat to g5, which the h6 pawn
// attacks, earns nothing and comes after it. Every other history is zero.
TEST(MovePicker, ThreatenedPieceMovesAwayFirst) {
    const Position pos = fen("4k3/8/7p/8/1b2p3/5N2/PPPP1PPP/3QK3 w - - 0 1");
    auto butterfly = std::make_unique<search::ButterflyHistory>();
    auto captures = std::make_unique<search::CaptureHistory>();
    search::clearTable(*butterfly);
    search::clearTable(*captures);
    const search::Threats threats(pos);
    butterfly->at(White, threats.all, *parseUciMove(pos, "a2a3")) =
        std::int16_t(search::kHistoryMax / 2);
    MovePicker picker(pos, Move::none(), Move::none(), Move::none(), Move::none(),
                      {butterfly.get(), captures.get(), {}, &threats});
    std::vector<std::string> quiets;
    for (Move m; (m = picker.next());)
        if (!pos.isNoisy(m)) quiets.push_back(toUci(m, false));
    ASSERT_GE(quiets.size(), 6u);
    const std::set<std::string> firstFour(quiets.begin(), quiets.begin() + 4);
    EXPECT_EQ(firstFour, (std::set<std::string>{"f3d4", "f3e5", "f3h4", "f3g1"}));
    EXPECT_EQ(quiets[4], "a2a3");
    EXPECT_NE(std::find(quiets.begin() + 5, quiets.end(), "f3g5"), quiets.end());
}

// The quiet stage orders by history, with quiet checks a bonus ahead: a checking quiet with poor
// history still comes before the late quiets that late-move pruning gives up on. The threat terms
// of search/threats.h are added as the oracle above computes them.
TEST(MovePicker, QuietStageOrdersByHistoryPlusTheCheckBonus) {
    util::Prng rng(20261126);
    const auto positions = samplePositions(rng, 3000);
    const RandomTables histories(rng);
    int checksAheadOfHistory = 0;
    for (const Position& pos : positions) {
        const search::Threats threatMaps(pos);
        const auto tables = histories.tables(rng.below(2) != 0, threatMaps);
        MovePicker picker(pos, Move::none(), Move::none(), Move::none(), Move::none(), tables);
        std::vector<Move> quiets;
        for (Move m; (m = picker.next());)
            if (!pos.isNoisy(m)) quiets.push_back(m);
        const ThreatOracle threats(pos);
        const auto key = [&](Move m) {
            return picker.quietScore(m) + (pos.givesCheck(m) ? MovePicker::kQuietCheckBonus : 0) +
                   threats.adjustment(pos, m);
        };
        for (std::size_t i = 1; i < quiets.size(); ++i) {
            ASSERT_GE(key(quiets[i - 1]), key(quiets[i]))
                << toFen(pos) << ": " << toUci(quiets[i - 1], false) << " before "
                << toUci(quiets[i], false);
            checksAheadOfHistory += pos.givesCheck(quiets[i - 1]) && !pos.givesCheck(quiets[i]) &&
                                    picker.quietScore(quiets[i - 1]) < picker.quietScore(quiets[i]);
        }
    }
    EXPECT_GT(checksAheadOfHistory, 50)
        << "the bonus must reorder quiets for the test to mean much";
}

// Skipping quiets from some move on: no move twice, no noisy move lost, and after the switch
// no quiet move but the hash move, which the search has already tried by then.
TEST(MovePicker, SkippingQuietsDropsOnlyQuietMoves) {
    util::Prng rng(77);
    const auto positions = samplePositions(rng, 2000);
    const RandomTables histories(rng);
    for (const Position& pos : positions) {
        const MoveList<GenType::All> legal(pos);
        const Move tt = randomHint(rng, pos, positions), k1 = randomHint(rng, pos, positions),
                   k2 = randomHint(rng, pos, positions), c = randomHint(rng, pos, positions);
        const search::Threats threats(pos);
        MovePicker picker(pos, tt, k1, k2, c, histories.tables(true, threats));
        const std::size_t switchAt = rng.below(legal.size() + 1);
        std::set<std::uint16_t> seen;
        for (Move m; (m = picker.next(seen.size() >= switchAt));) {
            ASSERT_TRUE(legal.contains(m)) << toFen(pos);
            ASSERT_TRUE(seen.insert(m.raw()).second) << toFen(pos) << ": a move came out twice";
            if (seen.size() > switchAt && !pos.isNoisy(m)) {
                ASSERT_TRUE(m == tt && seen.size() == 1)
                    << toFen(pos) << ": a quiet move after skip";
            }
        }
        for (Move m : legal) {
            if (pos.isNoisy(m)) {
                ASSERT_TRUE(seen.count(m.raw())) << toFen(pos) << ": noisy move lost";
            }
        }
    }
}

// Quiescence: out of check the noisy moves (and a noisy hash move first), each once; in check
// every evasion, quiet ones included.
TEST(MovePicker, QuiescenceGivesNoisyMovesOrEveryEvasion) {
    util::Prng rng(5);
    const auto positions = samplePositions(rng, 3000);
    const RandomTables histories(rng);
    int inCheck = 0;
    for (const Position& pos : positions) {
        const MoveList<GenType::All> legal(pos);
        const Move tt = randomHint(rng, pos, positions);
        const search::Threats threats(pos);
        MovePicker picker(pos, tt, histories.tables(true, threats));
        std::set<std::uint16_t> seen;
        for (Move m; (m = picker.next());) {
            ASSERT_TRUE(legal.contains(m)) << toFen(pos);
            ASSERT_TRUE(seen.insert(m.raw()).second) << toFen(pos) << ": a move came out twice";
            if (!pos.inCheck()) {
                ASSERT_TRUE(pos.isNoisy(m)) << toFen(pos) << ": a quiet move";
            }
        }
        std::size_t expected = 0;
        for (Move m : legal) expected += pos.inCheck() || pos.isNoisy(m);
        ASSERT_EQ(seen.size(), expected) << toFen(pos);
        inCheck += pos.inCheck();
    }
    EXPECT_GT(inCheck, 30) << "too few positions in check to test evasions";
}

} // namespace
} // namespace axon::test

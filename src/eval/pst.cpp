// SPDX-License-Identifier: GPL-3.0-or-later
// Piece-square tables built from a few chess principles (centralisation, pawn advancement,
// king shelter in the middlegame and king activity in the endgame) rather than tuned numbers:
// a stand-in that the trained network replaces.
#include "eval/pst.h"

#include <algorithm>

namespace axon::eval {

using namespace chess;

namespace {

constexpr TaperedScore kMaterial[kNumPieceTypes] = {{90, 110},  {320, 300}, {330, 320},
                                                    {480, 540}, {950, 980}, {0, 0}};
constexpr int kPhaseWeight[kNumPieceTypes] = {0, 1, 1, 2, 4, 0};

// 0 on the four centre squares, up to 6 in the corners.
int centreDistance(Square s) {
    const int file = fileOf(s), rank = rankOf(s);
    return std::max(3 - file, file - 4) + std::max(3 - rank, rank - 4);
}

struct Tables {
    TaperedScore value[kNumPieceTypes][kNumSquares];

    Tables() {
        constexpr int pawnMg[8] = {0, 0, 5, 10, 20, 35, 60, 0};
        constexpr int pawnEg[8] = {0, 0, 10, 20, 40, 70, 120, 0};
        for (Square s = A1; s < NoSquare; ++s) {
            const int file = fileOf(s), rank = rankOf(s), centre = centreDistance(s);
            const bool centralFile = file == 3 || file == 4;
            value[Pawn][s] = {pawnMg[rank] + (centralFile && (rank == 3 || rank == 4) ? 15 : 0),
                              pawnEg[rank]};
            value[Knight][s] = {-10 * centre + 20, -8 * centre + 15};
            value[Bishop][s] = {-5 * centre + 10, -5 * centre + 10};
            value[Rook][s] = {(rank == 6 ? 20 : 0) + (centralFile ? 5 : 0), 0};
            value[Queen][s] = {-3 * centre + 5, -6 * centre + 15};
            // Middlegame: stay home, preferably on a castled file; endgame: come to the centre.
            const int shelter = (file <= 2 || file >= 5) ? 20 : -15;
            value[King][s] = {shelter - 30 * rank, -12 * centre + 30};
            for (int pt = Pawn; pt <= King; ++pt) {
                value[pt][s].mg += kMaterial[pt].mg;
                value[pt][s].eg += kMaterial[pt].eg;
            }
        }
    }
};

const Tables& tables() {
    static const Tables instance;
    return instance;
}

} // namespace

TaperedScore pieceSquareValue(PieceType pt, Square s) { return tables().value[pt][s]; }

TaperedScore materialAndPlacement(const Position& pos) {
    const Tables& t = tables();
    TaperedScore total;
    for (Color c : {White, Black}) {
        const int sign = c == White ? 1 : -1;
        for (int pt = Pawn; pt <= King; ++pt) {
            for (Bitboard b = pos.pieces(c, PieceType(pt)); b;) {
                // Black's squares are mirrored so both sides read the same table.
                const Square s = relative(c, popLsb(b));
                total.mg += sign * t.value[pt][s].mg;
                total.eg += sign * t.value[pt][s].eg;
            }
        }
    }
    return total;
}

int gamePhase(const Position& pos) {
    int phase = 0;
    for (int pt = Knight; pt <= Queen; ++pt)
        phase += kPhaseWeight[pt] * popcount(pos.pieces(PieceType(pt)));
    return std::min(phase, kMaxPhase);
}

} // namespace axon::eval

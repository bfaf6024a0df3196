// SPDX-License-Identifier: GPL-3.0-or-later
// The hand-written evaluation: tapered material and placement, bishop pair and tempo.
#include "eval/evaluate.h"

#include <sstream>

#include "eval/pst.h"

namespace axon::eval {

using namespace chess;

namespace {

constexpr TaperedScore kBishopPair = {30, 50};
constexpr int kTempo = 10;

struct Breakdown {
    TaperedScore placement;
    TaperedScore bishopPair;
    int phase;
    int whiteView;
};

Breakdown compute(const Position& pos) {
    Breakdown b{};
    b.placement = materialAndPlacement(pos);
    for (Color c : {White, Black}) {
        if (pos.count(c, Bishop) >= 2) {
            const int sign = c == White ? 1 : -1;
            b.bishopPair.mg += sign * kBishopPair.mg;
            b.bishopPair.eg += sign * kBishopPair.eg;
        }
    }
    b.phase = gamePhase(pos);
    const int mg = b.placement.mg + b.bishopPair.mg;
    const int eg = b.placement.eg + b.bishopPair.eg;
    b.whiteView = (mg * b.phase + eg * (kMaxPhase - b.phase)) / kMaxPhase;
    return b;
}

} // namespace

Score evaluate(const Position& pos) {
    const int white = compute(pos).whiteView;
    return (pos.sideToMove() == White ? white : -white) + kTempo;
}

std::string explain(const Position& pos) {
    const Breakdown b = compute(pos);
    std::ostringstream out;
    out << "term            mg      eg   (White's view)\n"
        << "placement  " << b.placement.mg << "  " << b.placement.eg << "\n"
        << "bishop pair " << b.bishopPair.mg << "  " << b.bishopPair.eg << "\n"
        << "phase " << b.phase << "/" << kMaxPhase << "\n"
        << "total (White's view) " << b.whiteView << " cp\n"
        << "tempo " << kTempo << "\n"
        << "final (side to move) " << evaluate(pos) << " cp";
    return out.str();
}

} // namespace axon::eval

// SPDX-License-Identifier: GPL-3.0-or-later
// WDL model coefficients and evaluation.
#include "search/wdl.h"

#include <algorithm>
#include <cmath>

#include "search/score.h"

namespace axon::search {

using namespace chess;

namespace {

// Fitted by scripts/fit-wdl.py (docs/wdl-model.md has the data and command); powers of
// m / 58 from the cube down to the constant.
constexpr std::array<double, 4> kA = {-396.35119, 1287.8527, -1349.5714, 533.36351};
constexpr std::array<double, 4> kB = {653.10239, -1342.9582, 862.40271, -52.518499};

double polynomial(const std::array<double, 4>& c, double x) {
    return ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
}

int winPerMille(int score, WdlParams p) {
    return int(std::lround(1000.0 / (1.0 + std::exp((p.a - double(score)) / p.b))));
}

} // namespace

int wdlMaterial(const Position& pos) {
    const int m = popcount(pos.pieces(Pawn)) + 3 * popcount(pos.pieces(Knight, Bishop)) +
                  5 * popcount(pos.pieces(Rook)) + 9 * popcount(pos.pieces(Queen));
    return std::clamp(m, kWdlMinMaterial, kWdlMaxMaterial);
}

WdlParams wdlParams(int material) {
    const double x = std::clamp(material, kWdlMinMaterial, kWdlMaxMaterial) / 58.0;
    return {polynomial(kA, x), std::max(1.0, polynomial(kB, x))};
}

Wdl wdlFromScore(int score, int material) {
    if (isDecisiveScore(score)) return score > 0 ? Wdl{1000, 0, 0} : Wdl{0, 0, 1000};
    const WdlParams p = wdlParams(material);
    const int win = winPerMille(score, p);
    const int loss = winPerMille(-score, p);
    return {win, 1000 - win - loss, loss};
}

} // namespace axon::search

// SPDX-License-Identifier: GPL-3.0-or-later
#include "tablebase/encoding.h"

#include <cstdlib>
#include <utility>
#include <vector>

namespace axon::tablebase {

using namespace chess;

namespace {

bool kingsTouch(int a, int b) {
    return std::abs((a & 7) - (b & 7)) <= 1 && std::abs((a >> 3) - (b >> 3)) <= 1;
}

EncodingTables build() {
    EncodingTables t{};
    int code = 0;
    for (int s = 0; s < 64; ++s)
        if (offDiagonal(Square(s)) < 0) t.mapB1H1H7[s] = code++;

    std::vector<int> diagonal;
    code = 0;
    for (int s = 0; s <= D4; ++s) {
        if (fileOf(Square(s)) > 3) continue;
        if (offDiagonal(Square(s)) < 0)
            t.mapA1D1D4[s] = code++;
        else if (offDiagonal(Square(s)) == 0)
            diagonal.push_back(s);
    }
    for (int s : diagonal) t.mapA1D1D4[s] = code++;

    // The first king in the triangle; the second anywhere it may stand. With the first on the
    // diagonal, the second must not be above it (the mirror covers those), and pairs with both on
    // the diagonal come last.
    std::vector<std::pair<int, int>> bothOnDiagonal;
    code = 0;
    for (int idx = 0; idx < 10; ++idx)
        for (int s1 = 0; s1 <= D4; ++s1) {
            const bool inTriangle = fileOf(Square(s1)) <= 3 && offDiagonal(Square(s1)) <= 0;
            if (!inTriangle || t.mapA1D1D4[s1] != idx) continue;
            for (int s2 = 0; s2 < 64; ++s2) {
                if (s1 == s2 || kingsTouch(s1, s2)) continue;
                const int d1 = offDiagonal(Square(s1)), d2 = offDiagonal(Square(s2));
                if (d1 == 0 && d2 > 0) continue;
                if (d1 == 0 && d2 == 0)
                    bothOnDiagonal.emplace_back(idx, s2);
                else
                    t.mapKK[idx][s2] = code++;
            }
        }
    for (auto [idx, s2] : bothOnDiagonal) t.mapKK[idx][s2] = code++;

    t.binomial[0][0] = 1;
    for (int n = 1; n < 64; ++n)
        for (int k = 0; k < kMaxTablePieces && k <= n; ++k)
            t.binomial[k][n] =
                (k > 0 ? t.binomial[k - 1][n - 1] : 0) + (k < n ? t.binomial[k][n - 1] : 0);

    int available = 47;
    for (int leadCount = 1; leadCount < kMaxTablePieces - 1; ++leadCount)
        for (int file = 0; file < 4; ++file) {
            int idx = 0;
            for (int rank = 1; rank <= 6; ++rank) {
                const Square sq = makeSquare(file, rank);
                if (leadCount == 1) {
                    t.mapPawns[sq] = available--;
                    t.mapPawns[makeSquare(7 - file, rank)] = available--;
                }
                t.leadPawnIdx[leadCount][sq] = idx;
                idx += int(t.binomial[leadCount - 1][t.mapPawns[sq]]);
            }
            t.leadPawnsSize[leadCount][file] = idx;
        }
    return t;
}

} // namespace

const EncodingTables& encodingTables() {
    static const EncodingTables tables = build();
    return tables;
}

} // namespace axon::tablebase

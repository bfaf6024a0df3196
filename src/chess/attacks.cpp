// SPDX-License-Identifier: GPL-3.0-or-later
// Builds the attack tables at start-up, including the search for magic multipliers.
#include "chess/attacks.h"

#include <algorithm>
#include <iterator>

#include "chess/magic_numbers.h"
#include "util/prng.h"

namespace axon::chess {

namespace detail {
Bitboard pawnAttacks[kNumColors][kNumSquares];
Bitboard knightAttacks[kNumSquares];
Bitboard kingAttacks[kNumSquares];
Bitboard between[kNumSquares][kNumSquares];
Bitboard line[kNumSquares][kNumSquares];
SliderEntry bishopEntries[kNumSquares];
SliderEntry rookEntries[kNumSquares];
} // namespace detail

namespace {

// Sizes of the "fancy" magic tables: the sum over squares of 2^(relevant bits).
constexpr int kBishopTableSize = 5248;
constexpr int kRookTableSize = 102400;
Bitboard bishopMagicTable[kBishopTableSize];
Bitboard rookMagicTable[kRookTableSize];
#if AXON_USE_PEXT
Bitboard bishopPextTable[kBishopTableSize];
Bitboard rookPextTable[kRookTableSize];
#endif

constexpr int kBishopSteps[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
constexpr int kRookSteps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

Bitboard slideAttacks(Square s, Bitboard occ, const int (&steps)[4][2]) {
    Bitboard result = 0;
    for (const auto& step : steps) {
        int file = fileOf(s) + step[0], rank = rankOf(s) + step[1];
        while (file >= 0 && file < 8 && rank >= 0 && rank < 8) {
            Square t = makeSquare(file, rank);
            result |= squareBB(t);
            if (occ & squareBB(t)) break;
            file += step[0];
            rank += step[1];
        }
    }
    return result;
}

Bitboard leaperAttacks(Square s, const int (*steps)[2], int count) {
    Bitboard result = 0;
    for (int i = 0; i < count; ++i) {
        int file = fileOf(s) + steps[i][0], rank = rankOf(s) + steps[i][1];
        if (file >= 0 && file < 8 && rank >= 0 && rank < 8)
            result |= squareBB(makeSquare(file, rank));
    }
    return result;
}

// Fills one slider's entries: relevant masks, attack sets, and for each square a magic that
// maps every occupancy subset without a harmful collision. The stored magic is tried first; the
// seeded search behind it only runs if a stored one ever fails verification.
void initSlider(detail::SliderEntry* entries, Bitboard* magicTable, Bitboard* pextTable,
                const int (&steps)[4][2], const Bitboard* knownMagics) {
    static Bitboard occupancies[4096], references[4096];
    static int epoch[4096];
    std::fill(std::begin(epoch), std::end(epoch), 0);
    util::Prng prng(0xA70E5EEDULL);
    int offset = 0, attempt = 0;
    for (Square s = A1; s < NoSquare; ++s) {
        // Edges never block, except the edge the slider stands on.
        const Bitboard edges =
            ((kRank1 | kRank8) & ~rankBB(rankOf(s))) | ((kFileA | kFileH) & ~fileBB(fileOf(s)));
        detail::SliderEntry& e = entries[s];
        e.mask = slideAttacks(s, 0, steps) & ~edges;
        e.shift = unsigned(64 - popcount(e.mask));
        e.magicAttacks = magicTable + offset;
        e.pextAttacks = pextTable ? pextTable + offset : nullptr;

        // Enumerate all subsets of the mask (Carry-Rippler).
        int size = 0;
        Bitboard subset = 0;
        do {
            occupancies[size] = subset;
            references[size] = slideAttacks(s, subset, steps);
#if AXON_USE_PEXT
            pextTable[offset + int(_pext_u64(subset, e.mask))] = references[size];
#endif
            ++size;
            subset = (subset - e.mask) & e.mask;
        } while (subset);

        for (int tries = 0;; ++tries) {
            if (tries == 0) {
                e.magic = knownMagics[s];
            } else {
                do {
                    e.magic = prng.sparse();
                } while (popcount((e.mask * e.magic) >> 56) < 6);
            }
            // `epoch` marks which slots this attempt has filled, so the table needs no clearing.
            ++attempt;
            bool fits = true;
            for (int i = 0; i < size && fits; ++i) {
                const unsigned idx = unsigned(((occupancies[i] & e.mask) * e.magic) >> e.shift);
                if (epoch[idx] < attempt) {
                    epoch[idx] = attempt;
                    e.magicAttacks[idx] = references[i];
                } else if (e.magicAttacks[idx] != references[i]) {
                    fits = false;
                }
            }
            if (fits) break;
        }
        offset += size;
    }
}

struct StaticInit {
    StaticInit() { initAttacks(); }
} staticInit;

} // namespace

Bitboard slowBishopAttacks(Square s, Bitboard occ) { return slideAttacks(s, occ, kBishopSteps); }
Bitboard slowRookAttacks(Square s, Bitboard occ) { return slideAttacks(s, occ, kRookSteps); }

void initAttacks() {
    static bool done = false;
    if (done) return;
    done = true;

    constexpr int knightSteps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                       {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    constexpr int kingSteps[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                     {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    constexpr int whitePawnSteps[2][2] = {{-1, 1}, {1, 1}};
    constexpr int blackPawnSteps[2][2] = {{-1, -1}, {1, -1}};
    for (Square s = A1; s < NoSquare; ++s) {
        detail::knightAttacks[s] = leaperAttacks(s, knightSteps, 8);
        detail::kingAttacks[s] = leaperAttacks(s, kingSteps, 8);
        detail::pawnAttacks[White][s] = leaperAttacks(s, whitePawnSteps, 2);
        detail::pawnAttacks[Black][s] = leaperAttacks(s, blackPawnSteps, 2);
    }

#if AXON_USE_PEXT
    initSlider(detail::bishopEntries, bishopMagicTable, bishopPextTable, kBishopSteps,
               detail::kBishopMagics);
    initSlider(detail::rookEntries, rookMagicTable, rookPextTable, kRookSteps, detail::kRookMagics);
#else
    initSlider(detail::bishopEntries, bishopMagicTable, nullptr, kBishopSteps,
               detail::kBishopMagics);
    initSlider(detail::rookEntries, rookMagicTable, nullptr, kRookSteps, detail::kRookMagics);
#endif

    for (Square a = A1; a < NoSquare; ++a) {
        for (Square b = A1; b < NoSquare; ++b) {
            detail::between[a][b] = detail::line[a][b] = 0;
            if (a == b) continue;
            const Bitboard bb = squareBB(b);
            if (slowBishopAttacks(a, 0) & bb) {
                detail::line[a][b] =
                    (slowBishopAttacks(a, 0) & slowBishopAttacks(b, 0)) | squareBB(a) | bb;
                detail::between[a][b] =
                    slowBishopAttacks(a, bb) & slowBishopAttacks(b, squareBB(a));
            } else if (slowRookAttacks(a, 0) & bb) {
                detail::line[a][b] =
                    (slowRookAttacks(a, 0) & slowRookAttacks(b, 0)) | squareBB(a) | bb;
                detail::between[a][b] = slowRookAttacks(a, bb) & slowRookAttacks(b, squareBB(a));
            }
        }
    }
}

} // namespace axon::chess

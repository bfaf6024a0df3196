// SPDX-License-Identifier: GPL-3.0-or-later
// Move-ordering statistics learned during search: butterfly, capture and continuation
// histories, killers and counter moves. Each table is a named type.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "chess/position.h"

namespace axon::search {

// Gravity update: large bonuses saturate towards ±Max so old information fades.
template <int Max>
inline void applyBonus(std::int16_t& entry, int bonus) {
    const int clamped = bonus < -Max ? -Max : bonus > Max ? Max : bonus;
    entry = std::int16_t(entry + clamped - entry * std::abs(clamped) / Max);
}

constexpr int kHistoryMax = 16384;

// Quiet moves by side, from/to squares, and whether the opponent attacks the from and the to
// square (`attacked`: every square the side not to move attacks, Threats::all): a piece
// leaving an attacked square and one stepping onto one learn apart, as in Stormphrax.
struct ButterflyHistory {
    static constexpr int kBuckets = 4;
    std::int16_t table[chess::kNumColors][kBuckets][chess::kNumSquares * chess::kNumSquares];

    static int bucket(chess::Bitboard attacked, chess::Move m) {
        return 2 * ((attacked & chess::squareBB(m.from())) != 0) +
               ((attacked & chess::squareBB(m.to())) != 0);
    }
    std::int16_t& at(chess::Color c, chess::Bitboard attacked, chess::Move m) {
        return table[c][bucket(attacked, m)][m.raw() & 4095];
    }
    int get(chess::Color c, chess::Bitboard attacked, chess::Move m) const {
        return table[c][bucket(attacked, m)][m.raw() & 4095];
    }
};

// Captures by moving piece, target square and captured piece type.
struct CaptureHistory {
    std::int16_t table[chess::kNumPieces][chess::kNumSquares][chess::kNumPieceTypes];
    std::int16_t& at(chess::Piece p, chess::Square to, chess::PieceType captured) {
        return table[p][to][captured];
    }
};

// How good a (piece, to) move was after a given earlier (piece, to) move.
using PieceToHistory = std::array<std::array<std::int16_t, chess::kNumSquares>, chess::kNumPieces>;
struct ContinuationHistory {
    PieceToHistory table[chess::kNumPieces][chess::kNumSquares];
    PieceToHistory& at(chess::Piece p, chess::Square to) { return table[p][to]; }
};

struct CounterMoves {
    chess::Move table[chess::kNumPieces][chess::kNumSquares];
};

template <typename T>
void clearTable(T& t) {
    std::memset(static_cast<void*>(&t), 0, sizeof(T));
}

} // namespace axon::search

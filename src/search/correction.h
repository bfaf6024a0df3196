// SPDX-License-Identifier: GPL-3.0-or-later
// Correction history: how far the search's results have strayed from the static evaluation in
// positions with the same pawn structure, or the same non-pawn pieces of one side. The search
// adds the learnt error to the network's score before pruning on it, so an evaluation that is
// systematically wrong about a structure (a blocked position, a passer it underrates) is fixed
// within the game.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "chess/position.h"
#include "search/params.h"

namespace axon::search {

class CorrectionHistory {
  public:
    // Entries hold the error in 1/kGrain centipawns, so small steps accumulate.
    static constexpr int kGrain = 256;
    static constexpr int kSize = 16384; // per table and side to move
    static constexpr int kMax = 64 * kGrain;

    // In place: `*this = CorrectionHistory{}` builds the 192 KiB table on the caller's stack
    // first (unoptimized builds do), which overflows a small one such as a web server thread's.
    void clear() {
        std::memset(m_pawn, 0, sizeof(m_pawn));
        std::memset(m_nonPawn, 0, sizeof(m_nonPawn));
    }

    // The centipawns to add to the static evaluation of `pos` (side to move's view).
    int correction(const chess::Position& pos) const {
        const chess::Color us = pos.sideToMove();
        const int pawn = m_pawn[us][index(pos.pawnKey())];
        const int nonPawn = m_nonPawn[us][chess::White][index(pos.nonPawnKey(chess::White))] +
                            m_nonPawn[us][chess::Black][index(pos.nonPawnKey(chess::Black))];
        return (pawn * params::correctionPawnWeight + nonPawn * params::correctionNonPawnWeight) /
               (100 * kGrain);
    }

    // Moves every table towards `error` (search score less raw static eval), faster for deeper
    // searches, whose scores are worth more.
    void update(const chess::Position& pos, int error, int depth) {
        const chess::Color us = pos.sideToMove();
        const int weight = std::min(depth + 1, 16);
        const int target = std::clamp(error * kGrain, -kMax, kMax);
        auto move = [&](std::int16_t& entry) {
            entry = std::int16_t((entry * (256 - weight) + target * weight) / 256);
        };
        move(m_pawn[us][index(pos.pawnKey())]);
        move(m_nonPawn[us][chess::White][index(pos.nonPawnKey(chess::White))]);
        move(m_nonPawn[us][chess::Black][index(pos.nonPawnKey(chess::Black))]);
    }

  private:
    static std::size_t index(chess::Key key) { return std::size_t(key % kSize); }

    std::int16_t m_pawn[chess::kNumColors][kSize] = {};
    std::int16_t m_nonPawn[chess::kNumColors][chess::kNumColors][kSize] = {};
};

} // namespace axon::search

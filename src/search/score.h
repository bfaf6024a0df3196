// SPDX-License-Identifier: GPL-3.0-or-later
// Search score conventions: centipawns, mate scores counted from the root, and their
// conversion for storage in the transposition table.
#pragma once

#include "chess/types.h"

namespace axon::search {

constexpr int kScoreInfinite = 32000;
constexpr int kScoreMate = 31000;
constexpr int kScoreMateInMaxPly = kScoreMate - chess::kMaxPly;
constexpr int kScoreDraw = 0;
constexpr int kScoreNone = 32001;

constexpr int mateIn(int ply) { return kScoreMate - ply; }
constexpr int matedIn(int ply) { return -kScoreMate + ply; }
constexpr bool isMateScore(int score) {
    return score >= kScoreMateInMaxPly || score <= -kScoreMateInMaxPly;
}

// The table stores mate scores relative to the node, so they stay right when the same position
// is reached at another ply.
constexpr int scoreToTT(int score, int ply) {
    return score >= kScoreMateInMaxPly    ? score + ply
           : score <= -kScoreMateInMaxPly ? score - ply
                                          : score;
}
constexpr int scoreFromTT(int score, int ply) {
    if (score == kScoreNone) return score;
    return score >= kScoreMateInMaxPly    ? score - ply
           : score <= -kScoreMateInMaxPly ? score + ply
                                          : score;
}

// Moves to mate for UCI ("mate N"), positive when the side to move mates.
constexpr int mateDistance(int score) {
    return score > 0 ? (kScoreMate - score + 1) / 2 : -(kScoreMate + score) / 2;
}

} // namespace axon::search

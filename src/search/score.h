// SPDX-License-Identifier: GPL-3.0-or-later
// Search score conventions: centipawns, mate scores counted from the root, tablebase wins
// just below the mates (won, but not yet a mate the search has seen), and their conversion for
// storage in the transposition table.
#pragma once

#include "chess/types.h"

namespace axon::search {

constexpr int kScoreInfinite = 32000;
constexpr int kScoreMate = 31000;
constexpr int kScoreMateInMaxPly = kScoreMate - chess::kMaxPly;
// A tablebase win kScoreTbWin - ply: above every evaluation, below every mate.
constexpr int kScoreTbWin = kScoreMateInMaxPly - 1;
constexpr int kScoreTbWinInMaxPly = kScoreTbWin - chess::kMaxPly;
constexpr int kScoreDraw = 0;
constexpr int kScoreNone = 32001;

constexpr int mateIn(int ply) { return kScoreMate - ply; }
constexpr int matedIn(int ply) { return -kScoreMate + ply; }
constexpr bool isMateScore(int score) {
    return score >= kScoreMateInMaxPly || score <= -kScoreMateInMaxPly;
}

// A tablebase result's score (not a mate).
constexpr bool isTbScore(int score) {
    return !isMateScore(score) && (score >= kScoreTbWinInMaxPly || score <= -kScoreTbWinInMaxPly);
}
// A mate or a tablebase result: no evaluation, nothing a margin applies to.
constexpr bool isDecisiveScore(int score) {
    return score >= kScoreTbWinInMaxPly || score <= -kScoreTbWinInMaxPly;
}

// The table stores mate and tablebase scores relative to the node, so they stay right when the
// same position is reached at another ply.
constexpr int scoreToTT(int score, int ply) {
    return score >= kScoreTbWinInMaxPly    ? score + ply
           : score <= -kScoreTbWinInMaxPly ? score - ply
                                           : score;
}
constexpr int scoreFromTT(int score, int ply) {
    if (score == kScoreNone) return score;
    return score >= kScoreTbWinInMaxPly    ? score - ply
           : score <= -kScoreTbWinInMaxPly ? score + ply
                                           : score;
}

// A tablebase score as UCI shows it, in centipawns as Stockfish prints them: 20000 less the
// plies to the position the tables decided.
constexpr int tbDisplayScore(int score) {
    return score > 0 ? 20000 - (kScoreTbWin - score) : -20000 + (kScoreTbWin + score);
}

// Moves to mate for UCI ("mate N"), positive when the side to move mates.
constexpr int mateDistance(int score) {
    return score > 0 ? (kScoreMate - score + 1) / 2 : -(kScoreMate + score) / 2;
}

} // namespace axon::search

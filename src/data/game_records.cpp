// SPDX-License-Identifier: GPL-3.0-or-later
// Training records from a game, with datagen's position filters.
#include "data/game_records.h"

namespace axon::data {

SkipReason plySkipReason(const chess::Position& pos, const GamePly& ply, std::size_t index,
                         const PositionFilter& filter) {
    if (ply.score == kNoPlyScore) return SkipReason::Decided;
    // The start position follows the opening, so the opening's plies count as zero here.
    return skipReason(pos, ply.move, ply.score, int(std::min<std::size_t>(index, 1 << 20)), 0,
                      filter);
}

void appendGameRecords(const Game& game, std::vector<TrainingRecord>& out, SkipCounts& counts,
                       const PositionFilter& filter) {
    forEachPosition(game, [&](const chess::Position& pos, const GamePly& ply, std::size_t index) {
        const SkipReason skip = plySkipReason(pos, ply, index, filter);
        ++counts[int(skip)];
        if (skip != SkipReason::None) return;
        const double whiteScore = game.whiteResult == GameResult::Win    ? 1.0
                                  : game.whiteResult == GameResult::Loss ? 0.0
                                                                         : 0.5;
        out.push_back(makeRecord(pos, ply.score, resultFor(pos.sideToMove(), whiteScore), ply.move,
                                 pos.gamePly()));
    });
}

} // namespace axon::data

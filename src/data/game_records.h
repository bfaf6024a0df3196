// SPDX-License-Identifier: GPL-3.0-or-later
// A game's positions as training records, filtered as `axon datagen` filters the positions it
// records (data::skipReason): the one place that decides which plies of a game are trained on,
// shared by datagen, `axon convert --from games` and `axon data`.
#pragma once

#include <cstdint>
#include <vector>

#include "data/datagen.h"
#include "data/game_format.h"

namespace axon::data {

// Plies counted by SkipReason, recorded ones under SkipReason::None.
using SkipCounts = std::uint64_t[5];

// Why the ply at `index` of a game is not trained on (SkipReason::None: it is). The game's
// start position is where its searched moves begin (after any book line and random plies), so
// `index` is the plies played since the opening; a ply without a score counts as decided.
SkipReason plySkipReason(const chess::Position& pos, const GamePly& ply, std::size_t index,
                         const PositionFilter& filter = {});

// Appends a record for every ply that passes the filters (the position before the move, its
// score, the move as best move, the game's result from that side's view, the game ply) and
// counts each ply in `counts`.
void appendGameRecords(const Game& game, std::vector<TrainingRecord>& out, SkipCounts& counts,
                       const PositionFilter& filter = {});

} // namespace axon::data

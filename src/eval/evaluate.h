// SPDX-License-Identifier: GPL-3.0-or-later
// The evaluation interface the search calls: a score in centipawns from the side to move's view.
// The hand-written tapered evaluation stands behind it until the network takes its place.
#pragma once

#include <string>

#include "chess/position.h"

namespace axon::eval {

using Score = int;

// Static evaluation from the side to move's point of view, in centipawns.
Score evaluate(const chess::Position& pos);

// A human-readable breakdown of the evaluation (for the UCI `eval` command).
std::string explain(const chess::Position& pos);

} // namespace axon::eval

// SPDX-License-Identifier: GPL-3.0-or-later
// Cuckoo tables of reversible moves, for detecting that a position can repeat an earlier one
// with a single move (Marcel van Kervinck's method): every non-pawn move between two squares on
// an empty board is stored by the XOR of the position keys it changes, so a key difference
// found in the game's history names the move that would close the cycle.
#pragma once

#include <cstdint>
#include <optional>

#include "chess/types.h"

namespace axon::chess::cuckoo {

// The reversible move (its two squares, either order) whose key difference is `keyDiff`, if any.
// Colour, piece and the side-to-move key are part of the difference.
struct Entry {
    Square a, b;
};
std::optional<Entry> find(Key keyDiff);

// How many moves the tables hold (3,668 for chess: knights, bishops, rooks, queens and kings
// of both colours), for tests.
int size();

} // namespace axon::chess::cuckoo

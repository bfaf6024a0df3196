// SPDX-License-Identifier: GPL-3.0-or-later
// Material signatures: which table holds a position. A key packs both sides' counts of pawns to
// queens (4 bits each); a table's name ("KQRvKP") spells the same counts, the first part being
// the side the file calls white.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "chess/position.h"

namespace axon::tablebase {

using MaterialKey = std::uint64_t;

// Counts of pawns, knights, bishops, rooks and queens per colour (kings are always one each).
struct Material {
    int count[chess::kNumColors][5] = {};

    MaterialKey key() const;
    // The same material with the colours exchanged.
    Material swapped() const;
    int pieceCount() const; // kings included
    int pawns(chess::Color c) const { return count[c][chess::Pawn]; }
    // "KQRvKP": each side's king, then its pieces from queen down to pawn.
    std::string name() const;
};

Material materialOf(const chess::Position& pos);
inline MaterialKey materialKey(const chess::Position& pos) { return materialOf(pos).key(); }

// Parses a table name as in a file name ("KRPvKR"); nothing for anything else.
std::optional<Material> parseTableName(std::string_view name);

} // namespace axon::tablebase

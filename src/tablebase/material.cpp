// SPDX-License-Identifier: GPL-3.0-or-later
#include "tablebase/material.h"

namespace axon::tablebase {

using namespace chess;

namespace {
constexpr char kLetters[5] = {'P', 'N', 'B', 'R', 'Q'};
} // namespace

MaterialKey Material::key() const {
    MaterialKey k = 0;
    for (int c = 0; c < kNumColors; ++c)
        for (int t = 0; t < 5; ++t) k |= MaterialKey(count[c][t] & 15) << (4 * (5 * c + t));
    return k;
}

Material Material::swapped() const {
    Material m;
    for (int t = 0; t < 5; ++t) {
        m.count[White][t] = count[Black][t];
        m.count[Black][t] = count[White][t];
    }
    return m;
}

int Material::pieceCount() const {
    int n = 2;
    for (int c = 0; c < kNumColors; ++c)
        for (int t = 0; t < 5; ++t) n += count[c][t];
    return n;
}

std::string Material::name() const {
    std::string s;
    for (int c = 0; c < kNumColors; ++c) {
        if (c == Black) s += 'v';
        s += 'K';
        for (int t = 4; t >= 0; --t) s.append(std::size_t(count[c][t]), kLetters[t]);
    }
    return s;
}

Material materialOf(const Position& pos) {
    Material m;
    for (Color c : {White, Black})
        for (int t = Pawn; t <= Queen; ++t) m.count[c][t] = pos.count(c, PieceType(t));
    return m;
}

std::optional<Material> parseTableName(std::string_view name) {
    Material m;
    int side = -1;
    for (char ch : name) {
        if (ch == 'K') {
            if (++side > 1) return std::nullopt;
            continue;
        }
        if (ch == 'v') {
            if (side != 0) return std::nullopt;
            continue;
        }
        if (side < 0) return std::nullopt;
        int type = -1;
        for (int t = 0; t < 5; ++t)
            if (kLetters[t] == ch) type = t;
        if (type < 0 || ++m.count[side][type] > 8) return std::nullopt;
    }
    // Exactly "K...vK...": two kings, and the 'v' between them.
    if (side != 1 || name.find('v') == std::string_view::npos || name.find("vK") == name.npos)
        return std::nullopt;
    if (m.name() != name) return std::nullopt; // pieces out of order, or 'v' misplaced
    return m;
}

} // namespace axon::tablebase

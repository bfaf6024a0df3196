// SPDX-License-Identifier: GPL-3.0-or-later
// Debug rendering of bitboards.
#include "chess/bitboard.h"

namespace axon::chess {

std::string toString(Bitboard b) {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        for (int file = 0; file < 8; ++file) {
            out += (b & squareBB(makeSquare(file, rank))) ? 'X' : '.';
            out += file == 7 ? '\n' : ' ';
        }
    }
    return out;
}

} // namespace axon::chess

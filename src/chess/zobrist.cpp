// SPDX-License-Identifier: GPL-3.0-or-later
// Fills the Zobrist keys from a fixed seed, so keys are identical on every build and run.
#include "chess/zobrist.h"

#include "util/prng.h"

namespace axon::chess::zobrist {

Key pieceSquare[kNumPieces][kNumSquares];
Key castling[kNumCastlingRights];
Key enPassantFile[8];
Key sideToMove;

void init() {
    util::Prng prng(0x5EED0F2A7B1DULL);
    for (auto& perPiece : pieceSquare)
        for (Key& k : perPiece) k = prng.next();
    // Each right has its own key; a set of rights hashes to the XOR of its members, which lets
    // make() update the key with one XOR of old and new rights.
    Key single[4];
    for (Key& k : single) k = prng.next();
    for (int rights = 0; rights < kNumCastlingRights; ++rights) {
        castling[rights] = 0;
        for (int i = 0; i < 4; ++i)
            if (rights & (1 << i)) castling[rights] ^= single[i];
    }
    for (Key& k : enPassantFile) k = prng.next();
    sideToMove = prng.next();
}

namespace {
struct StaticInit {
    StaticInit() { init(); }
} staticInit;
} // namespace

} // namespace axon::chess::zobrist

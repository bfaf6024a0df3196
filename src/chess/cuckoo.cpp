// SPDX-License-Identifier: GPL-3.0-or-later
// Builds the cuckoo tables once, on first use (after the attack and Zobrist tables exist).
#include "chess/cuckoo.h"

#include <array>
#include <utility>

#include "chess/attacks.h"
#include "chess/zobrist.h"

namespace axon::chess::cuckoo {

namespace {

constexpr int kTableSize = 8192;
std::size_t hash1(Key k) { return std::size_t(k & (kTableSize - 1)); }
std::size_t hash2(Key k) { return std::size_t((k >> 16) & (kTableSize - 1)); }

struct Tables {
    std::array<Key, kTableSize> keys{};
    std::array<Entry, kTableSize> moves{};
    int count = 0;

    Tables() {
        for (Piece piece = Piece(0); piece < kNumPieces; piece = Piece(piece + 1)) {
            const PieceType type = typeOf(piece);
            if (type == Pawn) continue;
            for (Square a = A1; a < NoSquare; ++a)
                for (Square b = Square(a + 1); b < NoSquare; ++b) {
                    if (!(attacks(type, a, 0) & squareBB(b))) continue;
                    Key key = zobrist::pieceSquare[piece][a] ^ zobrist::pieceSquare[piece][b] ^
                              zobrist::sideToMove;
                    Entry move{a, b};
                    // Cuckoo insertion: each key lives in one of its two slots; a newcomer
                    // evicts the occupant, which moves to its other slot, until one is empty.
                    std::size_t slot = hash1(key);
                    while (true) {
                        std::swap(keys[slot], key);
                        std::swap(moves[slot], move);
                        if (!key) break;
                        slot = slot == hash1(key) ? hash2(key) : hash1(key);
                    }
                    ++count;
                }
        }
    }
};

const Tables& tables() {
    static const Tables instance;
    return instance;
}

} // namespace

std::optional<Entry> find(Key keyDiff) {
    const Tables& t = tables();
    if (t.keys[hash1(keyDiff)] == keyDiff) return t.moves[hash1(keyDiff)];
    if (t.keys[hash2(keyDiff)] == keyDiff) return t.moves[hash2(keyDiff)];
    return std::nullopt;
}

int size() { return tables().count; }

} // namespace axon::chess::cuckoo

// SPDX-License-Identifier: GPL-3.0-or-later
// Chess960 start positions by number.
#include "chess/chess960.h"

#include "chess/fen.h"

#include <utility>

namespace axon::chess {

namespace {
// The knights' two squares among the five left, for each value 0..9 of the numbering.
constexpr std::pair<int, int> kKnightPlaces[10] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                                   {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};

// The n-th file (from the a-file) not yet taken.
int nthEmpty(const std::array<PieceType, 8>& rank, int n) {
    for (int file = 0; file < 8; ++file)
        if (rank[file] == NoPieceType && n-- == 0) return file;
    return -1; // not reached: the callers ask for at most the number of files left
}
} // namespace

std::array<PieceType, 8> chess960BackRank(int n) {
    n = ((n % kChess960Positions) + kChess960Positions) % kChess960Positions;
    std::array<PieceType, 8> rank;
    rank.fill(NoPieceType);
    rank[2 * (n % 4) + 1] = Bishop; // the light-squared bishop: b, d, f or h
    n /= 4;
    rank[2 * (n % 4)] = Bishop; // the dark-squared one: a, c, e or g
    n /= 4;
    rank[nthEmpty(rank, n % 6)] = Queen;
    n /= 6;
    const auto [first, second] = kKnightPlaces[n];
    // Both indices count the five files left before either knight is placed.
    const int firstFile = nthEmpty(rank, first), secondFile = nthEmpty(rank, second);
    rank[firstFile] = rank[secondFile] = Knight;
    // The three files left: rook, king, rook.
    rank[nthEmpty(rank, 0)] = Rook;
    rank[nthEmpty(rank, 0)] = King;
    rank[nthEmpty(rank, 0)] = Rook;
    return rank;
}

std::string doubleChess960Fen(int white, int black) {
    const auto whiteRank = chess960BackRank(white), blackRank = chess960BackRank(black);
    std::string fen;
    for (PieceType t : blackRank) fen += pieceChar(makePiece(Black, t));
    fen += "/pppppppp/8/8/8/8/PPPPPPPP/";
    for (PieceType t : whiteRank) fen += pieceChar(makePiece(White, t));
    // Shredder-FEN: each right names its rook's file, the king side first.
    std::string castling;
    for (const auto& [rank, base] : {std::pair{whiteRank, 'A'}, std::pair{blackRank, 'a'}})
        for (int file = 7; file >= 0; --file)
            if (rank[file] == Rook) castling += char(base + file);
    return fen + " w " + castling + " - 0 1";
}

} // namespace axon::chess

// SPDX-License-Identifier: GPL-3.0-or-later
// Basic chess vocabulary: colours, pieces, squares, castling rights and the 16-bit move.
#pragma once

#include <cstdint>

namespace axon::chess {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

enum Color : std::uint8_t { White, Black };
constexpr int kNumColors = 2;
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t { Pawn, Knight, Bishop, Rook, Queen, King, NoPieceType };
constexpr int kNumPieceTypes = 6;

// Pieces are numbered type + 6 * colour so that (colour, type) tables index densely.
enum Piece : std::uint8_t {
    WhitePawn,
    WhiteKnight,
    WhiteBishop,
    WhiteRook,
    WhiteQueen,
    WhiteKing,
    BlackPawn,
    BlackKnight,
    BlackBishop,
    BlackRook,
    BlackQueen,
    BlackKing,
    NoPiece
};
constexpr int kNumPieces = 12;

constexpr Piece makePiece(Color c, PieceType pt) { return Piece(pt + 6 * c); }
// NoPiece maps to NoPieceType, so a test on an empty square's type is never mistaken for a pawn.
constexpr PieceType typeOf(Piece p) { return p == NoPiece ? NoPieceType : PieceType(p % 6); }
constexpr Color colorOf(Piece p) { return Color(p >= BlackPawn); }

// clang-format off
enum Square : std::uint8_t {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
    NoSquare
};
// clang-format on
constexpr int kNumSquares = 64;

constexpr Square makeSquare(int file, int rank) { return Square(rank * 8 + file); }
constexpr int fileOf(Square s) { return s & 7; }
constexpr int rankOf(Square s) { return s >> 3; }
constexpr Square operator+(Square s, int d) { return Square(int(s) + d); }
constexpr Square operator-(Square s, int d) { return Square(int(s) - d); }
constexpr Square& operator++(Square& s) { return s = Square(s + 1); }
// The square as seen by `c`: ranks flipped for Black.
constexpr Square relative(Color c, Square s) { return Square(s ^ (c * 56)); }
constexpr int relativeRank(Color c, Square s) { return rankOf(s) ^ (c * 7); }
constexpr Square flipRank(Square s) { return Square(s ^ 56); }
constexpr int pawnPush(Color c) { return c == White ? 8 : -8; }
constexpr bool isValid(Square s) { return s < NoSquare; }

// One bit per castling right.
enum CastlingRights : std::uint8_t {
    NoCastling = 0,
    WhiteKingSide = 1,
    WhiteQueenSide = 2,
    BlackKingSide = 4,
    BlackQueenSide = 8,
    AllCastling = 15
};
constexpr int kNumCastlingRights = 16;
constexpr CastlingRights castlingRight(Color c, bool kingSide) {
    return CastlingRights(kingSide ? (c == White ? WhiteKingSide : BlackKingSide)
                                   : (c == White ? WhiteQueenSide : BlackQueenSide));
}
// Index 0..3 of a single right, for per-right tables.
constexpr int castlingIndex(CastlingRights r) {
    return r == WhiteKingSide ? 0 : r == WhiteQueenSide ? 1 : r == BlackKingSide ? 2 : 3;
}

enum class MoveType : std::uint8_t { Normal, Promotion, EnPassant, Castling };

// A move in 16 bits: from (6), to (6), promotion piece minus knight (2), type (2).
// Castling is encoded as the king capturing its own rook, which covers Chess960 uniformly.
class Move {
  public:
    constexpr Move() = default;
    constexpr explicit Move(std::uint16_t raw) : m_raw(raw) {}
    constexpr Move(Square from, Square to, MoveType type = MoveType::Normal,
                   PieceType promo = Knight)
        : m_raw(std::uint16_t(from | (to << 6) | ((promo - Knight) << 12) | (int(type) << 14))) {}

    static constexpr Move none() { return Move(); }
    // A distinct non-move for null-move search; from == to keeps it unequal to every real move.
    static constexpr Move null() { return Move(std::uint16_t(65)); }

    constexpr Square from() const { return Square(m_raw & 63); }
    constexpr Square to() const { return Square((m_raw >> 6) & 63); }
    constexpr MoveType type() const { return MoveType(m_raw >> 14); }
    constexpr PieceType promotion() const { return PieceType(((m_raw >> 12) & 3) + Knight); }
    constexpr std::uint16_t raw() const { return m_raw; }
    constexpr bool isOk() const { return from() != to(); }
    constexpr explicit operator bool() const { return m_raw != 0; }
    constexpr bool operator==(const Move&) const = default;

  private:
    std::uint16_t m_raw = 0;
};

constexpr int kMaxMoves = 256;
constexpr int kMaxPly = 246;

} // namespace axon::chess

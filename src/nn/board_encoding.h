// SPDX-License-Identifier: GPL-3.0-or-later
// Plain board encodings for float models trained elsewhere (docs/float-nets.md has the exact
// layouts): planes of 64 squares (a1 = 0 .. h8 = 63, index plane * 64 + square, which is
// PyTorch's [planes, 8, 8] with rows as ranks), then a few scalar features.
//   onehot768+     : 12 piece planes (White P N B R Q K, then Black), side to move, 4 castling
//                    rights = 773 inputs
//   planes8x8x14+6 : the 12 piece planes, squares attacked by White, by Black, then side to
//                    move, 4 castling rights, en passant capture possible = 902 inputs
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "chess/position.h"

namespace axon::nn {

enum class BoardEncoding : std::uint8_t { OneHot768Plus, Planes14Plus6 };

// Scalar features, in this order after the planes.
enum EncodingScalar : int {
    kScalarWhiteToMove = 0,
    kScalarWhiteKingSide,
    kScalarWhiteQueenSide,
    kScalarBlackKingSide,
    kScalarBlackQueenSide,
    kScalarEnPassant, // planes8x8x14+6 only
};

struct EncodingShape {
    int planes = 0;
    int scalars = 0;
    int planeValues() const { return planes * chess::kNumSquares; }
    int size() const { return planeValues() + scalars; }
};

constexpr int kPiecePlanes = chess::kNumPieces;
constexpr int kWhiteAttackPlane = kPiecePlanes;
constexpr int kBlackAttackPlane = kPiecePlanes + 1;

EncodingShape encodingShape(BoardEncoding e);
std::string_view encodingName(BoardEncoding e);
std::optional<BoardEncoding> parseEncoding(std::string_view name);

// Writes encodingShape(e).size() values (0 or 1) into `out`, which must be at least that long.
void encodeBoard(BoardEncoding e, const chess::Position& pos, std::span<float> out);

} // namespace axon::nn

// SPDX-License-Identifier: GPL-3.0-or-later
// The plain board encodings: piece planes, attack planes and scalar features.
#include "nn/board_encoding.h"

#include <algorithm>

#include "chess/attacks.h"
#include "chess/movegen.h"

namespace axon::nn {

using namespace chess;

namespace {

void setPlane(float* plane, Bitboard b) {
    for (; b; b &= b - 1) plane[lsb(b)] = 1.0f;
}

} // namespace

EncodingShape encodingShape(BoardEncoding e) {
    return e == BoardEncoding::OneHot768Plus ? EncodingShape{kPiecePlanes, 5}
                                             : EncodingShape{kPiecePlanes + 2, 6};
}

std::string_view encodingName(BoardEncoding e) {
    return e == BoardEncoding::OneHot768Plus ? "onehot768+" : "planes8x8x14+6";
}

std::optional<BoardEncoding> parseEncoding(std::string_view name) {
    for (BoardEncoding e : {BoardEncoding::OneHot768Plus, BoardEncoding::Planes14Plus6})
        if (encodingName(e) == name) return e;
    return std::nullopt;
}

void encodeBoard(BoardEncoding e, const Position& pos, std::span<float> out) {
    const EncodingShape shape = encodingShape(e);
    std::fill_n(out.begin(), shape.size(), 0.0f);
    float* planes = out.data();
    for (Bitboard b = pos.pieces(); b; b &= b - 1) {
        const Square s = lsb(b);
        planes[int(pos.pieceOn(s)) * kNumSquares + s] = 1.0f;
    }
    if (e == BoardEncoding::Planes14Plus6) {
        setPlane(planes + kWhiteAttackPlane * kNumSquares, attackedBy(pos, White));
        setPlane(planes + kBlackAttackPlane * kNumSquares, attackedBy(pos, Black));
    }
    float* scalars = out.data() + shape.planeValues();
    scalars[kScalarWhiteToMove] = pos.sideToMove() == White ? 1.0f : 0.0f;
    scalars[kScalarWhiteKingSide] = pos.canCastle(WhiteKingSide) ? 1.0f : 0.0f;
    scalars[kScalarWhiteQueenSide] = pos.canCastle(WhiteQueenSide) ? 1.0f : 0.0f;
    scalars[kScalarBlackKingSide] = pos.canCastle(BlackKingSide) ? 1.0f : 0.0f;
    scalars[kScalarBlackQueenSide] = pos.canCastle(BlackQueenSide) ? 1.0f : 0.0f;
    // The position keeps an en-passant square only when a legal capture there exists.
    if (e == BoardEncoding::Planes14Plus6)
        scalars[kScalarEnPassant] = pos.epSquare() != NoSquare ? 1.0f : 0.0f;
}

} // namespace axon::nn

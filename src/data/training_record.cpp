// SPDX-License-Identifier: GPL-3.0-or-later
// Packing positions into training records and checking records read from files.
#include "data/training_record.h"

#include <algorithm>

namespace axon::data {

using namespace chess;

namespace {

// The outermost rook of colour c on its back rank on one side of its king, or NoSquare.
Square outermostRook(const Position& pos, Color c, bool kingSide) {
    const Square king = pos.kingSquare(c);
    const int rank = c == White ? 0 : 7;
    if (int(king) / 8 != rank) return NoSquare;
    const Piece rook = makePiece(c, Rook);
    for (int f = kingSide ? 7 : 0; kingSide ? f > int(king) % 8 : f < int(king) % 8;
         f += kingSide ? -1 : 1)
        if (pos.pieceOn(Square(rank * 8 + f)) == rook) return Square(rank * 8 + f);
    return NoSquare;
}

// The position's castling rights that a record can hold: those whose rook is the outermost one
// on its side of the king, as KQkq means in X-FEN (always so in standard chess).
std::uint8_t recordedCastling(const Position& pos) {
    std::uint8_t rights = 0;
    for (Color c : {White, Black})
        for (bool kingSide : {true, false}) {
            const CastlingRights r = castlingRight(c, kingSide);
            if (pos.canCastle(r) && pos.castlingRookSquare(r) == outermostRook(pos, c, kingSide))
                rights |= r;
        }
    return rights;
}

// The castling rights the record's board allows: for each colour and side, the king on its back
// rank with a rook of its colour beyond it on that side. One pass over the pieces.
CastlingRights possibleCastling(const TrainingRecord& rec) {
    int kingFile[2] = {-1, -1};
    unsigned rookFiles[2] = {0, 0}; // bit f: a rook of that colour on file f of its back rank
    rec.forEachPiece([&](Square s, Piece p) {
        const Color c = colorOf(p);
        if (int(s) / 8 != (c == White ? 0 : 7)) return;
        if (typeOf(p) == King) kingFile[c] = int(s) % 8;
        if (typeOf(p) == Rook) rookFiles[c] |= 1u << (int(s) % 8);
    });
    int rights = 0;
    for (Color c : {White, Black}) {
        if (kingFile[c] < 0) continue;
        const unsigned below = (1u << kingFile[c]) - 1, above = 0xFFu & ~((2u << kingFile[c]) - 1);
        if (rookFiles[c] & above) rights |= castlingRight(c, true);
        if (rookFiles[c] & below) rights |= castlingRight(c, false);
    }
    return CastlingRights(rights);
}

} // namespace

TrainingRecord makeRecord(const Position& pos, int score, GameResult result, Move bestMove,
                          int ply) {
    TrainingRecord r;
    r.occupancy = pos.pieces();
    int i = 0;
    for (Bitboard occ = r.occupancy; occ; occ &= occ - 1, ++i) {
        const Piece p = pos.pieceOn(Square(__builtin_ctzll(occ)));
        r.pieces[i / 2] |= std::uint8_t(int(p) << ((i & 1) * 4));
    }
    r.score = std::int16_t(std::clamp(score, -kRecordScoreLimit, kRecordScoreLimit));
    r.result = result;
    r.flags = std::uint8_t((pos.sideToMove() == Black ? 1 : 0) | recordedCastling(pos) << 1);
    r.bestMove = bestMove.raw();
    r.ply = std::uint16_t(std::clamp(ply, 0, 65535));
    return r;
}

std::optional<std::string> validateRecord(const TrainingRecord& r) {
    const int count = r.pieceCount();
    if (count > 32) return "record has " + std::to_string(count) + " pieces (at most 32)";
    if (std::uint8_t(r.result) > 2)
        return "record has result " + std::to_string(int(r.result)) + " (0, 1 or 2)";
    if (r.flags > 31) return "record has flags " + std::to_string(int(r.flags)) + " (0..31)";
    int kings[2] = {0, 0};
    std::optional<std::string> error;
    std::uint64_t occ = r.occupancy;
    for (int i = 0; i < count; ++i, occ &= occ - 1) {
        const int code = (r.pieces[i / 2] >> ((i & 1) * 4)) & 15;
        const int square = __builtin_ctzll(occ);
        if (code > 11) return "record has piece code " + std::to_string(code) + " (0..11)";
        if (code % 6 == King) ++kings[code / 6];
        if (code % 6 == Pawn && (square < 8 || square >= 56))
            return std::string("record has a pawn on the first or last rank");
    }
    // Unused nibbles are zero, so equal positions give equal records.
    for (int i = count; i < 32; ++i)
        if ((r.pieces[i / 2] >> ((i & 1) * 4)) & 15)
            return std::string("record has piece codes beyond its piece count");
    if (kings[0] != 1 || kings[1] != 1)
        return std::string("record does not have one king per side");
    if (r.castling() && (r.castling() & ~possibleCastling(r)))
        return std::string("record has a castling right without its king and rook");
    return std::nullopt;
}

std::string recordFen(const TrainingRecord& r) {
    static constexpr char kLetters[] = "PNBRQKpnbrqk";
    char board[64];
    std::fill(std::begin(board), std::end(board), ' ');
    r.forEachPiece([&](Square s, Piece p) { board[s] = kLetters[p]; });
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const char c = board[rank * 8 + file];
            if (c == ' ') {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            fen += c;
        }
        if (empty) fen += char('0' + empty);
        if (rank) fen += '/';
    }
    fen += r.sideToMove() == White ? " w " : " b ";
    const CastlingRights rights = r.castling();
    if (!rights) fen += '-';
    if (rights & WhiteKingSide) fen += 'K';
    if (rights & WhiteQueenSide) fen += 'Q';
    if (rights & BlackKingSide) fen += 'k';
    if (rights & BlackQueenSide) fen += 'q';
    fen += " - 0 ";
    fen += std::to_string(1 + r.ply / 2);
    return fen;
}

} // namespace axon::data

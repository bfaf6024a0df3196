// SPDX-License-Identifier: GPL-3.0-or-later
// Packing positions into training records and checking records read from files.
#include "data/training_record.h"

#include <algorithm>

namespace axon::data {

using namespace chess;

TrainingRecord makeRecord(const Position& pos, int score, GameResult result, Move bestMove,
                          int ply) {
    TrainingRecord r;
    r.occupancy = pos.pieces();
    int i = 0;
    for (Bitboard occ = r.occupancy; occ; occ &= occ - 1, ++i) {
        const Piece p = pos.pieceOn(Square(__builtin_ctzll(occ)));
        r.pieces[i / 2] |= std::uint8_t(int(p) << ((i & 1) * 4));
    }
    r.score = std::int16_t(std::clamp(score, -32000, 32000));
    r.result = result;
    r.flags = pos.sideToMove() == Black ? 1 : 0;
    r.bestMove = bestMove.raw();
    r.ply = std::uint16_t(std::clamp(ply, 0, 65535));
    return r;
}

std::optional<std::string> validateRecord(const TrainingRecord& r) {
    const int count = r.pieceCount();
    if (count > 32) return "record has " + std::to_string(count) + " pieces (at most 32)";
    if (std::uint8_t(r.result) > 2)
        return "record has result " + std::to_string(int(r.result)) + " (0, 1 or 2)";
    if (r.flags > 1) return "record has flags " + std::to_string(int(r.flags)) + " (0 or 1)";
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
    fen += r.sideToMove() == White ? " w - - 0 " : " b - - 0 ";
    fen += std::to_string(1 + r.ply / 2);
    return fen;
}

} // namespace axon::data

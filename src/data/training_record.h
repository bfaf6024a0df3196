// SPDX-License-Identifier: GPL-3.0-or-later
// The training record: one position with its evaluation, game result and best move in 32
// bytes, so a data file is an array that can be memory-mapped and shuffled in place
// (docs/training-data.md). Colours are absolute; score and result are from the side to move's
// view.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "chess/position.h"
#include "chess/types.h"

namespace axon::data {

// The bound of every record score, in every format Axon reads and writes: evaluations are
// clamped to +-kRecordScoreLimit and a mate in N is +-(kRecordScoreLimit - N), N in the
// plies or moves its source counts.
constexpr int kRecordScoreLimit = 32000;

enum class GameResult : std::uint8_t { Loss = 0, Draw = 1, Win = 2 }; // side to move's view

struct TrainingRecord {
    // Occupied squares (bit s = square s, a1 = 0).
    std::uint64_t occupancy = 0;
    // One 4-bit code per occupied square in ascending square order, low nibble first:
    // colour * 6 + piece type (White pawn = 0 .. White king = 5, Black pawn = 6 .. Black king =
    // 11).
    std::array<std::uint8_t, 16> pieces{};
    // Evaluation in centipawns from the side to move's view (clamped to +-kRecordScoreLimit).
    std::int16_t score = 0;
    GameResult result = GameResult::Draw;
    // Bit 0: Black to move. Bits 1-4: castling rights (chess::CastlingRights << 1: White
    // king side, White queen side, Black king side, Black queen side), each with the outermost
    // rook on that side of the king (X-FEN's meaning of KQkq). Other bits are zero.
    std::uint8_t flags = 0;
    // The best move in Axon's 16-bit encoding (chess::Move::raw), 0 when unknown.
    std::uint16_t bestMove = 0;
    // Plies played since the game's start position (saturating), for filtering early plies.
    std::uint16_t ply = 0;

    chess::Color sideToMove() const { return (flags & 1) ? chess::Black : chess::White; }
    chess::CastlingRights castling() const { return chess::CastlingRights((flags >> 1) & 15); }
    int pieceCount() const { return __builtin_popcountll(occupancy); }

    // Calls f(square, piece) for every piece, in ascending square order.
    template <typename F>
    void forEachPiece(F&& f) const {
        std::uint64_t occ = occupancy;
        for (int i = 0; occ; ++i, occ &= occ - 1) {
            const int code = (pieces[i / 2] >> ((i & 1) * 4)) & 15;
            f(chess::Square(__builtin_ctzll(occ)),
              chess::makePiece(chess::Color(code / 6), chess::PieceType(code % 6)));
        }
    }

    bool operator==(const TrainingRecord&) const = default;
};
static_assert(sizeof(TrainingRecord) == 32, "records are 32 bytes on disk");

// Packs a position (at most 32 pieces) with its labels.
TrainingRecord makeRecord(const chess::Position& pos, int score, GameResult result,
                          chess::Move bestMove = chess::Move::none(), int ply = 0);

// What is wrong with a record (bad piece code, more than 32 pieces, not one king per side,
// pawns on the back ranks, bad result or flags, a castling right without its king and rook on
// the back rank), or nothing.
std::optional<std::string> validateRecord(const TrainingRecord& r);

// The record's board as a FEN: castling rights as KQkq (X-FEN: the outermost rook), no
// en-passant square (not stored), halfmove clock 0, fullmove number from ply.
std::string recordFen(const TrainingRecord& r);

// Result from a side's view given the game's result from White's view (1, 0.5, 0).
inline GameResult resultFor(chess::Color side, double whiteScore) {
    const double s = side == chess::White ? whiteScore : 1.0 - whiteScore;
    return s > 0.75 ? GameResult::Win : s < 0.25 ? GameResult::Loss : GameResult::Draw;
}

} // namespace axon::data

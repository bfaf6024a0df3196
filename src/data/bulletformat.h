// SPDX-License-Identifier: GPL-3.0-or-later
// The bullet GPU trainer's 32-byte `ChessBoard` record (crate `bulletformat`) and its files:
// conversion to and from Axon's TrainingRecord, and an atomic writer and a checking reader for
// headerless files of concatenated records (layout and source in docs/training-data.md).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>

#include "data/training_record.h"
#include "util/result.h"

namespace axon::data {

// Every square and colour is seen from the side to move: the board is mirrored vertically
// (square ^ 56) and the colours swapped when Black is to move, so "us" always plays up the board.
struct BulletBoard {
    // Occupied squares after the flip (bit s = square s, a1 = 0).
    std::uint64_t occupancy = 0;
    // One 4-bit code per occupied square in ascending (flipped) square order, low nibble first:
    // bit 3 set for the opponent's pieces, low 3 bits the piece type (pawn 0 .. king 5).
    std::array<std::uint8_t, 16> pieces{};
    // Centipawns from the side to move's view.
    std::int16_t score = 0;
    // 0 loss, 1 draw, 2 win for the side to move.
    std::uint8_t result = 1;
    // Our king's square (flipped), and the opponent's king square flipped again (^ 56), i.e. as
    // the opponent sees it.
    std::uint8_t ourKing = 0;
    std::uint8_t theirKing = 0;
    // Written as zero; ignored when read (bullet does not use them).
    std::array<std::uint8_t, 3> extra{};

    bool operator==(const BulletBoard&) const = default;
};
static_assert(sizeof(BulletBoard) == 32, "bulletformat records are 32 bytes");
static_assert(offsetof(BulletBoard, score) == 24 && offsetof(BulletBoard, result) == 26 &&
                  offsetof(BulletBoard, ourKing) == 27 && offsetof(BulletBoard, theirKing) == 28,
              "field offsets of bulletformat's #[repr(C)] ChessBoard");

constexpr std::size_t kBulletRecordSize = sizeof(BulletBoard);

// The record from its side to move's view. The best move and ply have no place in the format
// and are dropped; the side to move is folded into the flip.
BulletBoard toBullet(const TrainingRecord& r);

// An Axon record with White to move (bullet's boards do not say which colour was to move: a
// Black-to-move original comes back as its colour-flipped mirror, which has the same score and
// result), no best move and ply 0; or why the board is invalid (bad piece code, more than 32
// pieces, not one king per side, king squares that disagree with the pieces, bad result).
util::Result<TrainingRecord> fromBullet(const BulletBoard& b);

// Writes `path`.tmp and renames it to `path` on `finish`; destroyed unfinished, it removes the
// temporary file, so a failed conversion leaves no output.
class BulletWriter {
  public:
    static util::Result<std::unique_ptr<BulletWriter>> create(const std::string& path);
    ~BulletWriter();

    // An error message, or empty on success.
    std::string write(std::span<const BulletBoard> boards);
    std::string finish();
    std::uint64_t count() const { return m_count; }

  private:
    BulletWriter(std::string path, std::FILE* file) : m_path(std::move(path)), m_file(file) {}
    std::string m_path;
    std::FILE* m_file;
    std::uint64_t m_count = 0;
    bool m_failed = false;
};

// Streams a bulletformat file: no header, so the size must be a multiple of 32 bytes.
class BulletReader {
  public:
    static util::Result<std::unique_ptr<BulletReader>> open(const std::string& path);
    ~BulletReader();

    std::uint64_t count() const { return m_count; }
    // Fills `out` with the next boards; how many (0 at the end), or a read error.
    util::Result<std::size_t> read(std::span<BulletBoard> out);
    // Index of the next board to be read, for error messages.
    std::uint64_t position() const { return m_next; }

  private:
    BulletReader(std::string path, std::FILE* file, std::uint64_t count)
        : m_path(std::move(path)), m_file(file), m_count(count) {}
    std::string m_path;
    std::FILE* m_file;
    std::uint64_t m_count;
    std::uint64_t m_next = 0;
};

} // namespace axon::data

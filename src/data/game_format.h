// SPDX-License-Identifier: GPL-3.0-or-later
// Game files (docs/training-data.md, "Axon game files"): whole games instead of positions, a
// 32-byte header with the game and move counts, then each game in viriformat's layout (a
// marlinformat packed start position, a 16-bit move and a 16-bit White-relative score per ply,
// four zero bytes). About 4 bytes a position; re-scoring rewrites scores only. This file owns
// the layout, the packed board, the move and score encodings, the atomic writer and the
// validating streaming reader.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "chess/position.h"
#include "data/training_record.h"
#include "util/result.h"

namespace axon::data {

constexpr char kGameMagic[8] = {'A', 'X', 'O', 'N', 'G', 'A', 'M', 'E'};
constexpr std::uint32_t kGameFormatVersion = 1;
constexpr std::size_t kGameHeaderSize = 32;
constexpr std::size_t kPackedBoardSize = 32;
constexpr std::size_t kPlyEntrySize = 4;
// A game's fixed cost: its packed start position and the four-byte terminator.
constexpr std::size_t kGameOverheadSize = kPackedBoardSize + kPlyEntrySize;
// A ply without a score (the search reported none): never trained on. On disk as it is here,
// never negated.
constexpr int kNoPlyScore = -32768;
// A game longer than this is corrupt: datagen adjudicates far sooner, and a reader must not
// grow a move list without bound on a hostile file.
constexpr std::size_t kMaxGamePlies = 10000;

// marlinformat's PackedBoard, as viriformat uses it (fields little-endian).
struct PackedBoard {
    std::uint64_t occupancy = 0;
    // One nibble per occupied square, ascending, low nibble first: bits 0-2 the type (pawn 0 ..
    // king 5, 6 a rook that still has its castling right), bit 3 set for Black.
    std::array<std::uint8_t, 16> pieces{};
    // Bits 0-6: the en-passant target square, 64 when none; bit 7 set when Black is to move.
    std::uint8_t sideAndEp = 64;
    std::uint8_t halfmoveClock = 0;
    std::uint16_t fullmoveNumber = 1;
    std::int16_t score = 0;  // unused by Axon: zero
    std::uint8_t result = 1; // White's view: 0 loss, 1 draw, 2 win
    std::uint8_t extra = 0;  // unused: zero
};
static_assert(sizeof(PackedBoard) == kPackedBoardSize, "packed boards are 32 bytes on disk");

struct GamePly {
    chess::Move move;
    // Centipawns from the side to move's view (as training records), kNoPlyScore for none.
    int score = kNoPlyScore;
    bool operator==(const GamePly&) const = default;
};

// A game: the position its recorded moves start from, its result and every ply's move with the
// score of the position it was played from.
struct Game {
    chess::Position start;
    GameResult whiteResult = GameResult::Draw; // from White's view
    std::vector<GamePly> plies;
};

// The start position packed; an error for what the layout cannot hold (more than 32 pieces,
// a halfmove clock above 150 as FEN allows, a fullmove number above 65535).
util::Result<PackedBoard> packBoard(const chess::Position& pos, GameResult whiteResult);
// The packed board as a legal position (castling rooks on the king's rank, an en-passant
// square only where a capture is legal, counters and result in range, unused fields zero,
// Position::validate); or why not. Every board has one encoding, so files are canonical.
util::Result<chess::Position> unpackBoard(const PackedBoard& board);

// viriformat's move: from, to << 6, promotion (knight 0 .. queen 3) << 12, type << 14 (0
// normal, 1 en passant, 2 castling as king takes rook, 3 promotion).
std::uint16_t encodeMove(chess::Move move);
chess::Move decodeMove(std::uint16_t raw);

// Appends the game's bytes; an error when a move is not legal where it is played or the start
// position does not pack.
std::string encodeGame(const Game& game, std::vector<std::uint8_t>& out);

// Writes `path`.tmp and renames it to `path` in `finish`; destroyed unfinished, it removes the
// temporary file. The counts in the header are filled in by `finish`.
class GameWriter {
  public:
    static util::Result<std::unique_ptr<GameWriter>> create(const std::string& path);
    ~GameWriter();

    // An error message, or empty.
    std::string write(const Game& game);
    std::string finish();
    std::uint64_t games() const { return m_games; }
    std::uint64_t plies() const { return m_plies; }

  private:
    GameWriter(std::string path, std::FILE* file) : m_path(std::move(path)), m_file(file) {}
    std::string m_path;
    std::FILE* m_file;
    std::vector<std::uint8_t> m_buffer;
    std::uint64_t m_games = 0, m_plies = 0;
    bool m_failed = false;
};

// Where a game begins in a file, and how many games and plies come before it: a reader can
// resume there (the labeller's blocks).
struct GameMark {
    std::uint64_t offset = kGameHeaderSize;
    std::uint64_t games = 0, plies = 0;
};

// Streams a file's games, each checked whole: the board, every move legal in the replayed
// position, the terminator. The header's counts must match the file's size exactly, so a file
// cut anywhere (at a game boundary too) is refused at open. Errors name the file and the byte
// offset of what is wrong.
class GameReader {
  public:
    static util::Result<std::unique_ptr<GameReader>> open(const std::string& path);
    ~GameReader();

    std::uint64_t games() const { return m_games; }
    std::uint64_t plies() const { return m_plies; }
    std::uint64_t fileSize() const { return m_fileSize; }
    // The next game into `game`: true, false after the last one, or an error.
    util::Result<bool> next(Game& game);
    // Where the next game begins; `seek` goes back to a mark of this file.
    GameMark mark() const { return {m_offset, m_gamesRead, m_pliesRead}; }
    bool seek(const GameMark& mark);

  private:
    GameReader(std::string path, std::FILE* file) : m_path(std::move(path)), m_file(file) {}
    std::string error(std::uint64_t offset, const std::string& why) const;
    std::string m_path;
    std::FILE* m_file;
    std::uint64_t m_games = 0, m_plies = 0, m_fileSize = 0;
    std::uint64_t m_gamesRead = 0, m_pliesRead = 0;
    std::uint64_t m_offset = kGameHeaderSize;
};

// Whether the file starts with kGameMagic (unreadable files: false).
bool isGameFile(const std::string& path);

// Reads a whole (small) file, validated.
util::Result<std::vector<Game>> readAllGames(const std::string& path);
// Writes games atomically; an error message or empty.
std::string writeAllGames(const std::string& path, std::span<const Game> games);

// Calls f(position, ply, index) for each ply of a valid game (from a reader, or written),
// with the position the ply's move is played from.
template <typename F>
void forEachPosition(const Game& game, F&& f) {
    chess::Position pos = game.start;
    for (std::size_t i = 0; i < game.plies.size(); ++i) {
        f(static_cast<const chess::Position&>(pos), game.plies[i], i);
        pos.makeMove(game.plies[i].move);
    }
}

} // namespace axon::data

// SPDX-License-Identifier: GPL-3.0-or-later
// Game files: packing boards and moves, the writer and the validating reader.
#include "data/game_format.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "chess/movegen.h"
#include "util/atomic_file.h"

namespace axon::data {

namespace {

using namespace chess;
using util::makeError;

struct Header {
    char magic[8];
    std::uint32_t version;
    std::uint32_t reserved;
    std::uint64_t games;
    std::uint64_t plies;
};
static_assert(sizeof(Header) == kGameHeaderSize);

constexpr std::uint8_t kNoEpSquare = 64;
constexpr std::uint8_t kBlackToMoveBit = 0x80;
constexpr std::uint8_t kBlackPieceBit = 8;
constexpr std::uint8_t kCastlingRookCode = 6;
constexpr int kMaxHalfmoveClock = 150; // as the FEN reader allows
// Past this a header's counts are corrupt (a file of 2^50 bytes is not data).
constexpr std::uint64_t kMaxCount = std::uint64_t(1) << 50;

Header makeHeader(std::uint64_t games, std::uint64_t plies) {
    Header h{};
    std::memcpy(h.magic, kGameMagic, sizeof h.magic);
    h.version = kGameFormatVersion;
    h.games = games;
    h.plies = plies;
    return h;
}

std::uint64_t expectedSize(const Header& h) {
    return kGameHeaderSize + h.games * kGameOverheadSize + h.plies * kPlyEntrySize;
}

// On disk the score is White's; in memory the side to move's. The sentinel is never negated.
std::int16_t diskScore(int score, Color sideToMove) {
    if (score == kNoPlyScore) return std::int16_t(kNoPlyScore);
    const int clamped = std::clamp(score, -kRecordScoreLimit, kRecordScoreLimit);
    return std::int16_t(sideToMove == White ? clamped : -clamped);
}

int memoryScore(std::int16_t score, Color sideToMove) {
    if (score == kNoPlyScore) return kNoPlyScore;
    return sideToMove == White ? score : -score;
}

bool isCastlingRook(const Position& pos, Square s) {
    for (Color c : {White, Black})
        for (bool kingSide : {true, false}) {
            const CastlingRights r = castlingRight(c, kingSide);
            if (pos.canCastle(r) && pos.castlingRookSquare(r) == s) return true;
        }
    return false;
}

} // namespace

util::Result<PackedBoard> packBoard(const Position& pos, GameResult whiteResult) {
    if (popcount(pos.pieces()) > 32) return makeError("more than 32 pieces");
    if (pos.halfmoveClock() > kMaxHalfmoveClock)
        return makeError("halfmove clock above " + std::to_string(kMaxHalfmoveClock));
    if (pos.fullmoveNumber() > 65535) return makeError("fullmove number above 65535");
    PackedBoard b;
    b.occupancy = pos.pieces();
    int i = 0;
    for (Bitboard occ = pos.pieces(); occ; occ &= occ - 1, ++i) {
        const Square s = Square(lsb(occ));
        const Piece p = pos.pieceOn(s);
        const std::uint8_t type =
            isCastlingRook(pos, s) ? kCastlingRookCode : std::uint8_t(typeOf(p));
        const std::uint8_t code = type | (colorOf(p) == Black ? kBlackPieceBit : 0);
        b.pieces[i / 2] |= std::uint8_t(code << ((i & 1) * 4));
    }
    b.sideAndEp =
        std::uint8_t((pos.epSquare() == NoSquare ? kNoEpSquare : std::uint8_t(pos.epSquare())) |
                     (pos.sideToMove() == Black ? kBlackToMoveBit : 0));
    b.halfmoveClock = std::uint8_t(pos.halfmoveClock());
    b.fullmoveNumber = std::uint16_t(pos.fullmoveNumber());
    b.result = std::uint8_t(whiteResult);
    return b;
}

util::Result<Position> unpackBoard(const PackedBoard& b) {
    const int count = popcount(b.occupancy);
    if (count > 32) return makeError("more than 32 pieces");
    if (b.result > 2) return makeError("result " + std::to_string(b.result) + " is not 0, 1 or 2");
    if (b.score != 0 || b.extra != 0) return makeError("unused board fields are not zero");
    if (b.fullmoveNumber == 0) return makeError("fullmove number 0");
    if (b.halfmoveClock > kMaxHalfmoveClock)
        return makeError("halfmove clock " + std::to_string(b.halfmoveClock) + " above " +
                         std::to_string(kMaxHalfmoveClock));
    Position pos;
    pos.clear();
    std::uint64_t castlingRooks = 0;
    int i = 0;
    for (Bitboard occ = b.occupancy; occ; occ &= occ - 1, ++i) {
        const Square s = Square(lsb(occ));
        const int code = (b.pieces[i / 2] >> ((i & 1) * 4)) & 15;
        const int type = code & 7;
        if (type == 7) return makeError("piece code " + std::to_string(code));
        const Color c = (code & kBlackPieceBit) ? Black : White;
        if (type == kCastlingRookCode) castlingRooks |= squareBB(s);
        pos.putPiece(makePiece(c, type == kCastlingRookCode ? Rook : PieceType(type)), s);
    }
    for (; i < 32; ++i)
        if ((b.pieces[i / 2] >> ((i & 1) * 4)) & 15)
            return makeError("unused piece nibbles are not zero");
    pos.setSideToMove((b.sideAndEp & kBlackToMoveBit) ? Black : White);
    for (Color c : {White, Black})
        if (pos.count(c, King) != 1)
            return makeError(std::string(c == White ? "white" : "black") +
                             " has not exactly one king");
    for (Bitboard rooks = castlingRooks; rooks; rooks &= rooks - 1) {
        const Square s = Square(lsb(rooks));
        const Color c = colorOf(pos.pieceOn(s));
        const Square king = pos.kingSquare(c);
        if (relativeRank(c, king) != 0 || rankOf(s) != rankOf(king))
            return makeError("castling rook off its king's first rank");
        const CastlingRights right = castlingRight(c, s > king);
        if (pos.canCastle(right)) return makeError("two castling rooks on one side of a king");
        pos.addCastlingRight(c, s);
        if (fileOf(king) != 4 || (fileOf(s) != 0 && fileOf(s) != 7)) pos.setChess960(true);
    }
    const int ep = b.sideAndEp & ~kBlackToMoveBit;
    if (ep != kNoEpSquare) {
        if (ep > 63) return makeError("en-passant field " + std::to_string(ep));
        const Color us = pos.sideToMove();
        const Square sq = Square(ep);
        if (relativeRank(us, sq) != 5 || !pos.isEmpty(sq) || !pos.isEmpty(sq + pawnPush(us)) ||
            pos.pieceOn(sq - pawnPush(us)) != makePiece(~us, Pawn))
            return makeError("impossible en-passant square");
        pos.setEpSquare(sq);
    }
    pos.setCounters(b.halfmoveClock, b.fullmoveNumber);
    pos.finishSetup();
    if (auto e = pos.validate()) return makeError(*e);
    // Writers store the square only when a capture there is legal (as Position keeps it), so
    // every board has one encoding.
    if (ep != kNoEpSquare && pos.epSquare() == NoSquare)
        return makeError("en-passant square without a legal capture");
    return pos;
}

std::uint16_t encodeMove(Move m) {
    int type = 0;
    switch (m.type()) {
    case MoveType::Normal: type = 0; break;
    case MoveType::EnPassant: type = 1; break;
    case MoveType::Castling: type = 2; break;
    case MoveType::Promotion: type = 3; break;
    }
    const int promo = m.type() == MoveType::Promotion ? m.promotion() - Knight : 0;
    return std::uint16_t(m.from() | (m.to() << 6) | (promo << 12) | (type << 14));
}

Move decodeMove(std::uint16_t raw) {
    constexpr MoveType kTypes[4] = {MoveType::Normal, MoveType::EnPassant, MoveType::Castling,
                                    MoveType::Promotion};
    const MoveType type = kTypes[raw >> 14];
    // Only a promotion has a promotion piece; Axon's other moves carry zero there, so a
    // non-zero field makes a move no legal move equals.
    return Move(Square(raw & 63), Square((raw >> 6) & 63), type,
                PieceType(((raw >> 12) & 3) + Knight));
}

std::string encodeGame(const Game& game, std::vector<std::uint8_t>& out) {
    auto board = packBoard(game.start, game.whiteResult);
    if (!board) return "start position: " + board.error();
    if (game.plies.size() > kMaxGamePlies)
        return "more than " + std::to_string(kMaxGamePlies) + " plies";
    const std::size_t start = out.size();
    out.resize(start + kPackedBoardSize + kPlyEntrySize * (game.plies.size() + 1));
    std::uint8_t* p = out.data() + start;
    std::memcpy(p, &*board, kPackedBoardSize);
    p += kPackedBoardSize;
    Position pos = game.start;
    for (std::size_t i = 0; i < game.plies.size(); ++i) {
        const GamePly& ply = game.plies[i];
        if (!MoveList(pos).contains(ply.move)) {
            out.resize(start);
            return "ply " + std::to_string(i) + ": illegal move";
        }
        const std::uint16_t move = encodeMove(ply.move);
        const std::int16_t score = diskScore(ply.score, pos.sideToMove());
        std::memcpy(p, &move, 2);
        std::memcpy(p + 2, &score, 2);
        p += kPlyEntrySize;
        pos.makeMove(ply.move);
    }
    std::memset(p, 0, kPlyEntrySize);
    return {};
}

util::Result<std::unique_ptr<GameWriter>> GameWriter::create(const std::string& path) {
    std::FILE* f = std::fopen((path + ".tmp").c_str(), "wb");
    if (!f) return makeError("cannot write " + path + ".tmp: " + std::strerror(errno));
    const Header h = makeHeader(0, 0);
    if (std::fwrite(&h, sizeof h, 1, f) != 1) {
        std::fclose(f);
        std::remove((path + ".tmp").c_str());
        return makeError("cannot write " + path + ".tmp");
    }
    return std::unique_ptr<GameWriter>(new GameWriter(path, f));
}

GameWriter::~GameWriter() {
    if (m_file) {
        std::fclose(m_file);
        std::remove((m_path + ".tmp").c_str());
    }
}

std::string GameWriter::write(const Game& game) {
    if (!m_file) return "writer for " + m_path + " is finished";
    m_buffer.clear();
    if (auto e = encodeGame(game, m_buffer); !e.empty())
        return m_path + ": game " + std::to_string(m_games) + ": " + e;
    if (std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size()) {
        m_failed = true;
        return "write to " + m_path + ".tmp failed: " + std::strerror(errno);
    }
    ++m_games;
    m_plies += game.plies.size();
    return {};
}

std::string GameWriter::finish() {
    if (!m_file) return "writer for " + m_path + " is finished";
    const Header h = makeHeader(m_games, m_plies);
    const bool ok = !m_failed && std::fseek(m_file, 0, SEEK_SET) == 0 &&
                    std::fwrite(&h, sizeof h, 1, m_file) == 1;
    return util::commitTempFile(m_file, m_path, ok).value_or("");
}

util::Result<std::unique_ptr<GameReader>> GameReader::open(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return makeError("cannot read " + path + ": " + ec.message());
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return makeError("cannot read " + path + ": " + std::strerror(errno));
    std::unique_ptr<GameReader> reader(new GameReader(path, f));
    reader->m_fileSize = size;
    Header h{};
    if (size < kGameHeaderSize || std::fread(&h, sizeof h, 1, f) != 1)
        return makeError(reader->error(size, "truncated: too short for the 32-byte header"));
    if (std::memcmp(h.magic, kGameMagic, sizeof h.magic) != 0)
        return makeError(reader->error(0, "not an Axon game file (bad magic)"));
    if (h.version != kGameFormatVersion)
        return makeError(
            reader->error(8, "unsupported game format version " + std::to_string(h.version)));
    if (h.reserved != 0) return makeError(reader->error(12, "reserved header bytes are not zero"));
    if (h.games > kMaxCount || h.plies > kMaxCount || expectedSize(h) != size) {
        const std::string counts = "the header says " + std::to_string(h.games) + " games and " +
                                   std::to_string(h.plies) + " plies (" +
                                   std::to_string(expectedSize(h)) + " bytes) but the file has " +
                                   std::to_string(size);
        if (h.games <= kMaxCount && h.plies <= kMaxCount && size < expectedSize(h))
            return makeError(reader->error(size, "truncated: " + counts));
        return makeError(reader->error(16, "corrupt: " + counts));
    }
    reader->m_games = h.games;
    reader->m_plies = h.plies;
    return reader;
}

GameReader::~GameReader() { std::fclose(m_file); }

std::string GameReader::error(std::uint64_t offset, const std::string& why) const {
    return m_path + ": byte " + std::to_string(offset) + ": " + why;
}

util::Result<bool> GameReader::next(Game& game) {
    if (m_gamesRead == m_games) {
        if (m_offset != m_fileSize)
            return makeError(error(m_offset, "data after the last game the header counts"));
        return false;
    }
    const std::uint64_t gameOffset = m_offset;
    const std::string gameName = "game " + std::to_string(m_gamesRead) + ": ";
    PackedBoard board;
    if (std::fread(&board, sizeof board, 1, m_file) != 1)
        return makeError(error(m_offset, gameName + "truncated in the start position"));
    auto start = unpackBoard(board);
    if (!start) return makeError(error(gameOffset, gameName + "start position: " + start.error()));
    m_offset += kPackedBoardSize;
    game.start = *start;
    game.whiteResult = GameResult(board.result);
    game.plies.clear();
    Position pos = game.start;
    for (;;) {
        std::uint8_t entry[kPlyEntrySize];
        if (std::fread(entry, sizeof entry, 1, m_file) != 1)
            return makeError(error(m_offset, gameName + "truncated: no terminator"));
        std::uint16_t raw;
        std::int16_t score;
        std::memcpy(&raw, entry, 2);
        std::memcpy(&score, entry + 2, 2);
        if (raw == 0) {
            if (score != 0)
                return makeError(error(m_offset, gameName + "null move with a non-zero score"));
            m_offset += kPlyEntrySize;
            break;
        }
        // The header's ply count bounds the file too: a game may not run past it.
        if (score != kNoPlyScore && (score > kRecordScoreLimit || score < -kRecordScoreLimit))
            return makeError(error(m_offset, gameName + "score " + std::to_string(score) +
                                                 " beyond +-" + std::to_string(kRecordScoreLimit)));
        if (game.plies.size() >= kMaxGamePlies || m_pliesRead + game.plies.size() >= m_plies)
            return makeError(error(m_offset, gameName + "more plies than the header counts"));
        const Move move = decodeMove(raw);
        if (!MoveList(pos).contains(move))
            return makeError(error(m_offset, gameName + "ply " + std::to_string(game.plies.size()) +
                                                 ": illegal move " + std::to_string(raw)));
        game.plies.push_back({move, memoryScore(score, pos.sideToMove())});
        pos.makeMove(move);
        m_offset += kPlyEntrySize;
    }
    ++m_gamesRead;
    m_pliesRead += game.plies.size();
    if (m_gamesRead == m_games && m_pliesRead != m_plies)
        return makeError(error(m_offset, "the header counts " + std::to_string(m_plies) +
                                             " plies but the games hold " +
                                             std::to_string(m_pliesRead)));
    return true;
}

bool GameReader::seek(const GameMark& mark) {
    if (mark.offset < kGameHeaderSize || mark.offset > m_fileSize || mark.games > m_games ||
        mark.plies > m_plies || std::fseek(m_file, long(mark.offset), SEEK_SET) != 0)
        return false;
    m_offset = mark.offset;
    m_gamesRead = mark.games;
    m_pliesRead = mark.plies;
    return true;
}

bool isGameFile(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    char magic[sizeof kGameMagic] = {};
    const bool match = std::fread(magic, sizeof magic, 1, f) == 1 &&
                       std::memcmp(magic, kGameMagic, sizeof magic) == 0;
    std::fclose(f);
    return match;
}

util::Result<std::vector<Game>> readAllGames(const std::string& path) {
    auto reader = GameReader::open(path);
    if (!reader) return makeError(reader.error());
    std::vector<Game> games;
    for (;;) {
        Game game;
        auto more = (*reader)->next(game);
        if (!more) return makeError(more.error());
        if (!*more) return games;
        games.push_back(std::move(game));
    }
}

std::string writeAllGames(const std::string& path, std::span<const Game> games) {
    auto writer = GameWriter::create(path);
    if (!writer) return writer.error();
    for (const Game& game : games)
        if (auto e = (*writer)->write(game); !e.empty()) return e;
    return (*writer)->finish();
}

} // namespace axon::data

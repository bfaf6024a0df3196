// SPDX-License-Identifier: GPL-3.0-or-later
// bulletformat records: the flip to the side to move's view, checks, and the file I/O.
#include "data/bulletformat.h"

#include "util/atomic_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "data/record_file.h"

namespace axon::data {

namespace {

using namespace chess;
using util::makeError;

constexpr int kTheirColourBit = 8;
constexpr int kNoPiece = -1;

// Piece codes (bulletformat's, 0..13) on 64 squares, filled from an occupancy and its nibbles.
using CodeBoard = std::array<int, 64>;

void encodePieces(const CodeBoard& board, std::uint64_t& occupancy,
                  std::array<std::uint8_t, 16>& pieces) {
    occupancy = 0;
    pieces.fill(0);
    int i = 0;
    for (int s = 0; s < 64; ++s) {
        if (board[s] == kNoPiece) continue;
        occupancy |= std::uint64_t(1) << s;
        pieces[i / 2] |= std::uint8_t(board[s] << ((i & 1) * 4));
        ++i;
    }
}

} // namespace

BulletBoard toBullet(const TrainingRecord& r) {
    const Color us = r.sideToMove();
    const int flip = us == Black ? 56 : 0;
    CodeBoard board;
    board.fill(kNoPiece);
    BulletBoard b;
    r.forEachPiece([&](Square s, Piece p) {
        const int square = s ^ flip;
        const PieceType type = typeOf(p);
        const bool ours = colorOf(p) == us;
        board[square] = (ours ? 0 : kTheirColourBit) | int(type);
        if (type == King) {
            if (ours)
                b.ourKing = std::uint8_t(square);
            else
                b.theirKing = std::uint8_t(square ^ 56);
        }
    });
    encodePieces(board, b.occupancy, b.pieces);
    b.score = r.score;
    b.result = std::uint8_t(r.result);
    return b;
}

util::Result<TrainingRecord> fromBullet(const BulletBoard& b) {
    const int count = __builtin_popcountll(b.occupancy);
    if (count > 32) return makeError("board has " + std::to_string(count) + " pieces (at most 32)");
    if (b.result > 2) return makeError("result " + std::to_string(b.result) + " (0, 1 or 2)");
    CodeBoard board;
    board.fill(kNoPiece);
    int kingSquare[2] = {-1, -1}; // ours, theirs, in the board's (flipped) coordinates
    std::uint64_t occ = b.occupancy;
    for (int i = 0; i < count; ++i, occ &= occ - 1) {
        const int code = (b.pieces[i / 2] >> ((i & 1) * 4)) & 15;
        const int square = __builtin_ctzll(occ);
        if ((code & 7) > King) return makeError("piece code " + std::to_string(code));
        if ((code & 7) == King) {
            int& k = kingSquare[code >> 3];
            if (k >= 0) return makeError(std::string("board has two kings of one side"));
            k = square;
        }
        board[square] = code;
    }
    for (int i = count; i < 32; ++i)
        if ((b.pieces[i / 2] >> ((i & 1) * 4)) & 15)
            return makeError(std::string("piece codes beyond the piece count"));
    if (kingSquare[0] < 0 || kingSquare[1] < 0)
        return makeError(std::string("board does not have one king per side"));
    if (b.ourKing != kingSquare[0] || b.theirKing != (kingSquare[1] ^ 56))
        return makeError("king squares " + std::to_string(b.ourKing) + "/" +
                         std::to_string(b.theirKing) + " disagree with the pieces");

    TrainingRecord r;
    CodeBoard axon;
    axon.fill(kNoPiece);
    // "Us" is White: bulletformat colour bit 0/1 is Axon's White/Black.
    for (int s = 0; s < 64; ++s)
        if (board[s] != kNoPiece) axon[s] = (board[s] >> 3) * 6 + (board[s] & 7);
    encodePieces(axon, r.occupancy, r.pieces);
    r.score = std::int16_t(std::clamp<int>(b.score, -kRecordScoreLimit, kRecordScoreLimit));
    r.result = GameResult(b.result);
    if (auto e = validateRecord(r)) return makeError(*e);
    return r;
}

util::Result<std::unique_ptr<BulletWriter>> BulletWriter::create(const std::string& path) {
    std::FILE* f = std::fopen((path + ".tmp").c_str(), "wb");
    if (!f) return makeError("cannot write " + path + ".tmp: " + std::strerror(errno));
    return std::unique_ptr<BulletWriter>(new BulletWriter(path, f));
}

BulletWriter::~BulletWriter() {
    if (m_file) {
        std::fclose(m_file);
        std::remove((m_path + ".tmp").c_str());
    }
}

std::string BulletWriter::write(std::span<const BulletBoard> boards) {
    if (!m_file) return "writer for " + m_path + " is finished";
    if (boards.empty()) return {};
    if (std::fwrite(boards.data(), sizeof(BulletBoard), boards.size(), m_file) != boards.size()) {
        m_failed = true;
        return "write to " + m_path + ".tmp failed: " + std::strerror(errno);
    }
    m_count += boards.size();
    return {};
}

std::string BulletWriter::finish() {
    if (!m_file) return "writer for " + m_path + " is finished";
    return util::commitTempFile(m_file, m_path, !m_failed).value_or("");
}

util::Result<std::unique_ptr<BulletReader>> BulletReader::open(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return makeError("cannot read " + path + ": " + ec.message());
    if (size % kBulletRecordSize != 0)
        return makeError(path + ": " + std::to_string(size) +
                         " bytes is not a multiple of the 32-byte bulletformat record "
                         "(truncated, or not a bulletformat file)");
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return makeError("cannot read " + path + ": " + std::strerror(errno));
    // An Axon file has a header that would be read as a (nonsense) board: say what it is.
    char magic[sizeof kDataMagic] = {};
    if (size >= sizeof magic && std::fread(magic, 1, sizeof magic, f) == sizeof magic &&
        std::memcmp(magic, kDataMagic, sizeof magic) == 0) {
        std::fclose(f);
        return makeError(path + ": this is an Axon data file, not bulletformat (use --from axon)");
    }
    std::rewind(f);
    return std::unique_ptr<BulletReader>(new BulletReader(path, f, size / kBulletRecordSize));
}

BulletReader::~BulletReader() { std::fclose(m_file); }

util::Result<std::size_t> BulletReader::read(std::span<BulletBoard> out) {
    const std::size_t want = std::size_t(std::min<std::uint64_t>(out.size(), m_count - m_next));
    if (want == 0) return std::size_t(0);
    if (std::fread(out.data(), sizeof(BulletBoard), want, m_file) != want)
        return makeError(m_path + ": read failed at record " + std::to_string(m_next));
    m_next += want;
    return want;
}

} // namespace axon::data

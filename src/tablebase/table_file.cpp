// SPDX-License-Identifier: GPL-3.0-or-later
#include "tablebase/table_file.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace axon::tablebase {

using namespace chess;

namespace {

constexpr std::uint8_t kWdlMagic[4] = {0x71, 0xE8, 0x23, 0x5D};
constexpr std::uint8_t kDtzMagic[4] = {0xD7, 0x66, 0x0C, 0xA5};
// The checksum the generator appends to every file, after the data and its padding.
constexpr std::uint64_t kChecksumBytes = 16;
enum FileFlag : std::uint8_t { Split = 1, HasPawns = 2 };

// Pieces as the files write them: 1..6 pawn..king, +8 for black.
constexpr std::uint8_t fileCode(Color c, PieceType t) { return std::uint8_t(t + 1 + 8 * c); }
constexpr std::uint8_t fileCode(Piece p) { return fileCode(colorOf(p), typeOf(p)); }

std::uint32_t le16(const std::uint8_t* p) { return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8; }

} // namespace

TableInfo TableInfo::fromMaterial(const Material& m) {
    TableInfo info;
    info.material = m;
    info.key = m.key();
    info.key2 = m.swapped().key();
    info.pieceCount = m.pieceCount();
    const int white = m.pawns(White), black = m.pawns(Black);
    info.hasPawns = white + black > 0;
    for (int c = 0; c < kNumColors; ++c)
        for (int t = Pawn; t <= Queen; ++t)
            if (m.count[c][t] == 1) info.hasUniquePieces = true;
    info.leadColor = (black == 0 || (white > 0 && black >= white)) ? White : Black;
    info.pawnCount[0] = m.pawns(info.leadColor);
    info.pawnCount[1] = m.pawns(~info.leadColor);
    return info;
}

util::Result<std::unique_ptr<TableFile>> TableFile::load(const std::string& path, TableKind kind,
                                                         const TableInfo& info) {
    auto mapped = MappedFile::open(path);
    if (!mapped) return util::Error{mapped.error()};
    auto table = std::unique_ptr<TableFile>(new TableFile());
    table->m_file = std::move(*mapped);
    table->m_data = table->m_file->data();
    table->m_size = table->m_file->size();
    table->m_kind = kind;
    table->m_info = info;
    if (auto error = table->parse()) return util::Error{path + ": " + *error};
    return table;
}

util::Result<std::unique_ptr<TableFile>>
TableFile::fromBytes(std::vector<std::uint8_t> bytes, TableKind kind, const TableInfo& info) {
    auto table = std::unique_ptr<TableFile>(new TableFile());
    table->m_bytes = std::move(bytes);
    table->m_data = table->m_bytes.data();
    table->m_size = table->m_bytes.size();
    table->m_kind = kind;
    table->m_info = info;
    if (auto error = table->parse()) return util::Error{info.material.name() + ": " + *error};
    return table;
}

std::optional<std::string> TableFile::setGroups(Part& p, int order0, int order1, int file) {
    const EncodingTables& t = encodingTables();
    const int pieces = m_info.pieceCount;
    // Groups: the leading pieces (the pawns of the leading colour, or the kings with a unique
    // piece when there is one), then each run of equal pieces.
    int n = 0;
    int firstLen = m_info.hasPawns ? 0 : m_info.hasUniquePieces ? 3 : 2;
    p.groupLen[0] = 1;
    for (int i = 1; i < pieces; ++i)
        if (--firstLen > 0 || p.pieces[i] == p.pieces[i - 1])
            ++p.groupLen[n];
        else
            p.groupLen[++n] = 1;
    p.groupLen[++n] = 0;

    // The index is a mixed-radix number whose digits come in the order the file chose: the
    // leading group at position order0, the other side's pawns (when both have pawns) at order1.
    const bool bothPawns = m_info.hasPawns && m_info.pawnCount[1] > 0;
    if (m_info.hasPawns && (p.groupLen[0] != m_info.pawnCount[0] || p.groupLen[0] >= 6))
        return std::string("leading pawns do not form one group");
    if (bothPawns && p.groupLen[1] != m_info.pawnCount[1])
        return std::string("the other pawns do not form one group");
    int next = bothPawns ? 2 : 1;
    int freeSquares = 64 - p.groupLen[0] - (bothPawns ? p.groupLen[1] : 0);
    std::uint64_t factor = 1;
    bool leadPlaced = false, pawnsPlaced = !bothPawns;
    for (int k = 0; next < n || k == order0 || k == order1; ++k) {
        if (k == order0) {
            p.groupFactor[0] = factor;
            factor *= m_info.hasPawns          ? std::uint64_t(t.leadPawnsSize[p.groupLen[0]][file])
                      : m_info.hasUniquePieces ? 31332
                                               : 462;
            leadPlaced = true;
        } else if (k == order1) {
            p.groupFactor[1] = factor;
            factor *= t.binomial[p.groupLen[1]][48 - p.groupLen[0]];
            pawnsPlaced = true;
        } else {
            if (p.groupLen[next] >= kMaxTablePieces || freeSquares < p.groupLen[next])
                return std::string("piece groups out of range");
            p.groupFactor[next] = factor;
            factor *= t.binomial[p.groupLen[next]][freeSquares];
            freeSquares -= p.groupLen[next++];
        }
    }
    if (!leadPlaced || !pawnsPlaced) return std::string("group order out of range");
    p.size = factor;
    return std::nullopt;
}

std::optional<std::string> TableFile::parse() {
    const std::uint8_t* base = m_data;
    const std::size_t size = m_size;
    const bool wdl = m_kind == TableKind::Wdl;
    if (size < 5) return std::string("too short to be a tablebase file");
    if (std::memcmp(base, wdl ? kWdlMagic : kDtzMagic, 4) != 0)
        return std::string("not a Syzygy ") + (wdl ? "WDL" : "DTZ") + " file (wrong magic number)";
    ByteReader r{base, base + size, base + 4};
    const std::uint8_t flags = *r.at++;
    if (bool(flags & HasPawns) != m_info.hasPawns)
        return std::string("the file's pawn flag does not match the material of its name");
    const bool asymmetric = m_info.key != m_info.key2;
    if (wdl && bool(flags & Split) != asymmetric)
        return std::string("the file's side flag does not match the material of its name");

    m_sides = wdl && asymmetric ? 2 : 1;
    const int files = m_info.hasPawns ? 4 : 1;
    const bool bothPawns = m_info.hasPawns && m_info.pawnCount[1] > 0;
    const int pieces = m_info.pieceCount;
    for (int f = 0; f < files; ++f) {
        if (!r.has(1 + bothPawns + pieces)) return std::string("truncated in the piece list");
        const int order[2][2] = {{r.at[0] & 0xF, bothPawns ? r.at[1] & 0xF : 0xF},
                                 {r.at[0] >> 4, bothPawns ? r.at[1] >> 4 : 0xF}};
        r.at += 1 + bothPawns;
        for (int side = 0; side < m_sides; ++side) {
            Part& p = part(side, f);
            int counts[16] = {};
            for (int k = 0; k < pieces; ++k) {
                p.pieces[k] = std::uint8_t(side ? r.at[k] >> 4 : r.at[k] & 0xF);
                ++counts[p.pieces[k]];
            }
            // The pieces must be the name's, leading pawns first.
            for (int c = 0; c < kNumColors; ++c) {
                if (counts[fileCode(Color(c), King)] != 1)
                    return std::string("the file's pieces do not match its name");
                for (int t = Pawn; t <= Queen; ++t)
                    if (counts[fileCode(Color(c), PieceType(t))] != m_info.material.count[c][t])
                        return std::string("the file's pieces do not match its name");
            }
            for (int k = 0; k < m_info.pawnCount[0] + m_info.pawnCount[1]; ++k) {
                const Color c = k < m_info.pawnCount[0] ? m_info.leadColor : ~m_info.leadColor;
                if (p.pieces[k] != fileCode(c, Pawn))
                    return std::string("the file's pawns are not in the expected order");
            }
            if (auto error = setGroups(p, order[side][0], order[side][1], f)) return error;
        }
        r.at += pieces;
    }
    if (!r.align(2)) return std::string("truncated after the piece lists");

    for (int f = 0; f < files; ++f)
        for (int side = 0; side < m_sides; ++side) {
            Part& p = part(side, f);
            if (auto error = p.pairs.readHeader(r, p.size)) return error;
        }

    // DTZ: the maps from stored values to distances, per file, four per file (one for each WDL
    // class), bytes or (Wide) 16-bit words.
    if (!wdl) {
        for (int f = 0; f < files; ++f) {
            Part& p = part(0, f);
            const std::uint8_t partFlags = p.pairs.flags();
            if (!(partFlags & PairsData::Mapped)) continue;
            const bool wide = partFlags & PairsData::Wide;
            if (wide && !r.align(2)) return std::string("truncated in the value maps");
            for (int i = 0; i < 4; ++i) {
                if (!r.has(wide ? 2 : 1)) return std::string("truncated in the value maps");
                const std::uint32_t length = wide ? le16(r.at) : r.at[0];
                r.at += wide ? 2 : 1;
                if (!r.has(std::uint64_t(length) * (wide ? 2 : 1)))
                    return std::string("truncated in the value maps");
                p.mapStart[i] = r.offset();
                p.mapLength[i] = length;
                r.at += length * (wide ? 2 : 1);
            }
        }
        if (!r.align(2)) return std::string("truncated after the value maps");
    }

    for (int f = 0; f < files; ++f)
        for (int side = 0; side < m_sides; ++side)
            if (auto error = part(side, f).pairs.readSparseIndex(r)) return error;
    for (int f = 0; f < files; ++f)
        for (int side = 0; side < m_sides; ++side)
            if (auto error = part(side, f).pairs.readBlockLengths(r)) return error;
    for (int f = 0; f < files; ++f)
        for (int side = 0; side < m_sides; ++side)
            if (auto error = part(side, f).pairs.readBlocks(r)) return error;
    // Every file the generator writes is a multiple of 64 bytes (the blocks are 64-byte aligned,
    // padding included) plus a 16-byte checksum at the end, which the data must not reach. The
    // check comes last so that a cut inside the data is named by the part it cuts.
    if (size % 64 != kChecksumBytes)
        return "its length (" + std::to_string(size) + " bytes) is not " +
               std::to_string(kChecksumBytes) +
               " more than a multiple of 64, as every Syzygy file's is: a truncated or extended "
               "copy";
    if (std::uint64_t(base + size - r.at) < kChecksumBytes)
        return std::string(
            "the data runs into the checksum at the end of the file: a truncated copy");
    return std::nullopt;
}

RawProbe TableFile::probe(const Position& pos, int wdl, int& value) const {
    const EncodingTables& t = encodingTables();
    // The file stores its white as the side with the name's first material. A position with
    // the colours the other way round is probed with colours and ranks exchanged, and so is a
    // symmetric one with black to move (those files store white to move only).
    const bool symmetricBlackToMove = m_info.key == m_info.key2 && pos.sideToMove() == Black;
    const bool blackStronger = materialKey(pos) != m_info.key;
    const bool flip = symmetricBlackToMove || blackStronger;
    const int flipColor = flip ? 8 : 0;
    const int flipSquares = flip ? 56 : 0;
    const int side = int(flip) ^ int(pos.sideToMove());

    Square sq[kMaxTablePieces];
    std::uint8_t pc[kMaxTablePieces];
    int size = 0, leadCount = 0, file = 0;
    Bitboard leadPawns = 0;
    auto pawnOrder = [&t](Square a, Square b) { return t.mapPawns[a] < t.mapPawns[b]; };
    if (m_info.hasPawns) {
        // The file's leading colour, in the position's colours; the leader is the pawn nearest
        // the edge and, on the same file, the lowest, and its file (a-d) chooses the part.
        leadPawns = pos.pieces(flip ? ~m_info.leadColor : m_info.leadColor, Pawn);
        for (Bitboard b = leadPawns; b;) sq[size++] = Square(popLsb(b) ^ flipSquares);
        leadCount = size;
        std::swap(sq[0], *std::max_element(sq, sq + leadCount, pawnOrder));
        file = std::min(fileOf(sq[0]), 7 - fileOf(sq[0]));
    }
    // DTZ files store one side to move (per file): the caller searches a ply for the other.
    if (m_kind == TableKind::Dtz) {
        const int stored = part(0, file).pairs.flags() & PairsData::SideToMove;
        if (stored != side && !(m_info.key == m_info.key2 && !m_info.hasPawns))
            return RawProbe::ChangeSideToMove;
    }
    for (Bitboard b = pos.pieces() ^ leadPawns; b;) {
        if (size == m_info.pieceCount) return RawProbe::Failed;
        const Square s = popLsb(b);
        sq[size] = Square(s ^ flipSquares);
        pc[size++] = std::uint8_t(fileCode(pos.pieceOn(s)) ^ flipColor);
    }
    if (size != m_info.pieceCount) return RawProbe::Failed;

    const Part& p = part(side % m_sides, file);
    // The pieces in the file's order.
    for (int i = leadCount; i < size - 1; ++i)
        for (int j = i + 1; j < size; ++j)
            if (p.pieces[i] == pc[j]) {
                std::swap(pc[i], pc[j]);
                std::swap(sq[i], sq[j]);
                break;
            }
    for (int i = leadCount; i < size; ++i)
        if (pc[i] != p.pieces[i]) return RawProbe::Failed;

    // Mirror files e-h onto a-d.
    if (fileOf(sq[0]) > 3)
        for (int i = 0; i < size; ++i) sq[i] = Square(sq[i] ^ 7);

    std::uint64_t idx;
    if (m_info.hasPawns) {
        idx = std::uint64_t(t.leadPawnIdx[leadCount][sq[0]]);
        std::stable_sort(sq + 1, sq + leadCount, pawnOrder);
        for (int i = 1; i < leadCount; ++i) idx += t.binomial[i][t.mapPawns[sq[i]]];
    } else {
        // Without pawns every symmetry applies: the leader into a1-d4, then below the diagonal
        // (the first of the leading group that is off the diagonal decides).
        if (rankOf(sq[0]) > 3)
            for (int i = 0; i < size; ++i) sq[i] = Square(sq[i] ^ 56);
        for (int i = 0; i < p.groupLen[0]; ++i) {
            const int d = offDiagonal(sq[i]);
            if (!d) continue;
            if (d > 0)
                for (int j = i; j < size; ++j) sq[j] = transposed(sq[j]);
            break;
        }
        if (m_info.hasUniquePieces) {
            // Three leading pieces: 6 x 63 x 62 placements with the first off the diagonal, then
            // the cases with the first one, two or all three on it.
            const int adjust1 = sq[1] > sq[0];
            const int adjust2 = (sq[2] > sq[0]) + (sq[2] > sq[1]);
            if (offDiagonal(sq[0]))
                idx = std::uint64_t((t.mapA1D1D4[sq[0]] * 63 + (sq[1] - adjust1)) * 62 + sq[2] -
                                    adjust2);
            else if (offDiagonal(sq[1]))
                idx = std::uint64_t((6 * 63 + rankOf(sq[0]) * 28 + t.mapB1H1H7[sq[1]]) * 62 +
                                    sq[2] - adjust2);
            else if (offDiagonal(sq[2]))
                idx = std::uint64_t(6 * 63 * 62 + 4 * 28 * 62 + rankOf(sq[0]) * 7 * 28 +
                                    (rankOf(sq[1]) - adjust1) * 28 + t.mapB1H1H7[sq[2]]);
            else
                idx = std::uint64_t(6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + rankOf(sq[0]) * 7 * 6 +
                                    (rankOf(sq[1]) - adjust1) * 6 + (rankOf(sq[2]) - adjust2));
        } else {
            idx = std::uint64_t(t.mapKK[t.mapA1D1D4[sq[0]]][sq[1]]);
        }
    }
    idx *= p.groupFactor[0];

    // Every further group: a combination of the squares the earlier groups left free (pawns
    // of the second colour: of the 48 pawn squares).
    Square* group = sq + p.groupLen[0];
    bool otherPawns = m_info.hasPawns && m_info.pawnCount[1] > 0;
    for (int next = 1; p.groupLen[next]; ++next) {
        std::stable_sort(group, group + p.groupLen[next]);
        std::uint64_t n = 0;
        for (int i = 0; i < p.groupLen[next]; ++i) {
            const auto below = std::count_if(sq, group, [&](Square s) { return group[i] > s; });
            const int rankOffset = otherPawns ? 8 : 0;
            const int slot = int(group[i]) - int(below) - rankOffset;
            if (slot < 0) return RawProbe::Failed;
            n += t.binomial[i + 1][slot];
        }
        otherPawns = false;
        idx += n * p.groupFactor[next];
        group += p.groupLen[next];
    }
    if (idx >= p.size) return RawProbe::Failed;

    const std::optional<int> stored = p.pairs.value(idx);
    if (!stored) return RawProbe::Failed;
    if (m_kind == TableKind::Wdl) {
        if (*stored > 4) return RawProbe::Failed;
        value = *stored - 2;
        return RawProbe::Ok;
    }

    // DTZ: the stored value through the map of the position's WDL class, in moves or plies.
    const Part& p0 = part(0, file);
    const std::uint8_t flags = p0.pairs.flags();
    int distance = *stored;
    if (flags & PairsData::Mapped) {
        constexpr int kMapOfWdl[5] = {1, 3, 0, 2, 0}; // loss, blessed loss, -, cursed win, win
        const int m = kMapOfWdl[wdl + 2];
        if (std::uint32_t(distance) >= p0.mapLength[m]) return RawProbe::Failed;
        const std::uint8_t* map = m_data + p0.mapStart[m];
        distance = flags & PairsData::Wide ? int(le16(map + 2 * distance)) : map[distance];
    }
    if ((wdl == 2 && !(flags & PairsData::WinPlies)) ||
        (wdl == -2 && !(flags & PairsData::LossPlies)) || wdl == 1 || wdl == -1)
        distance *= 2;
    value = distance + 1;
    return RawProbe::Ok;
}

} // namespace axon::tablebase

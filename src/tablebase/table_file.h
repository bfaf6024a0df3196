// SPDX-License-Identifier: GPL-3.0-or-later
// One Syzygy file, WDL (.rtbw) or DTZ (.rtbz), read from its memory map: the header checked
// against the material its name promises, and the raw value stored for a position (before
// captures and en passant are resolved: tablebase/tablebases.h does that).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "chess/position.h"
#include "tablebase/encoding.h"
#include "tablebase/mapped_file.h"
#include "tablebase/material.h"
#include "tablebase/pairs_data.h"
#include "util/result.h"

namespace axon::tablebase {

enum class TableKind { Wdl, Dtz };

// What a table's name says: its material with the file's white first, and how it is encoded.
struct TableInfo {
    Material material;
    MaterialKey key = 0;  // material as named (white = the name's first part)
    MaterialKey key2 = 0; // the colours exchanged (== key for symmetric material)
    int pieceCount = 0;
    bool hasPawns = false;
    // A piece other than a king alone of its kind: three pieces then lead the encoding.
    bool hasUniquePieces = false;
    // The leading pawns' colour (in the file's orientation) and the two pawn counts, leaders
    // first. The side with fewer pawns leads when both have some.
    chess::Color leadColor = chess::White;
    int pawnCount[2] = {0, 0};

    static TableInfo fromMaterial(const Material& m);
};

// A probe's outcome at the level of one file.
enum class RawProbe {
    Ok,
    ChangeSideToMove, // a DTZ file stores the other side to move only
    Failed            // inconsistent data at this index
};

class TableFile {
  public:
    // Maps and checks `path`. The message names the file and what is wrong with it.
    static util::Result<std::unique_ptr<TableFile>> load(const std::string& path, TableKind kind,
                                                         const TableInfo& info);
    // The same over bytes in memory (kept by the table): the fuzz target's way in.
    static util::Result<std::unique_ptr<TableFile>>
    fromBytes(std::vector<std::uint8_t> bytes, TableKind kind, const TableInfo& info);

    // The stored value for `pos` (whose material is the table's, either way round): WDL -2..2;
    // DTZ the distance in plies as stored (positive), given the position's WDL `wdl`.
    RawProbe probe(const chess::Position& pos, int wdl, int& value) const;

  private:
    struct Part {
        std::uint8_t pieces[kMaxTablePieces] = {}; // file piece codes in encoding order
        int groupLen[kMaxTablePieces + 1] = {};    // zero-terminated
        std::uint64_t groupFactor[kMaxTablePieces + 1] = {};
        std::uint64_t size = 0;
        PairsData pairs;
        // DTZ: per WDL class (win, loss, cursed win, blessed loss), where its value map starts
        // (byte offset in the file) and how many entries it has.
        std::uint64_t mapStart[4] = {};
        std::uint32_t mapLength[4] = {};
    };

    std::optional<std::string> parse();
    std::optional<std::string> setGroups(Part& part, int order0, int order1, int file);
    Part& part(int side, int file) { return m_parts[side][m_info.hasPawns ? file : 0]; }
    const Part& part(int side, int file) const { return m_parts[side][m_info.hasPawns ? file : 0]; }

    std::unique_ptr<MappedFile> m_file;
    std::vector<std::uint8_t> m_bytes; // fromBytes only
    const std::uint8_t* m_data = nullptr;
    std::size_t m_size = 0;
    TableKind m_kind = TableKind::Wdl;
    TableInfo m_info;
    int m_sides = 1;
    Part m_parts[2][4];
};

} // namespace axon::tablebase

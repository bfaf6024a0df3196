// SPDX-License-Identifier: GPL-3.0-or-later
// A set of Syzygy tablebases: the tables found in some directories, opened when first probed,
// and the probes the search and the front ends ask for: win/draw/loss with the fifty-move rule
// (WDL), distance to the next capture or pawn move (DTZ), and root moves ranked so that a won
// position stays won and a drawn one is never lost. Shared by every search thread: lookups read
// only what open() built, and each file is mapped once (std::call_once).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "chess/position.h"
#include "tablebase/table_file.h"
#include "util/result.h"

namespace axon::tablebase {

// The result for the side to move. Cursed wins and blessed losses are wins and losses that the
// fifty-move rule turns into draws.
enum class Wdl : int { Loss = -2, BlessedLoss = -1, Draw = 0, CursedWin = 1, Win = 2 };
constexpr Wdl operator-(Wdl w) { return Wdl(-int(w)); }
const char* wdlName(Wdl w); // "win", "cursed win", "draw", "blessed loss", "loss"

// Root ranks: wins above draws above losses; among wins, those the fifty-move rule cannot spoil
// are equal, the others ordered by how close they come to it (and losses the other way round).
constexpr int kMaxDtzRank = 1 << 18;

struct RankedMove {
    chess::Move move;
    int rank = 0;
    // The result the move keeps for the side making it, the fifty-move rule counted from the
    // root's counter (with useRule50).
    Wdl wdl = Wdl::Draw;
    // Plies to the next zeroing move counted from the root, signed like wdl (0 for a draw);
    // unknown (0) when ranked by WDL only.
    int dtz = 0;
};

struct RootRanking {
    std::vector<RankedMove> moves; // in the order given
    bool byDtz = false;            // false: the DTZ tables were missing, ranked by WDL
};

// The directories of a SyzygyPath value: separated by ':' (';' on Windows), empty parts skipped.
std::vector<std::string> splitTablePaths(std::string_view paths);

class Tablebases {
  public:
    // Finds the tables in `paths`: directories separated by ':' (';' on Windows); "" and
    // "<empty>" give an empty set. A path that is not a directory is an error naming it.
    static util::Result<std::shared_ptr<Tablebases>> open(std::string_view paths);

    int maxPieces() const { return m_maxPieces; }
    int wdlCount() const { return m_wdlCount; }
    int dtzCount() const { return m_dtzCount; }
    bool empty() const { return m_wdlCount == 0; }

    // Probes need a position without castling rights and with at most maxPieces() pieces; they
    // make and unmake moves on `pos` and leave it as it was. Nothing when a table is missing or
    // damaged.
    std::optional<Wdl> probeWdl(chess::Position& pos) const;
    // Plies to a zeroing move with best play, signed like the WDL: 1 or -1 when the zeroing move
    // comes now, 100 more for cursed wins and blessed losses, 0 for a draw. May be one ply too
    // long where the tables store moves rather than plies (the format's rounding).
    std::optional<int> probeDtz(chess::Position& pos) const;
    // The legal `moves` of the root ranked by DTZ (the position's fifty-move counter and game
    // history count), or by WDL where DTZ tables are missing; nothing when not in the tables.
    // useRule50 false: cursed wins rank as wins.
    std::optional<RootRanking>
    rankRootMoves(chess::Position& pos, std::span<const chess::Move> moves, bool useRule50) const;

    // The damaged files found since the last call (each named once, with what is wrong).
    std::vector<std::string> takeErrors() const;

  private:
    struct Entry {
        TableInfo info;
        std::string path[2]; // WDL, DTZ ("" when absent)
        mutable std::once_flag once[2];
        mutable std::unique_ptr<TableFile> file[2];
    };
    enum class Status { Ok, Failed, ZeroingBestMove };

    const TableFile* table(const Entry& e, TableKind kind) const;
    const Entry* find(const chess::Position& pos) const;
    int probeWdlTable(chess::Position& pos, Status& status) const;
    int searchWdl(chess::Position& pos, Status& status, bool checkZeroingMoves) const;
    int probeDtzInternal(chess::Position& pos, Status& status) const;
    std::optional<RootRanking> rankByDtz(chess::Position& pos,
                                         std::span<const chess::Move> moves) const;
    std::optional<RootRanking> rankByWdl(chess::Position& pos,
                                         std::span<const chess::Move> moves) const;

    std::vector<std::unique_ptr<Entry>> m_entries;
    std::unordered_map<MaterialKey, const Entry*> m_byKey;
    int m_maxPieces = 0;
    int m_wdlCount = 0;
    int m_dtzCount = 0;
    mutable std::mutex m_errorMutex;
    mutable std::vector<std::string> m_errors;
};

} // namespace axon::tablebase

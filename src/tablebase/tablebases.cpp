// SPDX-License-Identifier: GPL-3.0-or-later
#include "tablebase/tablebases.h"

#include <algorithm>
#include <system_error>

#ifndef __EMSCRIPTEN__
#include <filesystem>
#endif

#include "chess/movegen.h"

namespace axon::tablebase {

using namespace chess;

namespace {

// The DTZ of a zeroing move's position before it is made, from the WDL after it.
int dtzBeforeZeroing(int wdl) {
    switch (wdl) {
    case 2: return 1;
    case 1: return 101;
    case -1: return -101;
    case -2: return -1;
    default: return 0;
    }
}

int sign(int v) { return (v > 0) - (v < 0); }

bool isMate(const Position& pos) { return pos.inCheck() && countLegalMoves(pos) == 0; }

// A draw the game itself ends in, one ply after the root: the fifty-move rule (unless the move
// mated) or a threefold repetition.
bool isGameDraw(const Position& pos) {
    return (pos.isFiftyMoveDraw() && !isMate(pos)) || pos.isRepetition(1);
}

} // namespace

const char* wdlName(Wdl w) {
    switch (w) {
    case Wdl::Loss: return "loss";
    case Wdl::BlessedLoss: return "blessed loss";
    case Wdl::Draw: return "draw";
    case Wdl::CursedWin: return "cursed win";
    case Wdl::Win: return "win";
    }
    return "?";
}

std::vector<std::string> splitTablePaths(std::string_view paths) {
#ifdef _WIN32
    constexpr char kPathSeparator = ';';
#else
    constexpr char kPathSeparator = ':';
#endif
    std::vector<std::string> directories;
    for (std::size_t start = 0; start <= paths.size();) {
        std::size_t end = paths.find(kPathSeparator, start);
        if (end == std::string_view::npos) end = paths.size();
        if (end > start) directories.emplace_back(paths.substr(start, end - start));
        start = end + 1;
    }
    return directories;
}

util::Result<std::shared_ptr<Tablebases>> Tablebases::open(std::string_view paths) {
    auto set = std::shared_ptr<Tablebases>(new Tablebases());
    if (paths.empty() || paths == "<empty>") return set;
#ifdef __EMSCRIPTEN__
    return util::Error{"tablebases are read by the native engine only (axon serve)"};
#else
    namespace fs = std::filesystem;
    const std::vector<std::string> directories = splitTablePaths(paths);
    // Every directory first, so a typo refuses the whole option rather than loading half.
    for (const std::string& dir : directories) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) return util::Error{dir + ": no such directory"};
    }
    std::unordered_map<MaterialKey, Entry*> byKey;
    for (const std::string& dir : directories) {
        std::error_code ec;
        std::vector<fs::path> files;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            files.push_back(it->path());
        if (ec) return util::Error{dir + ": " + ec.message()};
        std::sort(files.begin(), files.end());
        for (const fs::path& file : files) {
            const std::string ext = file.extension().string();
            const int kind = ext == ".rtbw" ? 0 : ext == ".rtbz" ? 1 : -1;
            if (kind < 0) continue;
            const auto material = parseTableName(file.stem().string());
            if (!material || material->pieceCount() > kMaxTablePieces) continue;
            const TableInfo info = TableInfo::fromMaterial(*material);
            Entry*& entry = byKey[info.key];
            if (!entry) {
                // The same material named the other way round is the same table.
                if (auto mirrored = byKey.find(info.key2);
                    mirrored != byKey.end() && mirrored->second) {
                    entry = mirrored->second;
                } else {
                    set->m_entries.push_back(std::make_unique<Entry>());
                    entry = set->m_entries.back().get();
                    entry->info = info;
                    byKey[info.key2] = entry;
                }
            }
            // The first directory that has a file keeps it; a mirrored name is not the same
            // file, whose white is the other side.
            if (entry->info.key != info.key || !entry->path[kind].empty()) continue;
            entry->path[kind] = file.string();
        }
    }
    for (const auto& entry : set->m_entries) {
        if (entry->path[0].empty()) continue; // DTZ alone: no table to probe in the search
        set->m_byKey[entry->info.key] = entry.get();
        set->m_byKey[entry->info.key2] = entry.get();
        ++set->m_wdlCount;
        set->m_dtzCount += !entry->path[1].empty();
        set->m_maxPieces = std::max(set->m_maxPieces, entry->info.pieceCount);
    }
    return set;
#endif
}

std::vector<std::string> Tablebases::takeErrors() const {
    std::lock_guard lock(m_errorMutex);
    return std::exchange(m_errors, {});
}

const TableFile* Tablebases::table(const Entry& e, TableKind kind) const {
    const int k = kind == TableKind::Wdl ? 0 : 1;
    if (e.path[k].empty()) return nullptr;
    std::call_once(e.once[k], [&] {
        auto loaded = TableFile::load(e.path[k], kind, e.info);
        if (loaded) {
            e.file[k] = std::move(*loaded);
        } else {
            std::lock_guard lock(m_errorMutex);
            m_errors.push_back(loaded.error());
        }
    });
    return e.file[k].get();
}

const Tablebases::Entry* Tablebases::find(const Position& pos) const {
    const auto it = m_byKey.find(materialKey(pos));
    return it == m_byKey.end() ? nullptr : it->second;
}

int Tablebases::probeWdlTable(Position& pos, Status& status) const {
    if (pos.pieces() == pos.pieces(King)) return 0; // KvK has no table
    const Entry* entry = find(pos);
    const TableFile* file = entry ? table(*entry, TableKind::Wdl) : nullptr;
    int value = 0;
    if (!file || file->probe(pos, 0, value) != RawProbe::Ok) status = Status::Failed;
    return value;
}

// The WDL of a position, from the table and its captures (and, for the DTZ probe, its pawn
// moves). The generator stores "don't care" where a capture already decides, and nothing knows
// en passant: so the captures are searched, and their best result counts where it is at least
// the table's. ZeroingBestMove: a capture or pawn move is the best move, so the DTZ table need
// not (and must not) be asked.
int Tablebases::searchWdl(Position& pos, Status& status, bool checkZeroingMoves) const {
    int best = -2;
    const MoveList moves(pos);
    int counted = 0;
    for (Move m : moves) {
        if (!pos.isCapture(m) && (!checkZeroingMoves || typeOf(pos.movedPiece(m)) != Pawn))
            continue;
        ++counted;
        pos.makeMove(m);
        const int value = -searchWdl(pos, status, false);
        pos.unmakeMove();
        if (status == Status::Failed) return 0;
        if (value > best) {
            best = value;
            if (value >= 2) {
                status = Status::ZeroingBestMove;
                return value;
            }
        }
    }
    // With every legal move searched the table is not needed (and may be wrong, as with en
    // passant).
    const bool allSearched = counted > 0 && counted == moves.size();
    int value = best;
    if (!allSearched) {
        value = probeWdlTable(pos, status);
        if (status == Status::Failed) return 0;
    }
    if (best >= value) {
        status = best > 0 || allSearched ? Status::ZeroingBestMove : Status::Ok;
        return best;
    }
    status = Status::Ok;
    return value;
}

std::optional<Wdl> Tablebases::probeWdl(Position& pos) const {
    if (pos.castlingRights() != NoCastling || popcount(pos.pieces()) > m_maxPieces)
        return std::nullopt;
    Status status = Status::Ok;
    const int value = searchWdl(pos, status, false);
    if (status == Status::Failed) return std::nullopt;
    return Wdl(value);
}

int Tablebases::probeDtzInternal(Position& pos, Status& status) const {
    status = Status::Ok;
    const int wdl = searchWdl(pos, status, true);
    if (status == Status::Failed || wdl == 0) return 0; // DTZ stores no draws
    if (status == Status::ZeroingBestMove) return dtzBeforeZeroing(wdl);

    const Entry* entry = find(pos);
    const TableFile* file = entry ? table(*entry, TableKind::Dtz) : nullptr;
    if (!file) {
        status = Status::Failed;
        return 0;
    }
    int dtz = 0;
    const RawProbe raw = file->probe(pos, wdl, dtz);
    if (raw == RawProbe::Failed) {
        status = Status::Failed;
        return 0;
    }
    if (raw == RawProbe::Ok) return (dtz + 100 * (wdl == 1 || wdl == -1)) * sign(wdl);

    // The file stores the other side to move: one ply of search, the best DTZ of the moves
    // that keep the result.
    int best = 0xFFFF;
    for (Move m : MoveList(pos)) {
        const bool zeroing = pos.isCapture(m) || typeOf(pos.movedPiece(m)) == Pawn;
        pos.makeMove(m);
        // A zeroing move's DTZ is the position's before it; the search after it gives the sign.
        int value = zeroing ? -dtzBeforeZeroing(searchWdl(pos, status, false))
                            : -probeDtzInternal(pos, status);
        if (value == 1 && isMate(pos)) best = 1;
        if (!zeroing) value += sign(value);
        if (value < best && sign(value) == sign(wdl)) best = value;
        pos.unmakeMove();
        if (status == Status::Failed) return 0;
    }
    return best == 0xFFFF ? -1 : best; // no legal move: mated
}

std::optional<int> Tablebases::probeDtz(Position& pos) const {
    if (pos.castlingRights() != NoCastling || popcount(pos.pieces()) > m_maxPieces)
        return std::nullopt;
    Status status = Status::Ok;
    const int dtz = probeDtzInternal(pos, status);
    if (status == Status::Failed) return std::nullopt;
    return dtz;
}

std::optional<RootRanking> Tablebases::rankByDtz(Position& pos, std::span<const Move> moves) const {
    RootRanking ranking;
    ranking.byDtz = true;
    const int cnt50 = pos.halfmoveClock();
    // A repetition since the last zeroing move: a win must then come within the fifty moves
    // however the game goes on, so wins rank by their distance.
    const bool repeated = pos.hasRepeatedSinceZeroing();
    for (Move m : moves) {
        pos.makeMove(m);
        Status status = Status::Ok;
        int dtz = 0;
        if (pos.halfmoveClock() == 0) {
            dtz = dtzBeforeZeroing(-searchWdl(pos, status, false));
        } else if (!isGameDraw(pos)) {
            dtz = -probeDtzInternal(pos, status);
            dtz = dtz > 0 ? dtz + 1 : dtz < 0 ? dtz - 1 : 0;
        }
        if (dtz == 2 && isMate(pos)) dtz = 1;
        pos.unmakeMove();
        if (status == Status::Failed) return std::nullopt;

        int rank = 0;
        if (dtz > 0)
            rank = dtz + cnt50 <= 99 && !repeated ? kMaxDtzRank : kMaxDtzRank - (dtz + cnt50);
        else if (dtz < 0)
            rank = -dtz * 2 + cnt50 < 100 ? -kMaxDtzRank : -kMaxDtzRank + (-dtz + cnt50);
        ranking.moves.push_back({m, rank, Wdl::Draw, dtz});
    }
    return ranking;
}

std::optional<RootRanking> Tablebases::rankByWdl(Position& pos, std::span<const Move> moves) const {
    constexpr int kRankOfWdl[5] = {-kMaxDtzRank, -kMaxDtzRank + 101, 0, kMaxDtzRank - 101,
                                   kMaxDtzRank};
    RootRanking ranking;
    for (Move m : moves) {
        pos.makeMove(m);
        Status status = Status::Ok;
        const int wdl = isGameDraw(pos) ? 0 : -searchWdl(pos, status, false);
        pos.unmakeMove();
        if (status == Status::Failed) return std::nullopt;
        ranking.moves.push_back({m, kRankOfWdl[wdl + 2], Wdl::Draw, 0});
    }
    return ranking;
}

std::optional<RootRanking> Tablebases::rankRootMoves(Position& pos, std::span<const Move> moves,
                                                     bool useRule50) const {
    if (pos.castlingRights() != NoCastling || popcount(pos.pieces()) > m_maxPieces || moves.empty())
        return std::nullopt;
    auto ranking = rankByDtz(pos, moves);
    if (!ranking) ranking = rankByWdl(pos, moves);
    if (!ranking) return std::nullopt;
    // The result each move keeps: a win that the fifty-move rule cannot spoil from here, a win it
    // spoils (cursed), and so on; without the rule every win is a win.
    const int bound = useRule50 ? kMaxDtzRank - 100 : 1;
    for (RankedMove& m : ranking->moves)
        m.wdl = m.rank >= bound   ? Wdl::Win
                : m.rank > 0      ? Wdl::CursedWin
                : m.rank == 0     ? Wdl::Draw
                : m.rank > -bound ? Wdl::BlessedLoss
                                  : Wdl::Loss;
    return ranking;
}

} // namespace axon::tablebase

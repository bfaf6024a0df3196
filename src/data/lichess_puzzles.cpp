// SPDX-License-Identifier: GPL-3.0-or-later
// Lichess puzzle CSV rows to records: FEN, the opponent's move, then the solver's moves.
#include "data/lichess_puzzles.h"

#include <string_view>
#include <vector>

#include "chess/fen.h"
#include "chess/uci_move.h"

namespace axon::data {

namespace {

using namespace chess;

constexpr std::size_t kMaxLineBytes = std::size_t(1) << 16;

std::vector<std::string_view> split(std::string_view text, char sep) {
    std::vector<std::string_view> parts;
    for (;;) {
        const auto at = text.find(sep);
        parts.push_back(text.substr(0, at));
        if (at == std::string_view::npos) return parts;
        text.remove_prefix(at + 1);
    }
}

// The puzzle's records, or why the row is bad.
util::Result<std::vector<TrainingRecord>>
puzzleRecords(std::string_view fen, std::string_view moveText, const PuzzleOptions& options) {
    auto parsed = parseFen(fen);
    if (!parsed) return util::makeError("FEN: " + parsed.error());
    Position pos = std::move(*parsed);
    if (!fitsRecord(pos)) return util::makeError("more than 32 pieces");
    std::vector<std::string_view> moves;
    for (auto m : split(moveText, ' '))
        if (!m.empty()) moves.push_back(m);
    if (moves.size() < 2)
        return util::makeError("Moves needs the opponent's move and a solution move");
    std::vector<TrainingRecord> records;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        auto move = parseUciMove(pos, moves[i]);
        if (!move) return util::makeError("move " + std::string(moves[i]) + ": " + move.error());
        // Odd indices are the solver's moves, played from the positions recorded.
        if (i % 2 == 1 && (options.wholeLine || i == 1))
            records.push_back(
                makeRecord(pos, kPuzzleScore, GameResult::Draw, *move, pos.gamePly()));
        pos.makeMove(*move);
    }
    return records;
}

} // namespace

std::string convertPuzzles(std::istream& in, const PuzzleOptions& options, ConvertOutput& out) {
    std::string line;
    if (!std::getline(in, line)) return "empty input (expected a Lichess puzzle CSV header)";
    if (!line.empty() && line.back() == '\r') line.pop_back();
    int fenColumn = -1, movesColumn = -1;
    const auto header = split(line, ',');
    for (std::size_t i = 0; i < header.size(); ++i) {
        if (header[i] == "FEN") fenColumn = int(i);
        if (header[i] == "Moves") movesColumn = int(i);
    }
    if (fenColumn < 0 || movesColumn < 0)
        return "not a Lichess puzzle CSV: the first line must be a header naming the FEN and "
               "Moves columns (PuzzleId,FEN,Moves,...)";
    const std::size_t needed = std::size_t(std::max(fenColumn, movesColumn)) + 1;
    std::uint64_t row = 1;
    while (std::getline(in, line)) {
        ++row;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        out.item();
        if (line.size() > kMaxLineBytes) {
            out.malformed("row " + std::to_string(row) + ": longer than " +
                          std::to_string(kMaxLineBytes) + " bytes");
            continue;
        }
        // The database's fields hold no commas (themes and tags are space-separated).
        const auto fields = split(line, ',');
        if (fields.size() < needed) {
            out.malformed("row " + std::to_string(row) + ": too few fields");
            continue;
        }
        auto records = puzzleRecords(fields[std::size_t(fenColumn)],
                                     fields[std::size_t(movesColumn)], options);
        if (!records) {
            out.malformed("row " + std::to_string(row) + ": " + records.error());
            continue;
        }
        for (const TrainingRecord& r : *records)
            if (auto e = out.write(r); !e.empty()) return e;
    }
    return {};
}

} // namespace axon::data

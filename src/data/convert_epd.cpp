// SPDX-License-Identifier: GPL-3.0-or-later
// EPD to records: ce, bm and the result conventions (c9, result).
#include "data/convert_epd.h"

namespace axon::data {

namespace {

using namespace chess;

constexpr int kResultComment = 9; // c9: where quiet-position sets put the game's result

// A result operand without the spaces, brackets and carriage return around it ("[1-0]").
std::string_view stripResultDecoration(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '['))
        s.remove_prefix(1);
    while (!s.empty() &&
           (s.back() == ' ' || s.back() == '\t' || s.back() == ']' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

} // namespace

std::optional<double> parseResultText(std::string_view text) {
    text = stripResultDecoration(text);
    if (text == "1-0" || text == "1.0" || text == "1") return 1.0;
    if (text == "0-1" || text == "0.0" || text == "0") return 0.0;
    if (text == "1/2-1/2" || text == "0.5" || text == "1/2") return 0.5;
    return std::nullopt;
}

TrainingRecord epdRecord(const EpdRecord& epd) {
    std::optional<double> white = parseResultText(epd.comments[kResultComment]);
    for (const EpdOperation& op : epd.otherOperations)
        if (op.opcode == "result" && !op.operands.empty())
            if (auto r = parseResultText(op.operands.front().text)) white = r;
    const Position& pos = epd.position;
    const GameResult result = white ? resultFor(pos.sideToMove(), *white) : GameResult::Draw;
    const Move best = epd.bestMoves.empty() ? Move::none() : epd.bestMoves.front();
    return makeRecord(pos, epd.centipawns.value_or(0), result, best, pos.gamePly());
}

std::string convertEpd(std::istream& in, ConvertOutput& out) {
    std::string line;
    std::uint64_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        std::string_view text = line;
        while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
            text.remove_prefix(1);
        if (text.empty() || text == "\r" || text.front() == '#') continue;
        out.item();
        auto epd = parseEpd(text);
        if (!epd) {
            out.malformed("line " + std::to_string(number) + ": " + epd.error());
            continue;
        }
        if (!fitsRecord(epd->position)) {
            out.malformed("line " + std::to_string(number) + ": more than 32 pieces");
            continue;
        }
        if (!epd->centipawns) out.note("positions without ce (score 0)");
        if (epd->bestMoves.empty()) out.note("positions without bm");
        if (auto e = out.write(epdRecord(*epd)); !e.empty()) return e;
    }
    return {};
}

} // namespace axon::data

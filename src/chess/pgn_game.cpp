// SPDX-License-Identifier: GPL-3.0-or-later
// PGN game record helpers: tag access, the start position, and the comment commands.
#include "chess/pgn_game.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "chess/fen.h"
#include "util/text.h"

namespace axon::chess {

namespace {

void appendSpaced(std::string& out, std::string_view piece) {
    piece = util::trimAsciiSpace(piece);
    if (piece.empty()) return;
    if (!out.empty()) out += ' ';
    out.append(piece);
}

// Reads a run of at most `maxDigits` digits at the front of `s`; false when there is none or it
// is longer (so values stay far from overflow).
bool takeNumber(std::string_view& s, int maxDigits, std::int64_t& value, int* digits = nullptr) {
    int n = 0;
    value = 0;
    while (n < int(s.size()) && util::isAsciiDigit(s[n])) {
        if (n == maxDigits) return false;
        value = value * 10 + (s[n] - '0');
        ++n;
    }
    if (n == 0) return false;
    if (digits) *digits = n;
    s.remove_prefix(n);
    return true;
}

// "0.27", "-1.5", "12" (pawns) to centipawns, rounding half away from zero at the third decimal.
std::optional<int> parsePawns(std::string_view s) {
    bool negative = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        negative = s[0] == '-';
        s.remove_prefix(1);
    }
    std::int64_t whole = 0;
    if (!takeNumber(s, 6, whole)) return std::nullopt;
    std::int64_t cp = whole * 100;
    if (!s.empty() && s[0] == '.') {
        s.remove_prefix(1);
        int place = 0;
        for (; !s.empty() && util::isAsciiDigit(s[0]); s.remove_prefix(1), ++place) {
            const int d = s[0] - '0';
            if (place == 0)
                cp += d * 10;
            else if (place == 1)
                cp += d;
            else if (place == 2 && d >= 5)
                cp += 1;
        }
        if (place == 0) return std::nullopt;
    }
    if (!s.empty()) return std::nullopt;
    return int(negative ? -cp : cp);
}

bool applyEval(std::string_view args, PgnMove& move) {
    // Some exports append the depth: "[%eval 0.27,21]".
    if (const size_t comma = args.find(','); comma != std::string_view::npos)
        args = args.substr(0, comma);
    if (!args.empty() && args[0] == '#') {
        args.remove_prefix(1);
        bool negative = false;
        if (!args.empty() && (args[0] == '-' || args[0] == '+')) {
            negative = args[0] == '-';
            args.remove_prefix(1);
        }
        std::int64_t n = 0;
        if (!takeNumber(args, 4, n) || !args.empty()) return false;
        move.evalMate = int(negative ? -n : n);
        move.evalCp.reset();
        return true;
    }
    const auto cp = parsePawns(args);
    if (!cp) return false;
    move.evalCp = *cp;
    move.evalMate.reset();
    return true;
}

// "h:mm:ss", "mm:ss" or "ss", each optionally with a fraction of a second.
std::optional<double> parseClock(std::string_view s) {
    std::int64_t fields[3] = {0, 0, 0};
    int count = 0;
    while (true) {
        if (count == 3 || !takeNumber(s, 7, fields[count])) return std::nullopt;
        ++count;
        if (s.empty() || s[0] != ':') break;
        s.remove_prefix(1);
    }
    double fraction = 0;
    if (!s.empty() && s[0] == '.') {
        s.remove_prefix(1);
        std::int64_t digits = 0;
        int n = 0;
        if (!takeNumber(s, 9, digits, &n)) return std::nullopt;
        constexpr double kPowersOfTen[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
        fraction = double(digits) / kPowersOfTen[n];
    }
    if (!s.empty()) return std::nullopt;
    std::int64_t whole = 0;
    for (int i = 0; i < count; ++i) whole = whole * 60 + fields[i];
    return double(whole) + fraction;
}

// Applies "eval 0.27" / "clk 0:05:00" / "emt 0:00:03"; false leaves the command as text.
bool applyCommand(std::string_view command, PgnMove& move) {
    command = util::trimAsciiSpace(command);
    size_t nameEnd = 0;
    while (nameEnd < command.size() && !util::isAsciiSpace(command[nameEnd])) ++nameEnd;
    const std::string_view name = command.substr(0, nameEnd);
    const std::string_view args = util::trimAsciiSpace(command.substr(nameEnd));
    if (name == "eval") return applyEval(args, move);
    if (name == "clk" || name == "emt") {
        const auto seconds = parseClock(args);
        if (!seconds) return false;
        (name == "clk" ? move.clockSeconds : move.emtSeconds) = *seconds;
        return true;
    }
    return false;
}

} // namespace

std::string PgnGame::tag(std::string_view name) const {
    for (const auto& [key, value] : tags)
        if (key == name) return value;
    return {};
}

bool PgnGame::hasTag(std::string_view name) const {
    for (const auto& entry : tags)
        if (entry.first == name) return true;
    return false;
}

void PgnGame::setTag(std::string_view name, std::string value) {
    for (auto& entry : tags) {
        if (entry.first == name) {
            entry.second = std::move(value);
            return;
        }
    }
    tags.emplace_back(std::string(name), std::move(value));
}

util::Result<Position> PgnGame::startPosition() const {
    auto pos = parseFen(startFen);
    if (pos.ok() && chess960) pos->setChess960(true);
    return pos;
}

void PgnGame::clear() {
    tags.clear();
    startFen = Position::kStartFen;
    chess960 = false;
    preComment.clear();
    moves.clear();
    result = "*";
    number = 0;
    firstLine = 0;
}

std::optional<std::string> normalizeResult(std::string_view text) {
    if (text == "1-0" || text == "0-1" || text == "1/2-1/2" || text == "*")
        return std::string(text);
    if (text == "\xC2\xBD-\xC2\xBD") return std::string("1/2-1/2");
    return std::nullopt;
}

void absorbComment(std::string_view comment, PgnMove& move) {
    // Text between recognised commands is kept; an unrecognised command stays in it verbatim.
    size_t segmentStart = 0, pos = 0;
    while (true) {
        const size_t open = comment.find("[%", pos);
        if (open == std::string_view::npos) break;
        const size_t close = comment.find(']', open);
        if (close == std::string_view::npos) break;
        if (applyCommand(comment.substr(open + 2, close - open - 2), move)) {
            appendSpaced(move.comment, comment.substr(segmentStart, open - segmentStart));
            segmentStart = close + 1;
        }
        pos = close + 1;
    }
    appendSpaced(move.comment, comment.substr(segmentStart));
}

std::string commentWithCommands(const PgnMove& move) {
    std::string text;
    if (move.evalMate)
        appendSpaced(text, "[%eval #" + std::to_string(*move.evalMate) + "]");
    else if (move.evalCp)
        appendSpaced(text, "[%eval " + formatEvalCp(*move.evalCp) + "]");
    if (move.clockSeconds) appendSpaced(text, "[%clk " + formatClock(*move.clockSeconds) + "]");
    if (move.emtSeconds) appendSpaced(text, "[%emt " + formatClock(*move.emtSeconds) + "]");
    appendSpaced(text, move.comment);
    return text;
}

std::string formatEvalCp(int cp) {
    const std::int64_t magnitude = std::abs(std::int64_t(cp));
    std::string text = cp < 0 ? "-" : "";
    text += std::to_string(magnitude / 100) + '.';
    const int hundredths = int(magnitude % 100);
    text += char('0' + hundredths / 10);
    if (hundredths % 10) text += char('0' + hundredths % 10);
    return text;
}

std::string formatClock(double seconds) {
    if (!(seconds > 0)) seconds = 0; // also catches NaN
    if (seconds > 1e12) seconds = 1e12;
    const auto millis = std::int64_t(std::llround(seconds * 1000));
    const std::int64_t whole = millis / 1000;
    const auto twoDigits = [](std::int64_t v) {
        return std::string(1, char('0' + v / 10)) + char('0' + v % 10);
    };
    std::string text = std::to_string(whole / 3600) + ':' + twoDigits(whole / 60 % 60) + ':' +
                       twoDigits(whole % 60);
    if (std::int64_t frac = millis % 1000) {
        std::string digits = {char('0' + frac / 100), char('0' + frac / 10 % 10),
                              char('0' + frac % 10)};
        while (digits.back() == '0') digits.pop_back();
        text += '.' + digits;
    }
    return text;
}

} // namespace axon::chess

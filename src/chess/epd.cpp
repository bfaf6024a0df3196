// SPDX-License-Identifier: GPL-3.0-or-later
// EPD reader and writer.
#include "chess/epd.h"

#include <charconv>

#include "chess/fen.h"
#include "chess/san.h"
#include "util/text.h"

namespace axon::chess {

namespace {

using util::makeError;

// A cursor over one line. Words end at whitespace, ';' and '"', so "bm e4;" and 'id"x"' split
// where a reader would expect.
class Scanner {
  public:
    explicit Scanner(std::string_view text) : m_text(text) {}

    bool atEnd() {
        while (m_pos < m_text.size() && util::isAsciiSpace(m_text[m_pos])) ++m_pos;
        return m_pos >= m_text.size();
    }
    // Only after atEnd() returned false.
    char peek() const { return m_text[m_pos]; }
    void skip() { ++m_pos; }

    std::string_view word() {
        atEnd();
        const size_t start = m_pos;
        while (m_pos < m_text.size() && !util::isAsciiSpace(m_text[m_pos]) &&
               m_text[m_pos] != ';' && m_text[m_pos] != '"')
            ++m_pos;
        return m_text.substr(start, m_pos - start);
    }
    std::string_view peekWord() {
        const size_t saved = m_pos;
        const std::string_view w = word();
        m_pos = saved;
        return w;
    }
    // Just after an opening quote: the text up to the closing one (semicolons included), or
    // nothing when the line ends first.
    std::optional<std::string_view> quotedString() {
        const size_t close = m_text.find('"', m_pos);
        if (close == std::string_view::npos) return std::nullopt;
        const std::string_view s = m_text.substr(m_pos, close - m_pos);
        m_pos = close + 1;
        return s;
    }

  private:
    std::string_view m_text;
    size_t m_pos = 0;
};

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// The EPD standard's opcode syntax: a letter, then letters, digits and underscores.
bool isOpcode(std::string_view s) {
    if (s.empty() || !util::isAsciiLetter(s.front())) return false;
    for (char c : s)
        if (!util::isAsciiLetter(c) && !util::isAsciiDigit(c) && c != '_') return false;
    return true;
}

util::Result<EpdOperation> parseOperation(Scanner& scanner) {
    EpdOperation op;
    const std::string_view opcode = scanner.word();
    if (!isOpcode(opcode)) {
        const std::string shown =
            opcode.empty() ? std::string(1, scanner.peek()) : std::string(opcode);
        return makeError("malformed opcode " + quoted(shown));
    }
    op.opcode = std::string(opcode);
    while (!scanner.atEnd() && scanner.peek() != ';') {
        if (scanner.peek() == '"') {
            scanner.skip();
            const auto text = scanner.quotedString();
            if (!text) return makeError(op.opcode + ": unterminated string");
            op.operands.push_back({std::string(*text), true});
        } else {
            op.operands.push_back({std::string(scanner.word()), false});
        }
    }
    // The closing ';'; one missing at the end of the line is forgiven.
    if (!scanner.atEnd()) scanner.skip();
    return op;
}

util::Result<std::vector<EpdOperation>> parseOperations(Scanner& scanner) {
    std::vector<EpdOperation> ops;
    while (!scanner.atEnd()) {
        // Stray separators, as in perft files' "FEN ;D1 20 ;D2 400".
        if (scanner.peek() == ';') {
            scanner.skip();
            continue;
        }
        auto op = parseOperation(scanner);
        if (!op.ok()) return makeError(op.error());
        ops.push_back(std::move(*op));
    }
    return ops;
}

bool isCounter(std::string_view s) {
    if (s.empty() || s.size() > 9) return false;
    for (char c : s)
        if (!util::isAsciiDigit(c)) return false;
    return true;
}

// The two move counters, as FEN text, from FEN-style fields or hmvc / fmvn operations.
struct Counters {
    std::string halfmove = "0", fullmove = "1";
    bool halfmoveGiven = false, fullmoveGiven = false;
};

void readCounterFields(Scanner& scanner, Counters& counters) {
    if (!isCounter(scanner.peekWord())) return;
    counters.halfmove = std::string(scanner.word());
    counters.halfmoveGiven = true;
    if (!isCounter(scanner.peekWord())) return;
    counters.fullmove = std::string(scanner.word());
    counters.fullmoveGiven = true;
}

std::optional<std::string> applyCounter(const EpdOperation& op, Counters& counters) {
    const bool half = op.opcode == "hmvc";
    bool& given = half ? counters.halfmoveGiven : counters.fullmoveGiven;
    if (given)
        return op.opcode + ": the " + (half ? "half-move clock" : "full-move number") +
               " is given twice";
    if (op.operands.size() != 1 || !isCounter(op.operands[0].text))
        return op.opcode + ": expected one non-negative integer";
    (half ? counters.halfmove : counters.fullmove) = op.operands[0].text;
    given = true;
    return std::nullopt;
}

int commentIndex(std::string_view opcode) {
    if (opcode.size() != 2 || opcode[0] != 'c' || !util::isAsciiDigit(opcode[1])) return -1;
    return opcode[1] - '0';
}

bool isTypedOpcode(std::string_view opcode) {
    return opcode == "bm" || opcode == "am" || opcode == "id" || opcode == "ce" ||
           commentIndex(opcode) >= 0;
}

std::optional<std::string> readMoves(const EpdOperation& op, const Position& pos,
                                     std::vector<Move>& moves) {
    if (op.operands.empty()) return op.opcode + ": expected at least one move";
    for (const EpdOperand& operand : op.operands) {
        auto move = parseSan(pos, operand.text);
        if (!move.ok()) return op.opcode + ": " + move.error();
        moves.push_back(*move);
    }
    return std::nullopt;
}

std::optional<std::string> readString(const EpdOperation& op, std::string& out) {
    if (op.operands.size() != 1)
        return op.opcode + ": expected one string, found " + std::to_string(op.operands.size()) +
               " operands";
    out = op.operands[0].text;
    return std::nullopt;
}

std::optional<std::string> readCentipawns(const EpdOperation& op, std::optional<int>& out) {
    if (op.operands.size() != 1) return op.opcode + ": expected one integer";
    std::string_view text = op.operands[0].text;
    // from_chars takes no '+', but evaluations are often written with one.
    if (text.size() > 1 && text[0] == '+' && text[1] != '-') text.remove_prefix(1);
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return op.opcode + ": expected an integer, found " + quoted(op.operands[0].text);
    out = value;
    return std::nullopt;
}

std::optional<std::string> applyOperation(EpdOperation& op, EpdRecord& record,
                                          std::vector<std::string>& seen) {
    const std::string& code = op.opcode;
    if (isTypedOpcode(code)) {
        for (const std::string& s : seen)
            if (s == code) return code + ": given twice";
        seen.push_back(code);
    }
    if (code == "bm") return readMoves(op, record.position, record.bestMoves);
    if (code == "am") return readMoves(op, record.position, record.avoidMoves);
    if (code == "id") return readString(op, record.id);
    if (code == "ce") return readCentipawns(op, record.centipawns);
    if (const int idx = commentIndex(code); idx >= 0) return readString(op, record.comments[idx]);
    record.otherOperations.push_back(std::move(op));
    return std::nullopt;
}

// --- Writing ----------------------------------------------------------------------------------

bool needsQuotes(std::string_view s) {
    if (s.empty()) return true;
    for (char c : s)
        if (util::isAsciiSpace(c) || c == ';' || c == '"') return true;
    return false;
}

std::string quotedString(std::string_view s) {
    std::string out = "\"";
    for (char c : s) out += c == '"' ? '\'' : c;
    return out + '"';
}

void appendOperation(std::string& out, std::string_view opcode, const std::string& operands) {
    out += ' ';
    out += opcode;
    if (!operands.empty()) out += ' ' + operands;
    out += ';';
}

std::string sanList(const Position& pos, const std::vector<Move>& moves) {
    std::string out;
    for (const Move m : moves) {
        if (!out.empty()) out += ' ';
        out += toSan(pos, m);
    }
    return out;
}

std::string operandList(const std::vector<EpdOperand>& operands) {
    std::string out;
    for (const EpdOperand& operand : operands) {
        if (!out.empty()) out += ' ';
        out +=
            operand.quoted || needsQuotes(operand.text) ? quotedString(operand.text) : operand.text;
    }
    return out;
}

// The placement, side, castling and en-passant fields of the position's FEN.
std::string positionFields(const std::string& fen) {
    size_t end = std::string::npos; // npos + 1 wraps to 0: the first search starts at the front
    for (int field = 0; field < 4; ++field) end = fen.find(' ', end + 1);
    return fen.substr(0, end);
}

} // namespace

bool operator==(const EpdRecord& a, const EpdRecord& b) {
    return toFen(a.position) == toFen(b.position) && a.bestMoves == b.bestMoves &&
           a.avoidMoves == b.avoidMoves && a.id == b.id && a.centipawns == b.centipawns &&
           a.comments == b.comments && a.otherOperations == b.otherOperations;
}

util::Result<EpdRecord> parseEpd(std::string_view line) {
    Scanner scanner(line);
    std::string fen;
    for (int field = 0; field < 4; ++field) {
        const std::string_view text = scanner.word();
        if (text.empty())
            return makeError("EPD needs 4 position fields (placement, side to move, castling, "
                             "en passant), found " +
                             std::to_string(field));
        fen += std::string(text) + ' ';
    }
    Counters counters;
    readCounterFields(scanner, counters);
    auto ops = parseOperations(scanner);
    if (!ops.ok()) return makeError(ops.error());

    // The counters complete the position, which bm / am need to resolve their SAN.
    std::vector<EpdOperation> rest;
    for (EpdOperation& op : *ops) {
        if (op.opcode != "hmvc" && op.opcode != "fmvn") {
            rest.push_back(std::move(op));
        } else if (auto err = applyCounter(op, counters)) {
            return makeError(*err);
        }
    }
    auto pos = parseFen(fen + counters.halfmove + ' ' + counters.fullmove);
    if (!pos.ok()) return makeError(pos.error());

    EpdRecord record;
    record.position = std::move(*pos);
    std::vector<std::string> seen;
    for (EpdOperation& op : rest)
        if (auto err = applyOperation(op, record, seen)) return makeError(*err);
    return record;
}

util::Result<std::vector<EpdRecord>> readEpd(std::istream& in) {
    std::vector<EpdRecord> records;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        std::string_view text = line;
        if (number == 1 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
        text = util::trimAsciiSpace(text);
        if (text.empty() || text.front() == '#') continue;
        auto record = parseEpd(text);
        if (!record.ok())
            return makeError("line " + std::to_string(number) + ": " + record.error());
        records.push_back(std::move(*record));
    }
    return records;
}

std::string toEpd(const EpdRecord& record) {
    const Position& pos = record.position;
    std::string out = positionFields(toFen(pos));
    if (!record.bestMoves.empty()) appendOperation(out, "bm", sanList(pos, record.bestMoves));
    if (!record.avoidMoves.empty()) appendOperation(out, "am", sanList(pos, record.avoidMoves));
    if (record.centipawns) appendOperation(out, "ce", std::to_string(*record.centipawns));
    if (pos.halfmoveClock() != 0) appendOperation(out, "hmvc", std::to_string(pos.halfmoveClock()));
    if (pos.fullmoveNumber() != 1)
        appendOperation(out, "fmvn", std::to_string(pos.fullmoveNumber()));
    if (!record.id.empty()) appendOperation(out, "id", quotedString(record.id));
    for (size_t i = 0; i < record.comments.size(); ++i)
        if (!record.comments[i].empty())
            appendOperation(out, "c" + std::to_string(i), quotedString(record.comments[i]));
    for (const EpdOperation& op : record.otherOperations)
        appendOperation(out, op.opcode, operandList(op.operands));
    return out;
}

} // namespace axon::chess

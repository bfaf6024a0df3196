// SPDX-License-Identifier: GPL-3.0-or-later
// PGN writer: tag section and wrapped movetext.
#include "chess/pgn_writer.h"

#include "chess/movegen.h"
#include "chess/san.h"

namespace axon::chess {

namespace {

constexpr std::string_view kRoster[] = {"Event", "Site",  "Date",  "Round",
                                        "White", "Black", "Result"};

bool isRoster(std::string_view name) {
    for (std::string_view r : kRoster)
        if (r == name) return true;
    return false;
}

// What the reader takes as a name: it starts with a letter, digit or '_' and stops at a space,
// a quote or ']'.
std::string sanitizedTagName(std::string_view name) {
    std::string out;
    for (char c : name) {
        const bool alnum =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if ((out.empty() && !alnum) || static_cast<unsigned char>(c) <= ' ' || c == '"' || c == ']')
            continue;
        out += c;
    }
    return out;
}

std::string escapedTagValue(std::string_view value) {
    std::string out;
    for (char c : value) {
        if (c == '\\' || c == '"') out += '\\';
        out += (static_cast<unsigned char>(c) < ' ') ? ' ' : c;
    }
    return out;
}

void writeTag(std::string& out, std::string_view name, std::string_view value) {
    const std::string safeName = sanitizedTagName(name);
    if (safeName.empty()) return;
    out += '[' + safeName + " \"" + escapedTagValue(value) + "\"]\n";
}

void writeTags(std::string& out, const PgnGame& game) {
    for (std::string_view name : kRoster) {
        std::string value = name == "Result" ? game.result : game.tag(name);
        if (name != "Result" && !game.hasTag(name)) value = name == "Date" ? "????.??.??" : "?";
        writeTag(out, name, value);
    }
    if (game.chess960 && !game.hasTag("Variant")) writeTag(out, "Variant", "Chess960");
    for (const auto& [name, value] : game.tags)
        if (!isRoster(name) && name != "SetUp" && name != "FEN") writeTag(out, name, value);
    if (game.startFen != Position::kStartFen || game.hasTag("FEN")) {
        writeTag(out, "SetUp", "1");
        writeTag(out, "FEN", game.startFen);
    }
}

// The reader nests braces, so a comment with balanced ones fits in braces; any other is written
// as a rest-of-line comment, which ends only at the line break.
bool fitsInBraces(std::string_view text) {
    int depth = 0;
    for (char c : text) {
        if (c == '{') ++depth;
        if (c == '}' && --depth < 0) return false;
    }
    return depth == 0;
}

// Greedy filling of lines up to the limit; a token longer than a line gets a line of its own.
class LineFiller {
  public:
    LineFiller(std::string& out, int maxLength)
        : m_out(out), m_lineStart(out.size()), m_max(std::size_t(maxLength < 1 ? 1 : maxLength)) {}

    void add(std::string_view token) {
        const std::size_t length = m_out.size() - m_lineStart;
        if (length > 0) {
            if (length + 1 + token.size() > m_max) {
                m_out += '\n';
                m_lineStart = m_out.size();
            } else {
                m_out += ' ';
            }
        }
        m_out += token;
    }

    void addComment(std::string_view text) {
        if (!fitsInBraces(text)) {
            add(";");
            m_out += ' ';
            m_out += text;
            m_out += '\n';
            m_lineStart = m_out.size();
            return;
        }
        add("{");
        std::size_t i = 0;
        while (i < text.size()) {
            const std::size_t space = text.find_first_of(" \t\r\n", i);
            const std::size_t end = space == std::string_view::npos ? text.size() : space;
            if (end > i) add(text.substr(i, end - i));
            i = end + 1;
        }
        add("}");
    }

  private:
    std::string& m_out;
    std::size_t m_lineStart;
    std::size_t m_max;
};

std::string moveError(int ply, const PgnMove& move, const char* why) {
    return "move " + std::to_string(ply + 1) + " ('" + move.text + "'): " + why;
}

} // namespace

util::Result<std::string> toPgn(const PgnGame& game, const PgnWriterOptions& options) {
    auto start = game.startPosition();
    if (!start.ok()) return util::makeError("start position: " + start.error());
    Position& pos = *start;

    std::string out;
    writeTags(out, game);
    out += '\n';
    LineFiller line(out, options.maxLineLength);
    if (options.comments && !game.preComment.empty()) line.addComment(game.preComment);

    // Black's move number is repeated at the start and after a comment, as the standard asks.
    bool numberBlack = true;
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        const PgnMove& m = game.moves[i];
        const std::string number = std::to_string(pos.fullmoveNumber());
        if (pos.sideToMove() == White)
            line.add(number + ".");
        else if (numberBlack)
            line.add(number + "...");
        numberBlack = false;
        if (m.isNull()) {
            if (pos.inCheck()) return util::makeError(moveError(int(i), m, "null move in check"));
            line.add("--");
            pos.makeNullMove();
        } else {
            if (!MoveList(pos).contains(m.move))
                return util::makeError(moveError(int(i), m, "not a legal move"));
            line.add(toSan(pos, m.move));
            pos.makeMove(m.move);
        }
        if (options.nags)
            for (int nag : m.nags) line.add("$" + std::to_string(nag));
        if (options.comments) {
            const std::string comment = commentWithCommands(m);
            if (!comment.empty()) {
                line.addComment(comment);
                numberBlack = true;
            }
        }
    }
    line.add(normalizeResult(game.result).value_or("*"));
    out += "\n\n";
    return out;
}

} // namespace axon::chess

// SPDX-License-Identifier: GPL-3.0-or-later
// PGN tokenizer, including the heuristics that recover tag values with unescaped quotes,
// brackets and backslashes.
#include "chess/pgn_lexer.h"

#include <cstring>

namespace axon::chess {

namespace {

constexpr std::size_t kBufferSize = std::size_t(1) << 16;

// Whitespace here is every control character as well: PGN files in the wild carry NUL padding,
// form feeds and other stray bytes between tokens, and treating them as separators keeps them
// out of tokens (stricter than util::isAsciiSpace, which the other readers use).
bool isSpaceOrControl(int c) { return c >= 0 && c <= ' '; }
bool isAlnum(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool isWordChar(int c) {
    return c > ' ' && c != '{' && c != '}' && c != '(' && c != ')' && c != ';' && c != '$';
}

size_t skipSpaces(std::string_view s, size_t i) {
    while (i < s.size() && isSpaceOrControl(static_cast<unsigned char>(s[i]))) ++i;
    return i;
}

// Undoes \" and \\; a backslash before anything else is kept, as many files use it bare.
std::string unescapeLenient(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\')) ++i;
        out += s[i];
    }
    return out;
}

struct TagParse {
    std::string_view name;
    std::string value;
    std::string_view remainder; // what follows the closing bracket on the line
    bool broken = false;
};

// The quoted value that starts at s (after the opening quote). The proper end is a quote, then
// ']', then nothing or another tag; failing that, the last quote before the last ']' ends it,
// which recovers unescaped quotes, ']' inside values and a trailing backslash.
void parseQuotedValue(std::string_view s, TagParse& tag) {
    std::string value;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '\\' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\')) {
            value += s[++i];
            continue;
        }
        if (c == '"') {
            const size_t j = skipSpaces(s, i + 1);
            if (j == s.size()) { // closing bracket missing
                tag.value = std::move(value);
                return;
            }
            if (s[j] == ']') {
                const size_t k = skipSpaces(s, j + 1);
                if (k == s.size() || s[k] == '[') {
                    tag.value = std::move(value);
                    tag.remainder = s.substr(k);
                    return;
                }
            }
        }
        value += c;
    }
    const size_t bracket = s.rfind(']');
    const size_t quote = bracket == std::string_view::npos ? bracket : s.rfind('"', bracket);
    if (quote == std::string_view::npos) {
        tag.value = unescapeLenient(s.substr(0, bracket));
        tag.broken = true;
        return;
    }
    tag.value = unescapeLenient(s.substr(0, quote));
    tag.remainder = s.substr(bracket + 1);
}

// A tag line after its '['.
TagParse parseTagLine(std::string_view line) {
    TagParse tag;
    size_t i = skipSpaces(line, 0);
    const size_t nameStart = i;
    while (i < line.size() && !isSpaceOrControl(static_cast<unsigned char>(line[i])) &&
           line[i] != '"' && line[i] != ']')
        ++i;
    tag.name = line.substr(nameStart, i - nameStart);
    i = skipSpaces(line, i);
    if (i < line.size() && line[i] == '"') {
        parseQuotedValue(line.substr(i + 1), tag);
        return tag;
    }
    // An unquoted value: up to the bracket.
    const size_t bracket = line.find(']', i);
    std::string_view value =
        line.substr(i, bracket == std::string_view::npos ? line.npos : bracket - i);
    while (!value.empty() && isSpaceOrControl(static_cast<unsigned char>(value.back())))
        value.remove_suffix(1);
    tag.value = std::string(value);
    if (bracket == std::string_view::npos)
        tag.broken = true;
    else
        tag.remainder = line.substr(bracket + 1);
    return tag;
}

} // namespace

PgnLexer::PgnLexer(std::istream& in, PgnLexerLimits limits)
    : m_in(in), m_limits(limits), m_buffer(kBufferSize) {}

// Makes at least `need` bytes available from m_pos; false when the input ends first.
bool PgnLexer::refill(std::size_t need) {
    if (m_end - m_pos >= need) return true;
    if (m_pos > 0) {
        std::memmove(m_buffer.data(), m_buffer.data() + m_pos, m_end - m_pos);
        m_end -= m_pos;
        m_pos = 0;
    }
    while (m_end < need && !m_eof) {
        m_in.read(m_buffer.data() + m_end, std::streamsize(m_buffer.size() - m_end));
        const auto got = m_in.gcount();
        if (got <= 0)
            m_eof = true;
        else
            m_end += std::size_t(got);
    }
    return m_end >= need;
}

int PgnLexer::peek(std::size_t ahead) {
    if (m_pos + ahead >= m_end && !refill(ahead + 1)) return -1;
    return static_cast<unsigned char>(m_buffer[m_pos + ahead]);
}

void PgnLexer::advance() {
    const char c = m_buffer[m_pos++];
    ++m_consumed;
    if (c == '\n') {
        ++m_line;
        if (!m_lineHasContent) m_sawBlankLine = true;
        m_atLineStart = true;
        m_lineHasContent = false;
    } else if (c == '\r') {
        m_atLineStart = true; // old Mac line ends
    } else if (!isSpaceOrControl(static_cast<unsigned char>(c))) {
        m_atLineStart = false;
        m_lineHasContent = true;
    }
}

// Re-reads `text` before the rest of the input (what followed a tag on its line).
void PgnLexer::pushBack(std::string_view text, bool atLineStart) {
    if (text.empty()) return;
    if (m_pos >= text.size()) {
        m_pos -= text.size();
    } else {
        std::vector<char> merged(text.begin(), text.end());
        merged.insert(merged.end(), m_buffer.begin() + std::ptrdiff_t(m_pos),
                      m_buffer.begin() + std::ptrdiff_t(m_end));
        m_end = merged.size();
        if (merged.size() < kBufferSize) merged.resize(kBufferSize);
        m_buffer = std::move(merged);
        m_pos = 0;
    }
    std::memcpy(m_buffer.data() + m_pos, text.data(), text.size());
    m_consumed -= text.size();
    m_atLineStart = atLineStart;
}

bool PgnLexer::atBom() { return peek(0) == 0xEF && peek(1) == 0xBB && peek(2) == 0xBF; }

bool PgnLexer::tagAhead() { return peek(0) == '[' && isAlnum(peek(1)); }

// Skips whitespace, stray '}', byte-order marks and '%' escape lines; false at the end.
bool PgnLexer::skipToToken() {
    while (true) {
        const int c = peek();
        if (c < 0) return false;
        if (isSpaceOrControl(c) || c == '}') {
            advance();
        } else if (m_atLineStart && c == '%') {
            while (peek() >= 0 && peek() != '\n') advance();
        } else if (m_atLineStart && c == 0xEF && atBom()) {
            m_pos += 3;
            m_consumed += 3;
        } else {
            return true;
        }
    }
}

const PgnToken& PgnLexer::next() {
    if (m_unread) {
        m_unread = false;
        return m_token;
    }
    PgnToken& t = m_token;
    t.text.clear();
    t.value.clear();
    t.nag = 0;
    t.broken = false;
    if (!skipToToken()) {
        t.kind = PgnTokenKind::End;
        t.line = m_line;
        t.afterBlankLine = m_sawBlankLine;
        return t;
    }
    t.line = m_line;
    t.afterBlankLine = m_sawBlankLine;
    const int c = peek();
    if (c == '[' && m_atLineStart && tagAhead()) {
        lexTag();
    } else if (c == '{') {
        lexBraceComment();
    } else if (c == ';') {
        lexLineComment();
    } else if (c == '(' || c == ')') {
        advance();
        t.kind = c == '(' ? PgnTokenKind::OpenVariation : PgnTokenKind::CloseVariation;
    } else if (c == '$') {
        lexNag();
    } else {
        lexWord();
    }
    m_sawBlankLine = false;
    return t;
}

void PgnLexer::lexTag() {
    advance(); // '['
    m_scratch.clear();
    for (int c = peek(); c >= 0 && c != '\n'; c = peek()) {
        if (m_scratch.size() < m_limits.maxTagLine) m_scratch += char(c);
        advance();
    }
    TagParse tag = parseTagLine(m_scratch);
    m_token.kind = PgnTokenKind::Tag;
    m_token.text.assign(tag.name);
    m_token.value = std::move(tag.value);
    // Values are one line of text; stray control bytes (tabs, NULs) read as spaces.
    for (char& c : m_token.value)
        if (static_cast<unsigned char>(c) < ' ') c = ' ';
    m_token.broken = tag.broken || m_token.text.empty();
    size_t rest = skipSpaces(tag.remainder, 0);
    if (rest < tag.remainder.size()) {
        const std::string_view remainder = tag.remainder.substr(rest);
        pushBack(remainder, remainder.front() == '[');
    }
}

void PgnLexer::appendCollapsed(char c) {
    std::string& text = m_token.text;
    if (text.size() >= m_limits.maxComment) return;
    if (isSpaceOrControl(static_cast<unsigned char>(c))) {
        if (!text.empty() && text.back() != ' ') text += ' ';
    } else {
        text += c;
    }
}

void PgnLexer::finishCollapsed() {
    if (!m_token.text.empty() && m_token.text.back() == ' ') m_token.text.pop_back();
}

// Braces nest (pgn-extract's --nestedcomment reading), so "{ a { b } c }" is one comment. A
// comment still open at a blank line followed by a tag line is taken as unterminated, so one
// missing '}' costs one game rather than the rest of the file.
void PgnLexer::lexBraceComment() {
    m_token.kind = PgnTokenKind::Comment;
    advance(); // '{'
    int depth = 1;
    bool lineBlank = false;
    while (true) {
        const int c = peek();
        if (c < 0) {
            m_token.broken = true;
            break;
        }
        advance();
        if (c == '}') {
            if (--depth == 0) break;
        } else if (c == '{') {
            ++depth;
        } else if (c == '\n') {
            if (lineBlank && tagAhead()) {
                m_token.broken = true;
                break;
            }
            lineBlank = true;
        } else if (!isSpaceOrControl(c)) {
            lineBlank = false;
        }
        appendCollapsed(char(c));
    }
    finishCollapsed();
}

void PgnLexer::lexLineComment() {
    m_token.kind = PgnTokenKind::Comment;
    advance(); // ';'
    for (int c = peek(); c >= 0 && c != '\n'; c = peek()) {
        advance();
        appendCollapsed(char(c));
    }
    finishCollapsed();
}

void PgnLexer::lexNag() {
    m_token.kind = PgnTokenKind::Nag;
    advance(); // '$'
    int value = 0, digits = 0;
    for (int c = peek(); c >= '0' && c <= '9'; c = peek()) {
        advance();
        if (digits < 6) value = value * 10 + (c - '0');
        ++digits;
    }
    m_token.nag = digits == 0 ? -1 : value;
}

void PgnLexer::lexWord() {
    m_token.kind = PgnTokenKind::Word;
    for (int c = peek(); isWordChar(c); c = peek()) {
        advance();
        if (m_token.text.size() < m_limits.maxWord)
            m_token.text += char(c);
        else
            m_token.broken = true;
    }
}

} // namespace axon::chess

// SPDX-License-Identifier: GPL-3.0-or-later
// PGN tokenizer over a stream: tag pairs, words, comments, NAGs and variation brackets, read
// through a fixed buffer with every token bounded, so any input costs linear time and bounded
// memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace axon::chess {

enum class PgnTokenKind : std::uint8_t {
    End,            // end of input
    Tag,            // [Name "value"] at the start of a line
    Word,           // move, move number, result, glyph: anything between delimiters
    Comment,        // {...} or ;... (text with whitespace runs collapsed to one space)
    Nag,            // $n
    OpenVariation,  // (
    CloseVariation, // )
};

struct PgnToken {
    PgnTokenKind kind = PgnTokenKind::End;
    std::string text;  // word, comment text or tag name
    std::string value; // tag value, unescaped
    int nag = 0;       // -1 for a '$' without digits
    int line = 0;
    // A blank line separates this token from the previous one.
    bool afterBlankLine = false;
    // A word cut at the length limit, a comment or tag missing its closing bracket.
    bool broken = false;
};

struct PgnLexerLimits {
    std::size_t maxWord = 256;
    std::size_t maxComment = std::size_t(1) << 20;
    std::size_t maxTagLine = std::size_t(1) << 16;
};

class PgnLexer {
  public:
    explicit PgnLexer(std::istream& in, PgnLexerLimits limits = {});

    // The next token (kind End at the end of input, and from then on). The reference stays
    // valid until the next call.
    const PgnToken& next();
    // Makes the next call return the same token again (one token of look-ahead).
    void unread() { m_unread = true; }

    int line() const { return m_line; }
    std::uint64_t bytesConsumed() const { return m_consumed; }

  private:
    int peek(std::size_t ahead = 0);
    void advance();
    bool refill(std::size_t need);
    void pushBack(std::string_view text, bool atLineStart);
    bool skipToToken();
    bool atBom();
    bool tagAhead();

    void lexTag();
    void lexBraceComment();
    void lexLineComment();
    void lexNag();
    void lexWord();
    void appendCollapsed(char c);
    void finishCollapsed();

    std::istream& m_in;
    PgnLexerLimits m_limits;
    std::vector<char> m_buffer;
    std::size_t m_pos = 0, m_end = 0;
    bool m_eof = false;

    PgnToken m_token;
    bool m_unread = false;
    std::string m_scratch;

    int m_line = 1;
    std::uint64_t m_consumed = 0;
    bool m_atLineStart = true;     // nothing but whitespace since the last line break
    bool m_lineHasContent = false; // the current line has a non-whitespace character
    bool m_sawBlankLine = false;   // since the previous token
};

} // namespace axon::chess

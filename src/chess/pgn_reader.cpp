// SPDX-License-Identifier: GPL-3.0-or-later
// Streaming PGN reader: game boundaries, start positions, and the mainline replay.
#include "chess/pgn_reader.h"

#include "chess/fen.h"
#include "chess/san.h"
#include "chess/uci_move.h"
#include "util/text.h"

namespace axon::chess {

namespace {

constexpr std::size_t kMaxNagsPerMove = 16;

// Variant names, lower-cased with spaces, dashes and underscores removed.
std::string variantKey(std::string_view name) {
    std::string key;
    for (char c : name) {
        if (c == ' ' || c == '-' || c == '_' || c == '\t') continue;
        key += (c >= 'A' && c <= 'Z') ? char(c + 32) : c;
    }
    return key;
}

bool isStandardVariant(const std::string& key) {
    return key.empty() || key == "standard" || key == "chess" || key == "normal" ||
           key == "fromposition" || key == "classical" || key == "regular";
}

bool isChess960Variant(const std::string& key) {
    return key == "chess960" || key == "960" || key == "fischerandom" || key == "fischerrandom" ||
           key == "fischerrandomchess" || key == "frc";
}

// "!" 1, "?" 2, "!!" 3, "??" 4, "!?" 5, "?!" 6; 0 when not a glyph.
int glyphNag(std::string_view g) {
    if (g == "!") return 1;
    if (g == "?") return 2;
    if (g == "!!") return 3;
    if (g == "??") return 4;
    if (g == "!?") return 5;
    if (g == "?!") return 6;
    return 0;
}

// Stand-alone position assessments some annotators write instead of NAGs.
int assessmentNag(std::string_view g) {
    if (g == "=") return 10;
    if (g == "+=") return 14;
    if (g == "=+") return 15;
    if (g == "+/-") return 16;
    if (g == "-/+") return 17;
    if (g == "+-") return 18;
    if (g == "-+") return 19;
    return 0;
}

bool isNullMoveText(std::string_view w) {
    return w == "--" || w == "Z0" || w == "0000" || w == "@@@@";
}

bool looksLikeUci(std::string_view w) {
    if (w.size() != 4 && w.size() != 5) return false;
    return w[0] >= 'a' && w[0] <= 'h' && w[1] >= '1' && w[1] <= '8' && w[2] >= 'a' && w[2] <= 'h' &&
           w[3] >= '1' && w[3] <= '8';
}

// "12." / "12..." / "12" prefix length, or 0 when the word does not start with a move number.
// Castling written with zeros ("0-0") is not a number.
size_t moveNumberLength(std::string_view w) {
    size_t i = 0;
    while (i < w.size() && util::isAsciiDigit(w[i])) ++i;
    if (i == 0 || (i < w.size() && w[i] != '.')) return 0;
    while (i < w.size() && w[i] == '.') ++i;
    return i;
}

std::string moveLabel(const Position& pos, std::string_view text) {
    return std::to_string(pos.fullmoveNumber()) + (pos.sideToMove() == White ? ". " : "... ") +
           std::string(text);
}

} // namespace

PgnReader::PgnReader(std::istream& in, PgnReaderOptions options)
    : m_lexer(in, options.lexer), m_options(options) {}

util::Result<bool> PgnReader::next(PgnGame& game) {
    while (true) {
        game.clear();
        m_error = PgnError::None;
        m_errorText.clear();
        m_sawResult = false;
        const PgnToken& first = m_lexer.next();
        if (first.kind == PgnTokenKind::End) return false;
        m_lexer.unread();
        game.number = ++m_gameNumber;
        game.firstLine = first.line;
        m_gameStartBytes = m_lexer.bytesConsumed();

        const bool hasMovetext = readTags(game);
        setUpStart(game);
        if (hasMovetext) readMovetext(game);
        if (!m_sawResult) game.result = normalizeResult(game.tag("Result")).value_or("*");

        if (m_error != PgnError::None) return util::makeError(m_errorText);
        // Stray comments or numbers between games are no game.
        if (game.tags.empty() && game.moves.empty() && !m_sawResult) {
            --m_gameNumber;
            continue;
        }
        return true;
    }
}

// Reads the tag section; false when it ends at the next game's tags (no movetext). Blank lines
// inside the section are tolerated (ChessBase writes them), so a new game is recognised by a
// tag name repeating after a blank line, or by a second Event tag.
bool PgnReader::readTags(PgnGame& game) {
    while (true) {
        const PgnToken& t = m_lexer.next();
        if (t.kind != PgnTokenKind::Tag) {
            m_lexer.unread();
            return true;
        }
        if (t.text.empty()) continue;
        if (game.hasTag(t.text) && (t.afterBlankLine || t.text == "Event")) {
            m_lexer.unread();
            return false;
        }
        if (int(game.tags.size()) < m_options.maxTags) game.tags.emplace_back(t.text, t.value);
    }
}

void PgnReader::setUpStart(PgnGame& game) {
    const std::string variant = game.tag("Variant");
    const std::string key = variantKey(variant);
    const bool chess960 = isChess960Variant(key);
    if (!chess960 && !isStandardVariant(key)) {
        fail(PgnError::UnsupportedVariant, game.firstLine,
             "unsupported variant '" + variant + "' (game skipped)");
        return;
    }
    // A FEN tag counts even without SetUp "1", as other readers do.
    const std::string fen = game.tag("FEN");
    if (fen.empty()) {
        m_pos = startPosition();
    } else {
        auto pos = parseFen(fen);
        if (!pos.ok()) {
            fail(PgnError::BadStartPosition, game.firstLine, "FEN tag: " + pos.error());
            return;
        }
        m_pos = std::move(*pos);
    }
    game.chess960 = chess960 || m_pos.isChess960();
    m_pos.setChess960(game.chess960);
    game.startFen = toFen(m_pos);
}

// Variations are skipped whole (nesting counted); after an error the rest of the game is only
// scanned for its end: the result at the top level, the next game's tags, or the input's end.
void PgnReader::readMovetext(PgnGame& game) {
    std::int64_t depth = 0;
    while (true) {
        const PgnToken& t = m_lexer.next();
        if (m_error == PgnError::None &&
            m_lexer.bytesConsumed() - m_gameStartBytes > m_options.maxGameBytes)
            fail(PgnError::TooLarge, t.line,
                 "game longer than " + std::to_string(m_options.maxGameBytes) + " bytes");
        const bool live = depth == 0 && m_error == PgnError::None;
        switch (t.kind) {
        case PgnTokenKind::End: return;
        case PgnTokenKind::Tag: m_lexer.unread(); return;
        case PgnTokenKind::OpenVariation: ++depth; break;
        case PgnTokenKind::CloseVariation:
            if (depth > 0) --depth;
            break;
        case PgnTokenKind::Comment:
            if (t.broken) {
                fail(PgnError::Malformed, t.line, "unterminated comment");
            } else if (live) {
                if (game.moves.empty()) {
                    if (!game.preComment.empty() && !t.text.empty()) game.preComment += ' ';
                    game.preComment += t.text;
                } else {
                    absorbComment(t.text, game.moves.back());
                }
            }
            break;
        case PgnTokenKind::Nag:
            if (live && !game.moves.empty() && t.nag >= 0 && t.nag <= 255 &&
                game.moves.back().nags.size() < kMaxNagsPerMove)
                game.moves.back().nags.push_back(t.nag);
            break;
        case PgnTokenKind::Word:
            if (depth == 0 && readWord(game, t.text, t.line) == Step::EndOfGame) return;
            break;
        }
    }
}

PgnReader::Step PgnReader::readWord(PgnGame& game, std::string_view word, int line) {
    if (auto result = normalizeResult(word)) {
        game.result = *result;
        m_sawResult = true;
        return Step::EndOfGame;
    }
    word.remove_prefix(moveNumberLength(word));
    if (word.empty() || word.find_first_not_of('.') == std::string_view::npos ||
        m_error != PgnError::None)
        return Step::Continue;
    if (glyphNag(word) || assessmentNag(word)) {
        addGlyphs(game, word);
        return Step::Continue;
    }
    if (word == "e.p." || word == "ep") return Step::Continue;
    if (isNullMoveText(word)) {
        playNullMove(game, word, line);
        return Step::Continue;
    }
    // Trailing !/? glyphs become NAGs; check marks stay in the text as written.
    size_t end = word.size();
    while (end > 0 && (word[end - 1] == '!' || word[end - 1] == '?')) --end;
    playMove(game, word.substr(0, end), line);
    if (end < word.size() && m_error == PgnError::None) addGlyphs(game, word.substr(end));
    return Step::Continue;
}

void PgnReader::addGlyphs(PgnGame& game, std::string_view glyphs) {
    const int nag = glyphNag(glyphs) ? glyphNag(glyphs) : assessmentNag(glyphs);
    if (nag && !game.moves.empty() && game.moves.back().nags.size() < kMaxNagsPerMove)
        game.moves.back().nags.push_back(nag);
}

void PgnReader::playMove(PgnGame& game, std::string_view text, int line) {
    if (int(game.moves.size()) >= m_options.maxPlies) {
        fail(PgnError::TooLarge, line,
             "more than " + std::to_string(m_options.maxPlies) + " plies");
        return;
    }
    auto move = parseSan(m_pos, text);
    // Some tools write UCI moves in movetext; python-chess reads them too.
    if (!move.ok() && looksLikeUci(text)) {
        auto uci = parseUciMove(m_pos, text);
        if (uci.ok()) move = uci;
    }
    if (!move.ok()) {
        fail(PgnError::IllegalMove, line,
             "cannot play " + moveLabel(m_pos, text) + ": " + move.error());
        return;
    }
    PgnMove& record = game.moves.emplace_back();
    record.move = *move;
    record.text.assign(text);
    m_pos.makeMove(*move);
}

void PgnReader::playNullMove(PgnGame& game, std::string_view text, int line) {
    if (!m_options.allowNullMoves || m_pos.inCheck()) {
        fail(PgnError::IllegalMove, line,
             "null move " + moveLabel(m_pos, text) +
                 (m_pos.inCheck() ? " while in check" : " (null moves are not accepted)"));
        return;
    }
    if (int(game.moves.size()) >= m_options.maxPlies) {
        fail(PgnError::TooLarge, line,
             "more than " + std::to_string(m_options.maxPlies) + " plies");
        return;
    }
    PgnMove& record = game.moves.emplace_back();
    record.move = Move::null();
    record.text.assign(text);
    m_pos.makeNullMove();
}

// Keeps the first problem only; the rest of the game is then skipped.
void PgnReader::fail(PgnError error, int line, const std::string& why) {
    if (m_error != PgnError::None) return;
    m_error = error;
    m_errorText =
        "game " + std::to_string(m_gameNumber) + " (line " + std::to_string(line) + "): " + why;
}

} // namespace axon::chess

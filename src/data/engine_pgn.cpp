// SPDX-License-Identifier: GPL-3.0-or-later
// Engine-match PGN to training records: the score comment reader, the replay, and datagen's
// position filters.
#include "data/engine_pgn.h"

#include <algorithm>

#include "chess/pgn_reader.h"
#include "data/datagen.h"
#include "data/lichess_pgn.h"

namespace axon::data {

namespace {

using namespace chess;

// Digits beyond these are not a score or a depth any tool writes: the token is not one.
constexpr int kMaxScoreDigits = 6;
constexpr int kMaxDepthDigits = 4;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Reads up to `maxDigits` digits at text[i...]; the count read, or 0 when there are none or
// too many.
int readDigits(std::string_view text, std::size_t& i, int maxDigits, int& value) {
    int n = 0;
    value = 0;
    while (i < text.size() && isDigit(text[i])) {
        if (++n > maxDigits) return 0;
        value = value * 10 + (text[i++] - '0');
    }
    return n;
}

// "+0.98/15", "-M3/7", "0.00/18", "12/5" at the start of `text`.
std::optional<EngineComment> readScoreToken(std::string_view text) {
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    EngineComment c;
    c.kind = EngineComment::Kind::Score;
    if (i < text.size() && text[i] == 'M') {
        c.mate = true;
        ++i;
    }
    int whole = 0;
    if (!readDigits(text, i, kMaxScoreDigits, whole)) return std::nullopt;
    // Centipawns from pawns: two decimals kept, the third rounds.
    int centipawns = whole * 100;
    if (!c.mate && i < text.size() && text[i] == '.') {
        ++i;
        int place = 10, digits = 0;
        for (; i < text.size() && isDigit(text[i]); ++i, ++digits) {
            const int d = text[i] - '0';
            if (place > 0) centipawns += d * place;
            if (place == 0 && digits == 2 && d >= 5) ++centipawns;
            place /= 10;
        }
        if (digits == 0) return std::nullopt;
    }
    if (i >= text.size() || text[i] != '/') return std::nullopt;
    ++i;
    if (!readDigits(text, i, kMaxDepthDigits, c.depth)) return std::nullopt;
    // The depth ends the token.
    if (i < text.size() && !(text[i] == ' ' || text[i] == ',' || text[i] == '}' || text[i] == ')'))
        return std::nullopt;
    const int magnitude = c.mate ? kRecordScoreLimit - std::min(whole, kRecordScoreLimit)
                                 : std::min(centipawns, kRecordScoreLimit);
    c.score = negative ? -magnitude : magnitude;
    return c;
}

// The game's result for White (1, 0.5, 0), or nullopt for "*".
std::optional<double> whiteScore(const std::string& result) {
    if (result == "1-0") return 1.0;
    if (result == "0-1") return 0.0;
    if (result == "1/2-1/2") return 0.5;
    return std::nullopt;
}

} // namespace

EngineComment parseEngineComment(std::string_view comment) {
    const auto first = comment.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = comment.find_last_not_of(" \t\r\n");
    if (comment.substr(first, last - first + 1) == "book") return {EngineComment::Kind::Book};
    // Tokens start the comment or follow a space, comma or parenthesis (as pgn_util.py's
    // pattern finds them anywhere, but never inside a longer word).
    for (std::size_t i = first; i <= last; ++i) {
        if (i > first && !(comment[i - 1] == ' ' || comment[i - 1] == ',' || comment[i - 1] == '('))
            continue;
        if (auto c = readScoreToken(comment.substr(i, last - i + 1))) return *c;
    }
    return {};
}

std::string convertEnginePgn(std::istream& in, ConvertOutput& out) {
    PgnReader reader(in);
    PgnGame game;
    for (;;) {
        const NextPgnGame next = nextGameToConvert(reader, game, out);
        if (next == NextPgnGame::End) break;
        if (next == NextPgnGame::Skipped) continue;
        const auto result = whiteScore(game.result);
        if (!result) {
            out.skip("no result");
            continue;
        }
        auto start = recordableStart(game, out);
        if (!start) continue;
        Position pos = std::move(*start);
        // The book moves a game opens with are its opening, as a book line is for datagen: the
        // first searched plies after them are left out too.
        int openingPlies = 0;
        bool anyScore = false;
        for (std::size_t i = 0; i < game.moves.size(); ++i) {
            const PgnMove& m = game.moves[i];
            if (m.isNull()) {
                out.skip("null move");
                pos.makeNullMove();
                continue;
            }
            const EngineComment c = parseEngineComment(m.comment);
            if (c.kind == EngineComment::Kind::Book) {
                if (!anyScore && openingPlies == int(i)) ++openingPlies;
                out.skip("book move");
            } else if (c.kind == EngineComment::Kind::None) {
                out.skip("no score");
            } else {
                anyScore = true;
                const SkipReason skip = skipReason(pos, m.move, c.score, int(i), openingPlies);
                if (skip != SkipReason::None) {
                    out.skip(toString(skip));
                } else {
                    const TrainingRecord r = makeRecord(
                        pos, c.score, resultFor(pos.sideToMove(), *result), m.move, pos.gamePly());
                    if (auto e = out.write(r); !e.empty()) return e;
                }
            }
            pos.makeMove(m.move);
        }
        if (!anyScore) out.note("games without scores");
    }
    return {};
}

} // namespace axon::data

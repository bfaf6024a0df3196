// SPDX-License-Identifier: GPL-3.0-or-later
// Standard algebraic notation: the writer and the lenient reader declared in san.h.
#include "chess/san.h"

#include <optional>
#include <vector>

#include "chess/movegen.h"
#include "chess/uci_move.h"
#include "util/text.h"

namespace axon::chess {

namespace {

using util::makeError;

constexpr std::string_view kPieceLetters = "PNBRQK";
constexpr const char* kPieceNames[] = {"pawn", "knight", "bishop", "rook", "queen", "king"};

// Longer text cannot be a move even with every accepted decoration; rejecting it early keeps
// the reader's work bounded on hostile input.
constexpr size_t kMaxSanLength = 32;
constexpr size_t kMaxQuotedLength = 40;

bool isFile(char c) { return c >= 'a' && c <= 'h'; }
bool isRank(char c) { return c >= '1' && c <= '8'; }
PieceType pieceFromLetter(char c) {
    const size_t idx = kPieceLetters.find(c);
    return idx == std::string_view::npos ? NoPieceType : PieceType(idx);
}

PieceType promotionFromLetter(char c) {
    switch (c) {
    case 'N':
    case 'n': return Knight;
    case 'B':
    case 'b': return Bishop;
    case 'R':
    case 'r': return Rook;
    case 'Q':
    case 'q': return Queen;
    default: return NoPieceType;
    }
}

// The input as it appears in messages: control and non-ASCII bytes escaped, long text cut, so
// that fuzzed bytes never end up raw in a log.
std::string quoteInput(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "'";
    for (size_t i = 0; i < text.size() && i < kMaxQuotedLength; ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte >= 0x20 && byte < 0x7f) {
            out += char(byte);
        } else {
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 15];
        }
    }
    if (text.size() > kMaxQuotedLength) out += "...";
    return out + "'";
}

// Where m's piece needs its origin named: only other legal moves of the same piece type to the
// same square count, so a pinned twin does not force a disambiguation.
std::string disambiguation(const Position& pos, Move m) {
    const PieceType pt = typeOf(pos.movedPiece(m));
    bool clash = false, sameFile = false, sameRank = false;
    for (const Move other : MoveList(pos)) {
        if (other.to() != m.to() || other.from() == m.from() ||
            other.type() == MoveType::Castling || typeOf(pos.movedPiece(other)) != pt)
            continue;
        clash = true;
        sameFile |= fileOf(other.from()) == fileOf(m.from());
        sameRank |= rankOf(other.from()) == rankOf(m.from());
    }
    if (!clash) return {};
    if (!sameFile) return std::string(1, char('a' + fileOf(m.from())));
    if (!sameRank) return std::string(1, char('1' + rankOf(m.from())));
    return squareName(m.from());
}

std::string moveBody(const Position& pos, Move m) {
    if (m.type() == MoveType::Castling) return m.to() > m.from() ? "O-O" : "O-O-O";
    const PieceType pt = typeOf(pos.movedPiece(m));
    std::string san;
    if (pt == Pawn) {
        if (pos.isCapture(m)) san = {char('a' + fileOf(m.from())), 'x'};
    } else {
        san = kPieceLetters[pt] + disambiguation(pos, m);
        if (pos.isCapture(m)) san += 'x';
    }
    san += squareName(m.to());
    if (m.type() == MoveType::Promotion) {
        san += '=';
        san += kPieceLetters[m.promotion()];
    }
    return san;
}

// Decided by playing the move, not by a shortcut, so SAN stays right even for the rare
// discovered checks of en passant and Chess960 castling.
const char* checkSuffix(const Position& pos, Move m) {
    Position after = pos;
    after.makeMove(m);
    if (!after.inCheck()) return "";
    return countLegalMoves(after) == 0 ? "#" : "+";
}

// What a SAN string says about the move, before it is matched against the legal moves.
struct SanParts {
    PieceType piece = Pawn;
    int fromFile = -1, fromRank = -1;
    int toFile = -1, toRank = -1; // toRank stays -1 in abbreviated pawn captures ("exd")
    bool capture = false;
    bool enPassant = false;
    PieceType promotion = NoPieceType;
};

// Drops check marks, annotation glyphs and an "e.p." / "ep" marker, in any order. Every round
// removes at least one character, so it ends.
std::string_view stripDecorations(std::string_view s, bool& enPassant) {
    for (bool changed = true; changed;) {
        changed = false;
        while (!s.empty() && (s.back() == '+' || s.back() == '#' || s.back() == '!' ||
                              s.back() == '?' || util::isAsciiSpace(s.back()))) {
            s.remove_suffix(1);
            changed = true;
        }
        for (std::string_view marker : {"e.p.", "ep"}) {
            if (!changed && s.ends_with(marker)) {
                s.remove_suffix(marker.size());
                enPassant = changed = true;
            }
        }
    }
    return s;
}

// "O-O" / "0-0" -> 1 (king side), "O-O-O" / "0-0-0" -> 2 (queen side), otherwise 0.
int castlingSide(std::string_view s) {
    if (s == "O-O" || s == "0-0") return 1;
    if (s == "O-O-O" || s == "0-0-0") return 2;
    return 0;
}

// Splits "=Q" / "Q" / "q" off the end. A letter counts as a promotion only after '=' or a rank
// digit, so the file in an abbreviated capture like "axb" is not mistaken for a bishop.
std::optional<std::string> takePromotion(std::string_view& body, SanParts& parts) {
    if (body.size() < 2) return std::nullopt;
    const char last = body.back(), before = body[body.size() - 2];
    if (before != '=' && !(isRank(before) && promotionFromLetter(last) != NoPieceType))
        return std::nullopt;
    parts.promotion = promotionFromLetter(last);
    if (parts.promotion == NoPieceType)
        return "unknown promotion piece '" + std::string(1, last) + "'";
    body.remove_suffix(before == '=' ? 2 : 1);
    return std::nullopt;
}

// Origin hints: nothing, a file, a rank, or both.
bool parseOrigin(std::string_view s, SanParts& parts) {
    if (s.size() > 2) return false;
    if (!s.empty() && isFile(s.front())) {
        parts.fromFile = s.front() - 'a';
        s.remove_prefix(1);
    }
    if (!s.empty() && isRank(s.front())) {
        parts.fromRank = s.front() - '1';
        s.remove_prefix(1);
    }
    return s.empty();
}

// A square, or for pawn captures only a file.
bool parseDestination(std::string_view s, SanParts& parts) {
    if (s.empty() || s.size() > 2 || !isFile(s[0])) return false;
    parts.toFile = s[0] - 'a';
    if (s.size() == 2) {
        if (!isRank(s[1])) return false;
        parts.toRank = s[1] - '1';
        return true;
    }
    return parts.piece == Pawn && parts.fromFile >= 0 && parts.fromFile != parts.toFile;
}

// Origin and destination, split at 'x' or '-' when present, else the destination is the tail.
bool parseSquares(std::string_view body, SanParts& parts) {
    const size_t sep = body.find_first_of("x-");
    if (sep != std::string_view::npos) {
        parts.capture = body[sep] == 'x';
        return parseOrigin(body.substr(0, sep), parts) &&
               parseDestination(body.substr(sep + 1), parts);
    }
    if (body.empty()) return false;
    const size_t destLength = isRank(body.back()) ? 2 : 1;
    if (body.size() < destLength) return false;
    return parseOrigin(body.substr(0, body.size() - destLength), parts) &&
           parseDestination(body.substr(body.size() - destLength), parts);
}

std::optional<std::string> parseParts(std::string_view body, SanParts& parts) {
    if (body.empty()) return std::string("empty move");
    const char first = body.front();
    if (const PieceType pt = pieceFromLetter(first); pt != NoPieceType) {
        parts.piece = pt;
        body.remove_prefix(1);
    } else if (first == 'n' || first == 'r' || first == 'q' || first == 'k' || first == 'p') {
        return "piece letters must be upper case: write " +
               std::string(1, char(first - 'a' + 'A')) + std::string(body.substr(1)) +
               " (a lower-case b is the b-file, so bxc3 and b4 are pawn moves)";
    }
    if (auto err = takePromotion(body, parts)) return err;
    if (!parseSquares(body, parts)) return std::string("malformed move");
    if (parts.promotion != NoPieceType && parts.piece != Pawn)
        return std::string("only pawns promote");
    return std::nullopt;
}

bool matches(const Position& pos, Move m, const SanParts& parts) {
    if (m.type() == MoveType::Castling || typeOf(pos.movedPiece(m)) != parts.piece) return false;
    const Square from = m.from(), to = m.to();
    if (fileOf(to) != parts.toFile || (parts.toRank >= 0 && rankOf(to) != parts.toRank))
        return false;
    if ((parts.fromFile >= 0 && fileOf(from) != parts.fromFile) ||
        (parts.fromRank >= 0 && rankOf(from) != parts.fromRank))
        return false;
    // A pawn move written without a file ("d6") is a push; SAN always names a capturing pawn's
    // file.
    if (parts.piece == Pawn && parts.fromFile < 0 && !parts.capture && fileOf(from) != parts.toFile)
        return false;
    // A named capture, or a pawn changing file, only matches captures.
    const bool mustCapture =
        parts.capture || parts.toRank < 0 ||
        (parts.piece == Pawn && parts.fromFile >= 0 && parts.fromFile != parts.toFile);
    return !mustCapture || pos.isCapture(m);
}

std::string describeTarget(const SanParts& parts) {
    std::string target(1, char('a' + parts.toFile));
    if (parts.toRank >= 0) target += char('1' + parts.toRank);
    return target;
}

util::Result<Move> castlingMove(const Position& pos, int side, std::string_view text) {
    for (const Move m : MoveList(pos))
        if (m.type() == MoveType::Castling && (m.to() > m.from()) == (side == 1)) return m;
    return makeError("SAN " + quoteInput(text) + ": castling " +
                     (side == 1 ? "king side" : "queen side") + " is not legal here");
}

util::Result<Move> resolve(const Position& pos, const SanParts& parts, std::string_view text) {
    const auto fail = [&](const std::string& why) {
        return makeError("SAN " + quoteInput(text) + ": " + why);
    };
    std::vector<Move> found;
    bool promotionMissing = false;
    for (const Move m : MoveList(pos)) {
        if (!matches(pos, m, parts)) continue;
        const PieceType promo = m.type() == MoveType::Promotion ? m.promotion() : NoPieceType;
        if (promo != parts.promotion) {
            promotionMissing |= parts.promotion == NoPieceType;
            continue;
        }
        found.push_back(m);
    }
    if (found.empty() && promotionMissing)
        return fail("the promotion piece is missing (write e.g. " + describeTarget(parts) + "=Q)");
    if (found.empty())
        return fail(std::string("not a legal move here (no ") + kPieceNames[parts.piece] + " can " +
                    (parts.capture ? "capture on " : "move to ") + describeTarget(parts) + ")");
    if (found.size() > 1) {
        std::string list;
        for (const Move m : found) {
            if (!list.empty()) list += ", ";
            list += toSan(pos, m);
        }
        return fail("ambiguous, could be " + list);
    }
    if (parts.enPassant && found[0].type() != MoveType::EnPassant)
        return fail("marked e.p. but it is not an en-passant capture");
    return found[0];
}

util::Result<Move> parseStripped(const Position& pos, std::string_view core, bool enPassant,
                                 std::string_view text) {
    if (const int side = castlingSide(core)) return castlingMove(pos, side, text);
    if (core == "o-o" || core == "o-o-o")
        return makeError("SAN " + quoteInput(text) + ": castling is written O-O or O-O-O");
    SanParts parts;
    parts.enPassant = enPassant;
    if (auto err = parseParts(core, parts))
        return makeError("SAN " + quoteInput(text) + ": " + *err);
    return resolve(pos, parts, text);
}

} // namespace

std::string toSan(const Position& pos, Move m) {
    // Anything but a legal move gets PGN's null-move token rather than a misleading string.
    if (!pos.isPseudoLegal(m) || !pos.isLegal(m)) return "--";
    return moveBody(pos, m) + checkSuffix(pos, m);
}

util::Result<Move> parseSan(const Position& pos, std::string_view text) {
    const std::string_view trimmed = util::trimAsciiSpace(text);
    if (trimmed.empty()) return makeError("SAN " + quoteInput(text) + ": empty move");
    if (trimmed.size() > kMaxSanLength)
        return makeError("SAN " + quoteInput(text) + ": too long to be a move");
    bool enPassant = false;
    const std::string_view core = stripDecorations(trimmed, enPassant);
    auto result = parseStripped(pos, core, enPassant, text);
    // "bc4" is a pawn move by the grammar; when it is not legal but "Bc4" is, say so.
    if (!result.ok() && core.size() > 1 && core.front() == 'b') {
        std::string upper(core);
        upper.front() = 'B';
        if (parseStripped(pos, upper, enPassant, upper).ok())
            return makeError("SAN " + quoteInput(text) + ": piece letters must be upper case: " +
                             upper + " is a bishop move, while a lower-case b is the b-file");
    }
    return result;
}

} // namespace axon::chess

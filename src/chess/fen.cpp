// SPDX-License-Identifier: GPL-3.0-or-later
// FEN parser and writer.
#include "chess/fen.h"

#include <algorithm>
#include <charconv>
#include <vector>

namespace axon::chess {

namespace {

using util::makeError;

constexpr std::string_view kPieceChars = "PNBRQKpnbrqk";

std::vector<std::string_view> splitFields(std::string_view text) {
    std::vector<std::string_view> fields;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != '\t') ++j;
        if (j > i) fields.push_back(text.substr(i, j - i));
        i = j;
    }
    return fields;
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

std::optional<std::string> parsePlacement(Position& pos, std::string_view field) {
    int rank = 7, file = 0;
    for (char c : field) {
        if (c == '/') {
            if (file != 8) return "rank " + std::to_string(rank + 1) + " does not have 8 squares";
            if (--rank < 0) return std::string("more than 8 ranks");
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) return "rank " + std::to_string(rank + 1) + " has more than 8 squares";
        } else if (const size_t idx = kPieceChars.find(c); idx != std::string_view::npos) {
            if (file > 7) return "rank " + std::to_string(rank + 1) + " has more than 8 squares";
            pos.putPiece(Piece(idx), makeSquare(file, rank));
            ++file;
        } else {
            return std::string("unexpected character '") + c + "'";
        }
    }
    if (rank != 0 || file != 8) return std::string("the board does not have 8 full ranks");
    return std::nullopt;
}

// The rook a castling letter refers to: K/Q the outermost rook on that side (X-FEN), A-H/a-h the
// rook on that file (Shredder-FEN).
std::optional<std::string> parseCastling(Position& pos, std::string_view field) {
    if (field == "-") return std::nullopt;
    for (char c : field) {
        const Color color = (c >= 'a' && c <= 'z') ? Black : White;
        const char upper = char(color == Black ? c - 32 : c);
        const Bitboard king = pos.pieces(color, King);
        if (!king || moreThanOne(king))
            return std::string("castling right without exactly one king");
        const Square ksq = lsb(king);
        const int backRank = color == White ? 0 : 7;
        if (rankOf(ksq) != backRank)
            return std::string("castling right '") + c + "' but the king is not on its first rank";
        const Bitboard rooks = pos.pieces(color, Rook) & rankBB(backRank);
        Square rook = NoSquare;
        if (upper == 'K') {
            const Bitboard side = rooks & ~(squareBB(ksq) * 2 - 1) & ~squareBB(ksq);
            if (side) rook = msb(side);
        } else if (upper == 'Q') {
            const Bitboard side = rooks & (squareBB(ksq) - 1);
            if (side) rook = lsb(side);
        } else if (upper >= 'A' && upper <= 'H') {
            const Square s = makeSquare(upper - 'A', backRank);
            if (rooks & squareBB(s)) rook = s;
        } else {
            return std::string("unexpected castling character '") + c + "'";
        }
        if (rook == NoSquare)
            return std::string("castling right '") + c + "' without a rook in place";
        const CastlingRights right = castlingRight(color, rook > ksq);
        if (pos.canCastle(right)) return std::string("castling right '") + c + "' given twice";
        pos.addCastlingRight(color, rook);
        if (fileOf(ksq) != 4 || (fileOf(rook) != 0 && fileOf(rook) != 7)) pos.setChess960(true);
    }
    return std::nullopt;
}

std::optional<int> parseNumber(std::string_view s) {
    int value = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return value;
}

} // namespace

util::Result<Position> parseFen(std::string_view fen) {
    const auto fields = splitFields(fen);
    if (fields.size() < 4 || fields.size() > 6)
        return makeError("FEN must have 4 to 6 fields, found " + std::to_string(fields.size()));

    Position pos;
    if (auto err = parsePlacement(pos, fields[0])) return makeError("FEN piece placement: " + *err);

    if (fields[1] == "w")
        pos.setSideToMove(White);
    else if (fields[1] == "b")
        pos.setSideToMove(Black);
    else
        return makeError("FEN side to move: expected 'w' or 'b', found " + quoted(fields[1]));

    // Kings are needed to interpret castling; report their absence first.
    for (Color c : {White, Black})
        if (pos.count(c, King) != 1)
            return makeError(std::string("FEN position: ") + (c == White ? "white" : "black") +
                             (pos.count(c, King) ? " has more than one king" : " has no king"));

    if (auto err = parseCastling(pos, fields[2])) return makeError("FEN castling: " + *err);

    if (fields[3] != "-") {
        const std::string_view ep = fields[3];
        if (ep.size() != 2 || ep[0] < 'a' || ep[0] > 'h' || ep[1] < '1' || ep[1] > '8')
            return makeError("FEN en passant: not a square: " + quoted(ep));
        const Square sq = makeSquare(ep[0] - 'a', ep[1] - '1');
        const Color us = pos.sideToMove();
        const Square pawnSquare = sq - pawnPush(us);
        const Square origin = sq + pawnPush(us);
        if (relativeRank(us, sq) != 5 || !pos.isEmpty(sq) || !pos.isEmpty(origin) ||
            pos.pieceOn(pawnSquare) != makePiece(~us, Pawn))
            return makeError("FEN en passant: impossible square " + quoted(ep));
        pos.setEpSquare(sq);
    }

    int halfmove = 0, fullmove = 1;
    if (fields.size() >= 5) {
        const auto value = parseNumber(fields[4]);
        if (!value || *value < 0 || *value > 150)
            return makeError("FEN half-move clock: expected 0 to 150, found " + quoted(fields[4]));
        halfmove = *value;
    }
    if (fields.size() == 6) {
        const auto value = parseNumber(fields[5]);
        if (!value || *value < 0 || *value > 100000)
            return makeError("FEN full-move number: expected 1 to 100000, found " +
                             quoted(fields[5]));
        // Some tools write 0; read it as the first move rather than reject the position.
        fullmove = std::max(1, *value);
    }
    pos.setCounters(halfmove, fullmove);
    pos.finishSetup();
    if (auto err = pos.validate()) return makeError("FEN position: " + *err);
    return pos;
}

std::string toFen(const Position& pos) {
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Piece p = pos.pieceOn(makeSquare(file, rank));
            if (p == NoPiece) {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            fen += kPieceChars[p];
        }
        if (empty) fen += char('0' + empty);
        if (rank) fen += '/';
    }
    fen += pos.sideToMove() == White ? " w " : " b ";

    std::string castling;
    for (Color c : {White, Black}) {
        for (bool kingSide : {true, false}) {
            const CastlingRights right = castlingRight(c, kingSide);
            if (!pos.canCastle(right)) continue;
            const Square rook = pos.castlingRookSquare(right);
            const Bitboard backRooks = pos.pieces(c, Rook) & rankBB(rankOf(rook));
            const Square ksq = pos.kingSquare(c);
            const Bitboard outer =
                kingSide ? backRooks & ~(squareBB(ksq) * 2 - 1) : backRooks & (squareBB(ksq) - 1);
            const bool outermost = outer && (kingSide ? msb(outer) : lsb(outer)) == rook;
            char letter = outermost ? (kingSide ? 'K' : 'Q') : char('A' + fileOf(rook));
            if (c == Black) letter = char(letter + 32);
            castling += letter;
        }
    }
    fen += castling.empty() ? "-" : castling;
    fen += ' ';
    if (pos.epSquare() == NoSquare) {
        fen += '-';
    } else {
        fen += char('a' + fileOf(pos.epSquare()));
        fen += char('1' + rankOf(pos.epSquare()));
    }
    fen += ' ' + std::to_string(pos.halfmoveClock()) + ' ' + std::to_string(pos.fullmoveNumber());
    return fen;
}

Position startPosition() { return *parseFen(Position::kStartFen); }

} // namespace axon::chess

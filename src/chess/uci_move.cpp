// SPDX-License-Identifier: GPL-3.0-or-later
// UCI move notation.
#include "chess/uci_move.h"

#include "chess/movegen.h"

namespace axon::chess {

std::string squareName(Square s) { return {char('a' + fileOf(s)), char('1' + rankOf(s))}; }

Square parseSquare(std::string_view text) {
    if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
        return NoSquare;
    return makeSquare(text[0] - 'a', text[1] - '1');
}

std::string toUci(Move m, bool chess960) {
    if (!m) return "0000";
    if (m == Move::null()) return "0000";
    Square to = m.to();
    if (m.type() == MoveType::Castling && !chess960)
        to = makeSquare(to > m.from() ? 6 : 2, rankOf(m.from()));
    std::string text = squareName(m.from()) + squareName(to);
    if (m.type() == MoveType::Promotion) text += "nbrq"[m.promotion() - Knight];
    return text;
}

util::Result<Move> parseUciMove(const Position& pos, std::string_view text) {
    const auto bad = [&](const char* why) {
        return util::makeError("move '" + std::string(text) + "': " + why);
    };
    if (text.size() < 4 || text.size() > 5) return bad("expected UCI notation like e2e4 or e7e8q");
    const Square from = parseSquare(text.substr(0, 2));
    const Square to = parseSquare(text.substr(2, 2));
    if (from == NoSquare || to == NoSquare) return bad("expected UCI notation like e2e4 or e7e8q");
    PieceType promo = NoPieceType;
    if (text.size() == 5) {
        switch (text[4]) {
        case 'n':
        case 'N': promo = Knight; break;
        case 'b':
        case 'B': promo = Bishop; break;
        case 'r':
        case 'R': promo = Rook; break;
        case 'q':
        case 'Q': promo = Queen; break;
        default: return bad("unknown promotion piece");
        }
    }
    for (const Move m : MoveList(pos)) {
        if (m.from() != from) continue;
        if (m.type() == MoveType::Promotion) {
            if (m.to() == to && m.promotion() == promo) return m;
            continue;
        }
        if (promo != NoPieceType) continue;
        if (m.to() == to) return m;
        if (m.type() == MoveType::Castling &&
            to == makeSquare(m.to() > from ? 6 : 2, rankOf(from)) &&
            typeOf(pos.pieceOn(to)) != Rook)
            return m;
    }
    return bad("not a legal move in this position");
}

} // namespace axon::chess

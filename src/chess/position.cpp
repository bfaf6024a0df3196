// SPDX-License-Identifier: GPL-3.0-or-later
// Position state, make/unmake, check and pin bookkeeping, and legality of single moves.
#include "chess/position.h"

#include <algorithm>

#include "chess/cuckoo.h"
#include "chess/zobrist.h"

namespace axon::chess {

namespace {
// Enough states for a long game plus the deepest search line.
constexpr std::size_t kReservedStates = 512;
} // namespace

Position::Position() {
    m_states.reserve(kReservedStates);
    clear();
}

Position::Position(const Position& other) { *this = other; }

// Reuses this position's history buffer when it is large enough: the search assigns its root
// to each worker's position once per search, and datagen's searches are a few dozen nodes.
Position& Position::operator=(const Position& other) {
    if (this == &other) return *this;
    m_board = other.m_board;
    m_byType = other.m_byType;
    m_byColor = other.m_byColor;
    m_sideToMove = other.m_sideToMove;
    m_gamePly = other.m_gamePly;
    m_chess960 = other.m_chess960;
    m_castlingRook = other.m_castlingRook;
    m_castlingEmpty = other.m_castlingEmpty;
    m_castlingKingPath = other.m_castlingKingPath;
    m_rightsMask = other.m_rightsMask;
    m_states.reserve(other.m_states.size() + kReservedStates);
    m_states = other.m_states;
    return *this;
}

void Position::clear() {
    m_board.fill(NoPiece);
    m_byType.fill(0);
    m_byColor.fill(0);
    m_sideToMove = White;
    m_gamePly = 0;
    m_chess960 = false;
    m_castlingRook.fill(NoSquare);
    m_castlingEmpty.fill(0);
    m_castlingKingPath.fill(0);
    m_rightsMask.fill(0);
    m_states.clear();
    m_states.emplace_back();
}

void Position::putPiece(Piece p, Square s) {
    m_board[s] = p;
    m_byType[typeOf(p)] |= squareBB(s);
    m_byColor[colorOf(p)] |= squareBB(s);
}

void Position::removePiece(Square s) {
    const Piece p = m_board[s];
    m_byType[typeOf(p)] ^= squareBB(s);
    m_byColor[colorOf(p)] ^= squareBB(s);
    m_board[s] = NoPiece;
}

void Position::movePiece(Square from, Square to) {
    const Piece p = m_board[from];
    const Bitboard fromTo = squareBB(from) | squareBB(to);
    m_byType[typeOf(p)] ^= fromTo;
    m_byColor[colorOf(p)] ^= fromTo;
    m_board[from] = NoPiece;
    m_board[to] = p;
}

void Position::addCastlingRight(Color c, Square rookSquare) {
    const Square kingSquare = this->kingSquare(c);
    const bool kingSide = rookSquare > kingSquare;
    const CastlingRights right = castlingRight(c, kingSide);
    const int idx = castlingIndex(right);
    st().castling = CastlingRights(st().castling | right);
    m_castlingRook[idx] = rookSquare;
    m_rightsMask[kingSquare] |= right;
    m_rightsMask[rookSquare] |= right;

    const Square kingTo = castlingKingTarget(c, kingSide);
    const Square rookTo = castlingRookTarget(c, kingSide);
    m_castlingKingPath[idx] = between(kingSquare, kingTo) | squareBB(kingTo);
    m_castlingEmpty[idx] = (between(kingSquare, kingTo) | squareBB(kingTo) |
                            between(rookSquare, rookTo) | squareBB(rookTo)) &
                           ~(squareBB(kingSquare) | squareBB(rookSquare));
}

void Position::setCounters(int halfmoveClock, int fullmoveNumber) {
    st().halfmoveClock = std::uint16_t(halfmoveClock);
    m_gamePly = 2 * (fullmoveNumber - 1) + (m_sideToMove == Black);
}

void Position::finishSetup() {
    st().pliesFromNull = 0;
    updateCheckInfo();
    if (st().epSquare != NoSquare && !hasLegalEpCapture()) st().epSquare = NoSquare;
    st().key = computeKey();
    st().pawnKey = computePawnKey();
    for (Color c : {White, Black}) st().nonPawnKey[c] = computeNonPawnKey(c);
}

Key Position::computeKey() const {
    Key k = 0;
    for (Square s = A1; s < NoSquare; ++s)
        if (m_board[s] != NoPiece) k ^= zobrist::pieceSquare[m_board[s]][s];
    k ^= zobrist::castling[st().castling];
    if (st().epSquare != NoSquare) k ^= zobrist::enPassantFile[fileOf(st().epSquare)];
    if (m_sideToMove == Black) k ^= zobrist::sideToMove;
    return k;
}

Key Position::computeKeyOf(Bitboard squares) const {
    Key k = 0;
    while (squares) {
        const Square s = popLsb(squares);
        k ^= zobrist::pieceSquare[m_board[s]][s];
    }
    return k;
}

Key Position::computePawnKey() const { return computeKeyOf(pieces(Pawn)); }

Key Position::computeNonPawnKey(Color c) const {
    return computeKeyOf(m_byColor[c] & ~m_byType[Pawn]);
}

Bitboard Position::attackersTo(Square s, Bitboard occ) const {
    return (pawnAttacks(Black, s) & pieces(White, Pawn)) |
           (pawnAttacks(White, s) & pieces(Black, Pawn)) | (knightAttacks(s) & pieces(Knight)) |
           (bishopAttacks(s, occ) & pieces(Bishop, Queen)) |
           (rookAttacks(s, occ) & pieces(Rook, Queen)) | (kingAttacks(s) & pieces(King));
}

bool Position::isAttacked(Square s, Color by, Bitboard occ) const {
    const Bitboard them = pieces(by);
    return (pawnAttacks(~by, s) & them & pieces(Pawn)) ||
           (knightAttacks(s) & them & pieces(Knight)) || (kingAttacks(s) & them & pieces(King)) ||
           (bishopAttacks(s, occ) & them & pieces(Bishop, Queen)) ||
           (rookAttacks(s, occ) & them & pieces(Rook, Queen));
}

Bitboard Position::blockersFor(Square s, Color sliderColor) const {
    Bitboard snipers = ((rookAttacks(s, 0) & pieces(Rook, Queen)) |
                        (bishopAttacks(s, 0) & pieces(Bishop, Queen))) &
                       pieces(sliderColor);
    const Bitboard occ = pieces() ^ snipers;
    Bitboard blockers = 0;
    while (snipers) {
        const Bitboard b = between(s, popLsb(snipers)) & occ;
        if (b && !moreThanOne(b)) blockers |= b;
    }
    return blockers;
}

// Checkers and pin rays for the side to move. Snipers are found by looking from the king
// through our own pieces; a sniper with exactly one of our pieces in between pins it.
void Position::updateCheckInfo() {
    StateInfo& s = st();
    const Color us = m_sideToMove, them = ~us;
    const Square ksq = kingSquare(us);
    const Bitboard occ = pieces();
    s.checkers = attackersTo(ksq, occ) & pieces(them);
    s.pinOrthogonal = s.pinDiagonal = 0;

    Bitboard snipers = rookAttacks(ksq, pieces(them)) & pieces(them, Rook, Queen);
    while (snipers) {
        const Square sniper = popLsb(snipers);
        const Bitboard ray = between(ksq, sniper);
        const Bitboard blockers = ray & occ;
        if (blockers && !moreThanOne(blockers) && (blockers & pieces(us)))
            s.pinOrthogonal |= ray | squareBB(sniper);
    }
    snipers = bishopAttacks(ksq, pieces(them)) & pieces(them, Bishop, Queen);
    while (snipers) {
        const Square sniper = popLsb(snipers);
        const Bitboard ray = between(ksq, sniper);
        const Bitboard blockers = ray & occ;
        if (blockers && !moreThanOne(blockers) && (blockers & pieces(us)))
            s.pinDiagonal |= ray | squareBB(sniper);
    }
}

// En passant is the one capture that removes two pieces from a line through the king, so it is
// checked by recomputing attacks on the king with the final occupancy.
bool Position::epCaptureIsLegal(Square from, Square ep) const {
    const Color us = m_sideToMove, them = ~us;
    const Square ksq = kingSquare(us);
    const Square captured = ep - pawnPush(us);
    const Bitboard occ = (pieces() ^ squareBB(from) ^ squareBB(captured)) | squareBB(ep);
    return !((rookAttacks(ksq, occ) & pieces(them, Rook, Queen)) |
             (bishopAttacks(ksq, occ) & pieces(them, Bishop, Queen)) |
             (knightAttacks(ksq) & pieces(them, Knight)) |
             (pawnAttacks(us, ksq) & pieces(them, Pawn) & ~squareBB(captured)));
}

bool Position::hasLegalEpCapture() const {
    const Square ep = st().epSquare;
    Bitboard capturers = pawnAttacks(~m_sideToMove, ep) & pieces(m_sideToMove, Pawn);
    while (capturers)
        if (epCaptureIsLegal(popLsb(capturers), ep)) return true;
    return false;
}

void Position::doCastling(Color us, Square kingFrom, Square rookFrom, bool undo) {
    const bool kingSide = rookFrom > kingFrom;
    const Square kingTo = castlingKingTarget(us, kingSide);
    const Square rookTo = castlingRookTarget(us, kingSide);
    // Lift both pieces first: in Chess960 either may land where the other stood.
    if (undo) {
        removePiece(kingTo);
        removePiece(rookTo);
        putPiece(makePiece(us, King), kingFrom);
        putPiece(makePiece(us, Rook), rookFrom);
    } else {
        removePiece(kingFrom);
        removePiece(rookFrom);
        putPiece(makePiece(us, King), kingTo);
        putPiece(makePiece(us, Rook), rookTo);
    }
}

void Position::makeMove(Move m) {
    {
        const StateInfo previous = st();
        m_states.push_back(previous);
    }
    StateInfo& s = st();
    const Color us = m_sideToMove, them = ~us;
    const Square from = m.from(), to = m.to();
    const Piece piece = m_board[from];
    Key key = s.key ^ zobrist::sideToMove;

    if (s.epSquare != NoSquare) {
        key ^= zobrist::enPassantFile[fileOf(s.epSquare)];
        s.epSquare = NoSquare;
    }
    s.move = m;
    s.captured = NoPiece;
    ++s.halfmoveClock;
    ++s.pliesFromNull;
    Square newEp = NoSquare;

    if (m.type() == MoveType::Castling) {
        const bool kingSide = to > from;
        const Piece rook = makePiece(us, Rook);
        const Square kingTo = castlingKingTarget(us, kingSide);
        const Square rookTo = castlingRookTarget(us, kingSide);
        const Key moved = zobrist::pieceSquare[piece][from] ^ zobrist::pieceSquare[piece][kingTo] ^
                          zobrist::pieceSquare[rook][to] ^ zobrist::pieceSquare[rook][rookTo];
        key ^= moved;
        s.nonPawnKey[us] ^= moved;
        doCastling(us, from, to, false);
    } else {
        if (m.type() == MoveType::EnPassant) {
            const Square capSq = to - pawnPush(us);
            s.captured = m_board[capSq];
            removePiece(capSq);
            key ^= zobrist::pieceSquare[s.captured][capSq];
            s.pawnKey ^= zobrist::pieceSquare[s.captured][capSq];
        } else if (m_board[to] != NoPiece) {
            s.captured = m_board[to];
            removePiece(to);
            key ^= zobrist::pieceSquare[s.captured][to];
            if (typeOf(s.captured) == Pawn)
                s.pawnKey ^= zobrist::pieceSquare[s.captured][to];
            else
                s.nonPawnKey[them] ^= zobrist::pieceSquare[s.captured][to];
            s.halfmoveClock = 0;
        }
        movePiece(from, to);
        const Key moved = zobrist::pieceSquare[piece][from] ^ zobrist::pieceSquare[piece][to];
        key ^= moved;

        if (typeOf(piece) == Pawn) {
            s.halfmoveClock = 0;
            s.pawnKey ^= zobrist::pieceSquare[piece][from];
            if (m.type() == MoveType::Promotion) {
                const Piece promoted = makePiece(us, m.promotion());
                removePiece(to);
                putPiece(promoted, to);
                key ^= zobrist::pieceSquare[piece][to] ^ zobrist::pieceSquare[promoted][to];
                s.nonPawnKey[us] ^= zobrist::pieceSquare[promoted][to];
            } else {
                s.pawnKey ^= zobrist::pieceSquare[piece][to];
                if ((from ^ to) == 16 &&
                    (pawnAttacks(us, from + pawnPush(us)) & pieces(them, Pawn)))
                    newEp = from + pawnPush(us);
            }
        } else {
            s.nonPawnKey[us] ^= moved;
        }
    }

    if (s.castling && (m_rightsMask[from] | m_rightsMask[to])) {
        key ^= zobrist::castling[s.castling];
        s.castling = CastlingRights(s.castling & ~(m_rightsMask[from] | m_rightsMask[to]));
        key ^= zobrist::castling[s.castling];
    }

    m_sideToMove = them;
    ++m_gamePly;
    updateCheckInfo();
    if (newEp != NoSquare) {
        s.epSquare = newEp;
        if (hasLegalEpCapture())
            key ^= zobrist::enPassantFile[fileOf(newEp)];
        else
            s.epSquare = NoSquare;
    }
    s.key = key;
}

void Position::unmakeMove() {
    const StateInfo& s = st();
    const Move m = s.move;
    const Color us = ~m_sideToMove;
    const Square from = m.from(), to = m.to();
    m_sideToMove = us;
    --m_gamePly;

    if (m.type() == MoveType::Castling) {
        doCastling(us, from, to, true);
    } else {
        if (m.type() == MoveType::Promotion) {
            removePiece(to);
            putPiece(makePiece(us, Pawn), to);
        }
        movePiece(to, from);
        if (s.captured != NoPiece)
            putPiece(s.captured, m.type() == MoveType::EnPassant ? to - pawnPush(us) : to);
    }
    m_states.pop_back();
}

void Position::makeNullMove() {
    {
        const StateInfo previous = st();
        m_states.push_back(previous);
    }
    StateInfo& s = st();
    s.key ^= zobrist::sideToMove;
    if (s.epSquare != NoSquare) {
        s.key ^= zobrist::enPassantFile[fileOf(s.epSquare)];
        s.epSquare = NoSquare;
    }
    s.move = Move::null();
    s.captured = NoPiece;
    ++s.halfmoveClock;
    s.pliesFromNull = 0;
    m_sideToMove = ~m_sideToMove;
    ++m_gamePly;
    updateCheckInfo();
}

void Position::unmakeNullMove() {
    m_states.pop_back();
    m_sideToMove = ~m_sideToMove;
    --m_gamePly;
}

Key Position::keyAfter(Move m) const {
    const Square from = m.from(), to = m.to();
    const Piece piece = m_board[from];
    Key k = st().key ^ zobrist::sideToMove;
    if (st().epSquare != NoSquare) k ^= zobrist::enPassantFile[fileOf(st().epSquare)];
    if (m.type() == MoveType::Castling) return k; // rare; an approximate key only costs a prefetch
    if (m_board[to] != NoPiece) k ^= zobrist::pieceSquare[m_board[to]][to];
    k ^= zobrist::pieceSquare[piece][from] ^ zobrist::pieceSquare[piece][to];
    if (const int lost = m_rightsMask[from] | m_rightsMask[to]; lost & st().castling)
        k ^= zobrist::castling[st().castling] ^ zobrist::castling[st().castling & ~lost];
    return k;
}

bool Position::isPseudoLegal(Move m) const {
    const Color us = m_sideToMove;
    const Square from = m.from(), to = m.to();
    const Piece piece = m_board[from];
    if (!m.isOk() || piece == NoPiece || colorOf(piece) != us) return false;
    // Only promotions may carry promotion bits: every move has one canonical encoding.
    if (m.promotion() != Knight && m.type() != MoveType::Promotion) return false;
    const Bitboard occ = pieces();
    const Bitboard toBB = squareBB(to);

    if (m.type() == MoveType::Castling) {
        if (typeOf(piece) != King || m_board[to] != makePiece(us, Rook)) return false;
        const CastlingRights right = castlingRight(us, to > from);
        return canCastle(right) && castlingRookSquare(right) == to && isLegal(m);
    }
    if (pieces(us) & toBB) return false;

    const bool lastRank = relativeRank(us, to) == 7;
    if (typeOf(piece) == Pawn) {
        if ((m.type() == MoveType::Promotion) != lastRank) return false;
        if (m.type() == MoveType::EnPassant) {
            if (to != st().epSquare || !(pawnAttacks(us, from) & toBB)) return false;
        } else {
            const bool capture = pawnAttacks(us, from) & pieces(~us) & toBB;
            const bool single = from + pawnPush(us) == to && !(occ & toBB);
            const bool dbl = relativeRank(us, from) == 1 && from + 2 * pawnPush(us) == to &&
                             !(occ & toBB) && !(occ & squareBB(from + pawnPush(us)));
            if (!capture && !single && !dbl) return false;
        }
    } else {
        if (m.type() != MoveType::Normal) return false;
        if (!(attacks(typeOf(piece), from, occ) & toBB)) return false;
    }

    // In check, a non-king move must capture the single checker or block it.
    if (inCheck() && typeOf(piece) != King) {
        if (moreThanOne(checkers())) return false;
        const Square checker = lsb(checkers());
        const Bitboard target = between(kingSquare(us), checker) | checkers();
        if (!(target & toBB) &&
            !(m.type() == MoveType::EnPassant && checkers() == squareBB(to - pawnPush(us))))
            return false;
    }
    return true;
}

bool Position::isLegal(Move m) const {
    const Color us = m_sideToMove, them = ~us;
    const Square from = m.from(), to = m.to();
    const Square ksq = kingSquare(us);

    if (m.type() == MoveType::Castling) {
        if (inCheck()) return false;
        const int idx = castlingIndex(castlingRight(us, to > from));
        const Bitboard occ = pieces();
        if (occ & m_castlingEmpty[idx]) return false;
        for (Bitboard path = m_castlingKingPath[idx]; path;)
            if (isAttacked(popLsb(path), them, occ)) return false;
        // The castling rook itself may have shielded the king's destination (Chess960).
        const Square kingTo = castlingKingTarget(us, to > from);
        return !isAttacked(kingTo, them, occ ^ squareBB(to) ^ squareBB(from));
    }
    if (m.type() == MoveType::EnPassant) return epCaptureIsLegal(from, to);
    if (from == ksq) return !isAttacked(to, them, pieces() ^ squareBB(from));
    const Bitboard pins = st().pinOrthogonal | st().pinDiagonal;
    return !(pins & squareBB(from)) || aligned(from, to, ksq);
}

CheckSquares Position::checkSquares() const {
    const Color us = m_sideToMove, them = ~us;
    const Square theirKing = kingSquare(them);
    const Bitboard occ = pieces();
    CheckSquares checks{};
    const Bitboard diagonal = bishopAttacks(theirKing, occ);
    const Bitboard orthogonal = rookAttacks(theirKing, occ);
    checks.byPiece[makePiece(us, Pawn)] = pawnAttacks(them, theirKing);
    checks.byPiece[makePiece(us, Knight)] = knightAttacks(theirKing);
    checks.byPiece[makePiece(us, Bishop)] = diagonal;
    checks.byPiece[makePiece(us, Rook)] = orthogonal;
    checks.byPiece[makePiece(us, Queen)] = diagonal | orthogonal;
    checks.discoverers = discoveredCheckCandidates();
    checks.theirKing = theirKing;
    return checks;
}

bool Position::givesCheckSpecial(Move m, const CheckSquares& checks) const {
    const Color us = m_sideToMove;
    const Square from = m.from(), to = m.to();
    const Square theirKing = checks.theirKing;
    const Bitboard kingBB = squareBB(theirKing);
    const Bitboard occ = pieces();
    // Discovered check: the mover leaves a line between one of our sliders and their king.
    const bool discovers = (checks.discoverers & squareBB(from)) && !aligned(from, to, theirKing);

    switch (m.type()) {
    case MoveType::Normal: return givesCheck(m, checks);
    case MoveType::Promotion: {
        const Bitboard occAfter = (occ ^ squareBB(from)) | squareBB(to);
        return (attacks(m.promotion(), to, occAfter) & kingBB) || discovers;
    }
    case MoveType::EnPassant: {
        const Square capSq = to - pawnPush(us);
        const Bitboard occAfter = (occ ^ squareBB(from) ^ squareBB(capSq)) | squareBB(to);
        return (pawnAttacks(us, to) & kingBB) ||
               (rookAttacks(theirKing, occAfter) & pieces(us, Rook, Queen)) ||
               (bishopAttacks(theirKing, occAfter) & pieces(us, Bishop, Queen));
    }
    case MoveType::Castling: {
        const bool kingSide = to > from;
        const Square rookTo = castlingRookTarget(us, kingSide);
        const Square kingTo = castlingKingTarget(us, kingSide);
        const Bitboard occAfter =
            (occ ^ squareBB(from) ^ squareBB(to)) | squareBB(rookTo) | squareBB(kingTo);
        return rookAttacks(rookTo, occAfter) & kingBB;
    }
    }
    return false;
}

bool Position::isRepetition(int pliesFromRoot) const {
    const int end = std::min<int>(st().halfmoveClock, st().pliesFromNull);
    const int last = int(m_states.size()) - 1;
    int earlier = 0;
    for (int i = 4; i <= end && i <= last; i += 2) {
        if (m_states[last - i].key != st().key) continue;
        if (i < pliesFromRoot || ++earlier == 2) return true;
    }
    return false;
}

bool Position::hasUpcomingRepetition(int pliesFromRoot) const {
    const int end = std::min<int>(st().halfmoveClock, st().pliesFromNull);
    const int last = int(m_states.size()) - 1;
    // An odd distance: the earlier position has the other side to move, one move away.
    for (int i = 3; i <= end && i <= last && i < pliesFromRoot; i += 2) {
        const auto move = cuckoo::find(st().key ^ m_states[last - i].key);
        if (!move || (between(move->a, move->b) & pieces())) continue;
        const Square from = m_board[move->a] != NoPiece ? move->a : move->b;
        if (colorOf(m_board[from]) == m_sideToMove) return true;
    }
    return false;
}

int Position::repetitionCount() const {
    const int end = std::min<int>(st().halfmoveClock, st().pliesFromNull);
    const int last = int(m_states.size()) - 1;
    int earlier = 0;
    for (int i = 4; i <= end && i <= last; i += 2)
        if (m_states[last - i].key == st().key) ++earlier;
    return earlier;
}

bool Position::hasRepeatedSinceZeroing() const {
    const int last = int(m_states.size()) - 1;
    const int window = std::min<int>({st().halfmoveClock, st().pliesFromNull, last});
    for (int back = 0; back + 4 <= window; ++back) {
        const StateInfo& later = m_states[last - back];
        const int reach = std::min<int>(later.halfmoveClock, later.pliesFromNull);
        for (int i = 4; i <= reach && back + i <= last; i += 2)
            if (m_states[last - back - i].key == later.key) return true;
    }
    return false;
}

std::optional<std::string> Position::validate() const {
    for (Color c : {White, Black}) {
        const int kings = count(c, King);
        if (kings != 1)
            return std::string(c == White ? "white" : "black") +
                   (kings == 0 ? " has no king" : " has more than one king");
    }
    if (pieces(Pawn) & (kRank1 | kRank8)) return std::string("pawn on the first or last rank");
    for (Color c : {White, Black}) {
        const char* name = c == White ? "white" : "black";
        if (count(c, Pawn) > 8) return std::string(name) + " has more than 8 pawns";
        if (popcount(pieces(c)) > 16) return std::string(name) + " has more than 16 pieces";
    }
    if (isAttacked(kingSquare(~m_sideToMove), m_sideToMove, pieces()))
        return std::string("the side not to move is in check");
    if (popcount(checkers()) > 2) return std::string("impossible check (more than two checkers)");
    for (Color c : {White, Black}) {
        for (bool kingSide : {true, false}) {
            const CastlingRights r = castlingRight(c, kingSide);
            if (!canCastle(r)) continue;
            const Square rook = castlingRookSquare(r), king = kingSquare(c);
            if (relativeRank(c, king) != 0 || rook == NoSquare ||
                m_board[rook] != makePiece(c, Rook) || rankOf(rook) != rankOf(king) ||
                (rook > king) != kingSide)
                return std::string("castling right without king and rook in place");
        }
    }
    return std::nullopt;
}

bool Position::isConsistent() const {
    Bitboard seen = 0;
    for (Square s = A1; s < NoSquare; ++s) {
        const Piece p = m_board[s];
        if (p == NoPiece) continue;
        if (!(pieces(colorOf(p), typeOf(p)) & squareBB(s))) return false;
        seen |= squareBB(s);
    }
    if (seen != pieces() || (m_byColor[White] & m_byColor[Black])) return false;
    Bitboard typeUnion = 0;
    for (Bitboard b : m_byType) {
        if (typeUnion & b) return false;
        typeUnion |= b;
    }
    if (typeUnion != pieces()) return false;
    if (computeKey() != key() || computePawnKey() != pawnKey()) return false;
    for (Color c : {White, Black})
        if (computeNonPawnKey(c) != nonPawnKey(c)) return false;
    return checkers() == (attackersTo(kingSquare(m_sideToMove)) & pieces(~m_sideToMove));
}

} // namespace axon::chess

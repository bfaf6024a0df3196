// SPDX-License-Identifier: GPL-3.0-or-later
// The position: piece placement, side to move, castling, en passant, counters, incremental keys,
// check and pin information, and make/unmake with a state stack.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "chess/attacks.h"
#include "chess/types.h"

namespace axon::chess {

// Everything make() changes that unmake() cannot recompute cheaply.
struct StateInfo {
    Key key = 0;
    Key pawnKey = 0;
    // Each side's pieces other than pawns (king included), for the search's correction history.
    Key nonPawnKey[kNumColors] = {0, 0};
    // Pieces giving check to the side to move.
    Bitboard checkers = 0;
    // Rays (king excluded, pinner included) along which the side to move's pinned pieces may
    // still move, split by direction so pawns and sliders can be filtered in bulk.
    Bitboard pinOrthogonal = 0;
    Bitboard pinDiagonal = 0;
    Move move = Move::none();
    Piece captured = NoPiece;
    Square epSquare = NoSquare;
    CastlingRights castling = NoCastling;
    std::uint16_t halfmoveClock = 0;
    // Plies since the last null move (or the start of the history), bounding repetition scans.
    std::uint16_t pliesFromNull = 0;
};

// What tells, for every move of a node, whether it gives check: the squares from which each of
// the side to move's pieces attacks the enemy king (on today's occupancy: a slider that moves
// along its own line to the king cannot newly give check there, since it would have been giving
// it already), and the side to move's pieces that uncover a slider's line when they leave it.
// Indexed by Piece rather than PieceType so a normal move needs no type lookup: the other side's
// pieces and NoPiece hold no squares.
struct CheckSquares {
    Bitboard byPiece[kNumPieces + 1];
    Bitboard discoverers;
    Square theirKing;
};

class Position {
  public:
    Position();
    // Copies keep room for a deep search's worth of states, so make() never reallocates there.
    Position(const Position& other);
    Position& operator=(const Position& other);
    Position(Position&&) noexcept = default;
    Position& operator=(Position&&) noexcept = default;

    static constexpr const char* kStartFen =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    // --- Piece placement -------------------------------------------------------------------
    Piece pieceOn(Square s) const { return m_board[s]; }
    bool isEmpty(Square s) const { return m_board[s] == NoPiece; }
    Bitboard pieces() const { return m_byColor[White] | m_byColor[Black]; }
    Bitboard pieces(Color c) const { return m_byColor[c]; }
    Bitboard pieces(PieceType pt) const { return m_byType[pt]; }
    Bitboard pieces(PieceType a, PieceType b) const { return m_byType[a] | m_byType[b]; }
    Bitboard pieces(Color c, PieceType pt) const { return m_byColor[c] & m_byType[pt]; }
    Bitboard pieces(Color c, PieceType a, PieceType b) const {
        return m_byColor[c] & (m_byType[a] | m_byType[b]);
    }
    Square kingSquare(Color c) const { return lsb(pieces(c, King)); }
    int count(Color c, PieceType pt) const { return popcount(pieces(c, pt)); }

    // --- Game state ------------------------------------------------------------------------
    Color sideToMove() const { return m_sideToMove; }
    Square epSquare() const { return st().epSquare; }
    CastlingRights castlingRights() const { return st().castling; }
    bool canCastle(CastlingRights r) const { return st().castling & r; }
    // The rook that castles for right r (its initial square), NoSquare when never set.
    Square castlingRookSquare(CastlingRights r) const { return m_castlingRook[castlingIndex(r)]; }
    int halfmoveClock() const { return st().halfmoveClock; }
    int fullmoveNumber() const { return 1 + m_gamePly / 2; }
    int gamePly() const { return m_gamePly; }
    bool isChess960() const { return m_chess960; }
    void setChess960(bool v) { m_chess960 = v; }

    Key key() const { return st().key; }
    Key pawnKey() const { return st().pawnKey; }
    Key nonPawnKey(Color c) const { return st().nonPawnKey[c]; }
    // Key after move m without making it (exact for everything except en-passant availability,
    // which depends on the reply; used for TT prefetch).
    Key keyAfter(Move m) const;
    Bitboard checkers() const { return st().checkers; }
    bool inCheck() const { return st().checkers != 0; }
    Bitboard pinOrthogonal() const { return st().pinOrthogonal; }
    Bitboard pinDiagonal() const { return st().pinDiagonal; }
    // Side-to-move pieces pinned to their own king.
    Bitboard pinned() const {
        return (st().pinOrthogonal | st().pinDiagonal) & pieces(m_sideToMove);
    }
    Move lastMove() const { return st().move; }
    Piece capturedPiece() const { return st().captured; }
    const StateInfo& state() const { return st(); }

    // --- Attacks ---------------------------------------------------------------------------
    Bitboard attackersTo(Square s, Bitboard occupied) const;
    Bitboard attackersTo(Square s) const { return attackersTo(s, pieces()); }
    bool isAttacked(Square s, Color by, Bitboard occupied) const;
    // Pieces of either colour that shield `s` from sliders of colour `sliderColor`.
    Bitboard blockersFor(Square s, Color sliderColor) const;

    // --- Moves -----------------------------------------------------------------------------
    Piece movedPiece(Move m) const { return m_board[m.from()]; }
    bool isCapture(Move m) const {
        return (m.type() != MoveType::Castling && !isEmpty(m.to())) ||
               m.type() == MoveType::EnPassant;
    }
    // Type of the piece m captures (a pawn for en passant), NoPieceType for non-captures.
    PieceType capturedType(Move m) const {
        return m.type() == MoveType::EnPassant  ? Pawn
               : m.type() == MoveType::Castling ? NoPieceType
                                                : typeOf(m_board[m.to()]);
    }
    // Captures and promotions: the moves quiescence search looks at.
    bool isNoisy(Move m) const { return isCapture(m) || m.type() == MoveType::Promotion; }
    // Could m be generated in this position (assuming nothing about where it came from)?
    bool isPseudoLegal(Move m) const;
    // Is a pseudo-legal move legal (does not leave the own king attacked)?
    bool isLegal(Move m) const;
    bool givesCheck(Move m) const { return givesCheck(m, checkSquares()); }
    // The same with the squares worked out once per node (the search asks for every move, the
    // move picker for every quiet). Normal moves, nearly all, are answered inline.
    bool givesCheck(Move m, const CheckSquares& checks) const {
        if (m.type() != MoveType::Normal) return givesCheckSpecial(m, checks);
        const Square from = m.from(), to = m.to();
        return (checks.byPiece[m_board[from]] & squareBB(to)) ||
               ((checks.discoverers & squareBB(from)) && !aligned(from, to, checks.theirKing));
    }
    // Where each of the side to move's pieces would attack the enemy king from, and its pieces
    // whose leaving a line would uncover a check.
    CheckSquares checkSquares() const;
    // Our pieces standing between one of our sliders and the enemy king.
    Bitboard discoveredCheckCandidates() const {
        return blockersFor(kingSquare(~m_sideToMove), m_sideToMove) & pieces(m_sideToMove);
    }
    // Castling geometry of right r: squares that must be empty, squares the king crosses.
    Bitboard castlingEmptySquares(CastlingRights r) const {
        return m_castlingEmpty[castlingIndex(r)];
    }
    Bitboard castlingKingPath(CastlingRights r) const {
        return m_castlingKingPath[castlingIndex(r)];
    }
    // Legality of the en-passant capture from `from` (pins through two vacated squares).
    bool isLegalEnPassant(Square from) const { return epCaptureIsLegal(from, st().epSquare); }
    // Static exchange evaluation: does m win at least `threshold` material (pawn = 100)?
    bool seeGe(Move m, int threshold) const;

    void makeMove(Move m);
    void unmakeMove();
    // Precondition: not in check (a null move would leave the king capturable).
    void makeNullMove();
    void unmakeNullMove();

    // --- Rules -----------------------------------------------------------------------------
    // Has the current position occurred before? Inside a search a single earlier occurrence
    // after the root counts (twofold); at the root or before it, it must be a threefold
    // repetition (a return to the root position is no draw the engine can claim).
    bool isRepetition(int pliesFromRoot) const;
    // Can the side to move repeat a position of the search (after the root) with one reversible
    // move? Then it can at least hold a draw (chess/cuckoo.h).
    bool hasUpcomingRepetition(int pliesFromRoot) const;
    // Number of earlier occurrences of the current position within the reversible history.
    int repetitionCount() const;
    // Has any position since the last capture or pawn move (and null move) occurred twice?
    // (Tablebase root ranking: a win must then come within the fifty moves as they stand.)
    bool hasRepeatedSinceZeroing() const;
    bool isFiftyMoveDraw() const { return st().halfmoveClock >= 100; }

    // --- Set-up (used by the FEN parser; call finishSetup() after changing anything) -------
    void clear();
    void putPiece(Piece p, Square s);
    void setSideToMove(Color c) { m_sideToMove = c; }
    // Grants a castling right with the given rook; the king must already be placed.
    void addCastlingRight(Color c, Square rookSquare);
    void setEpSquare(Square s) { st().epSquare = s; }
    void setCounters(int halfmoveClock, int fullmoveNumber);
    // Recomputes keys, checkers and pins; drops an en-passant square that allows no legal
    // capture, so that equal positions always have equal keys.
    void finishSetup();
    // Describes what makes the position illegal, or nothing when it is fine.
    std::optional<std::string> validate() const;

    // --- Verification --------------------------------------------------------------------
    Key computeKey() const;
    Key computePawnKey() const;
    Key computeNonPawnKey(Color c) const;
    // Internal consistency: bitboards vs mailbox, keys, checkers. For tests.
    bool isConsistent() const;

  private:
    // givesCheck for promotions, en passant and castling.
    bool givesCheckSpecial(Move m, const CheckSquares& checks) const;

    // XOR of the piece-square keys of the pieces on `squares`.
    Key computeKeyOf(Bitboard squares) const;
    StateInfo& st() { return m_states.back(); }
    const StateInfo& st() const { return m_states.back(); }
    void removePiece(Square s);
    void movePiece(Square from, Square to);
    void updateCheckInfo();
    bool epCaptureIsLegal(Square from, Square epSquare) const;
    bool hasLegalEpCapture() const;
    void doCastling(Color us, Square kingFrom, Square rookFrom, bool undo);

    std::array<Piece, kNumSquares> m_board;
    std::array<Bitboard, kNumPieceTypes> m_byType;
    std::array<Bitboard, kNumColors> m_byColor;
    Color m_sideToMove = White;
    int m_gamePly = 0;
    bool m_chess960 = false;

    // Castling geometry, per right (index castlingIndex(r)).
    std::array<Square, 4> m_castlingRook;
    std::array<Bitboard, 4> m_castlingEmpty;    // must be empty (king and rook excluded)
    std::array<Bitboard, 4> m_castlingKingPath; // must not be attacked, destination included
    // Rights lost when a move starts or ends on a square.
    std::array<std::uint8_t, kNumSquares> m_rightsMask;

    std::vector<StateInfo> m_states;
};

// Where king and rook end up after castling with right r.
constexpr Square castlingKingTarget(Color c, bool kingSide) {
    return relative(c, kingSide ? G1 : C1);
}
constexpr Square castlingRookTarget(Color c, bool kingSide) {
    return relative(c, kingSide ? F1 : D1);
}

} // namespace axon::chess

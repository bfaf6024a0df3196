// SPDX-License-Identifier: GPL-3.0-or-later
// GameModel: the game record (start position, moves with SAN and FEN) and every rule of how it ends.

import { Chess, normalizeMove } from 'chessops/chess';
import { makeFen, parseFen, INITIAL_FEN } from 'chessops/fen';
import { makeSanAndPlay, parseSan } from 'chessops/san';
import { makeUci, parseUci } from 'chessops/util';
import type { Color, Move } from 'chessops/types';

export type Result = '1-0' | '0-1' | '1/2-1/2';
export type EndReason =
  | 'Checkmate'
  | 'Stalemate'
  | 'Threefold repetition'
  | 'Fifty-move rule'
  | 'Insufficient material'
  | 'Time'
  | 'Resigned'
  | 'Draw agreed';

export interface GameOutcome {
  result: Result;
  reason: EndReason;
  /** The winner, or undefined for a draw. */
  winner?: Color;
}

export interface PlayedMove {
  uci: string;
  san: string;
  /** The position after this move. */
  fen: string;
  capture: boolean;
  check: boolean;
}

export { INITIAL_FEN };

/** Parses a FEN into a legal position; throws Error with a readable message otherwise. */
export function positionFromFen(fen: string): Chess {
  const setup = parseFen(fen.trim());
  if (setup.isErr) throw new Error(`not a valid FEN (${setup.error.message})`);
  const position = Chess.fromSetup(setup.value);
  if (position.isErr) throw new Error(`not a legal position (${position.error.message})`);
  return position.value;
}

/** The part of a FEN that decides repetition: placement, side to move, castling, en passant. */
function repetitionKey(fen: string): string {
  return fen.split(' ').slice(0, 4).join(' ');
}

export class GameModel {
  private m_startFen: string;
  private m_positions: Chess[];
  private m_moves: PlayedMove[] = [];
  /** Outcomes that no position shows: time, resignation, agreement. */
  private m_externalOutcome: GameOutcome | null = null;

  constructor(startFen: string = INITIAL_FEN) {
    const start = positionFromFen(startFen);
    this.m_startFen = makeFen(start.toSetup());
    this.m_positions = [start];
  }

  get startFen(): string {
    return this.m_startFen;
  }
  get moves(): readonly PlayedMove[] {
    return this.m_moves;
  }
  get plyCount(): number {
    return this.m_moves.length;
  }
  movesUci(): string[] {
    return this.m_moves.map((m) => m.uci);
  }
  /** The position after `ply` moves (0 = start). */
  position(ply: number = this.plyCount): Chess {
    return this.m_positions[Math.max(0, Math.min(ply, this.plyCount))]!.clone();
  }
  fen(ply: number = this.plyCount): string {
    return ply <= 0 ? this.m_startFen : this.m_moves[Math.min(ply, this.plyCount) - 1]!.fen;
  }
  turn(ply: number = this.plyCount): Color {
    return this.m_positions[Math.min(ply, this.plyCount)]!.turn;
  }
  /** The side that made move number `ply` (1-based). */
  moverOf(ply: number): Color {
    return this.turn(ply - 1);
  }

  /** Parses UCI or SAN in the current position; undefined when not a legal move. */
  parseMove(text: string, ply: number = this.plyCount): Move | undefined {
    const position = this.m_positions[ply]!;
    const trimmed = text.trim();
    const uci = parseUci(trimmed.toLowerCase());
    if (uci) {
      const normalised = normalizeMove(position, uci);
      if (position.isLegal(normalised)) return normalised;
    }
    const san = parseSan(position, trimmed.replace(/[!?]+$/, '').replace(/0/g, 'O'));
    return san && position.isLegal(san) ? san : undefined;
  }

  /**
   * Plays a legal move given in UCI or SAN at the end of the game; returns it, or null if illegal.
   * After a draw by rule (repetition, fifty moves) only analysis goes on: `pastDrawRules`.
   */
  play(text: string, pastDrawRules = false): PlayedMove | null {
    const outcome = this.outcome();
    if (outcome && !(pastDrawRules && (outcome.reason === 'Threefold repetition' || outcome.reason === 'Fifty-move rule')))
      return null;
    const move = this.parseMove(text);
    if (!move) return null;
    const position = this.position();
    const capture =
      'from' in move && (position.board.occupied.has(move.to) || (position.board.pawn.has(move.from) && move.to === position.epSquare));
    const uci = makeUci(move);
    const san = makeSanAndPlay(position, move);
    const played: PlayedMove = {
      uci: normaliseCastlingUci(uci, san),
      san,
      fen: makeFen(position.toSetup()),
      capture: Boolean(capture),
      check: position.isCheck(),
    };
    this.m_moves.push(played);
    this.m_positions.push(position);
    return played;
  }

  /** Drops the moves after `ply` (and any outcome with them). */
  truncate(ply: number): void {
    this.m_moves.length = Math.max(0, ply);
    this.m_positions.length = Math.max(0, ply) + 1;
    this.m_externalOutcome = null;
  }

  /** Records an ending that no position shows (flag fall, resignation, agreed draw). */
  end(outcome: GameOutcome): void {
    if (!this.outcome()) this.m_externalOutcome = outcome;
  }

  /** How the game ended, or null while it goes on. */
  outcome(): GameOutcome | null {
    if (this.m_externalOutcome) return this.m_externalOutcome;
    return this.ruleOutcome();
  }

  private ruleOutcome(): GameOutcome | null {
    const position = this.m_positions[this.plyCount]!;
    if (position.isCheckmate()) {
      const winner: Color = position.turn === 'white' ? 'black' : 'white';
      return { result: winner === 'white' ? '1-0' : '0-1', reason: 'Checkmate', winner };
    }
    if (position.isStalemate()) return { result: '1/2-1/2', reason: 'Stalemate' };
    if (position.isInsufficientMaterial()) return { result: '1/2-1/2', reason: 'Insufficient material' };
    if (position.halfmoves >= 100) return { result: '1/2-1/2', reason: 'Fifty-move rule' };
    const key = repetitionKey(this.fen());
    let seen = 0;
    for (let ply = this.plyCount; ply >= 0; ply--) {
      if (repetitionKey(this.fen(ply)) === key) seen++;
      // An irreversible move ends the stretch in which repetitions can happen.
      if (ply > 0 && this.m_positions[ply]!.halfmoves === 0) break;
    }
    return seen >= 3 ? { result: '1/2-1/2', reason: 'Threefold repetition' } : null;
  }
}

/** chessops writes castling as king-takes-rook (e1h1); the UCI standard form is e1g1. */
function normaliseCastlingUci(uci: string, san: string): string {
  if (!san.startsWith('O-O')) return uci;
  const rank = uci[1]!;
  const kingSide = !san.startsWith('O-O-O');
  return `e${rank}${kingSide ? 'g' : 'c'}${rank}`;
}

// SPDX-License-Identifier: GPL-3.0-or-later
// GameModel: the game record as a move tree (main line and variations, comments, NAGs), the line
// being viewed through it, and every rule of how a game ends.

import { Chess, normalizeMove } from 'chessops/chess';
import { makeFen, parseFen, INITIAL_FEN } from 'chessops/fen';
import { makeSanAndPlay, parseSan } from 'chessops/san';
import { makeUci, parseUci } from 'chessops/util';
import type { Color, Move } from 'chessops/types';
import type { ReviewSummary } from './review';
import type { WhiteScore } from './score';

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
  /** UCI (standard castling e1g1), or `0000` for a null move (only ever read from a PGN). */
  uci: string;
  /** SAN, or `--` for a null move. */
  san: string;
  /** The position after this move. */
  fen: string;
  capture: boolean;
  check: boolean;
}

export type MarkKind = 'inaccuracy' | 'mistake' | 'blunder';

/** One position of the tree: the root (start position, no move) or the position after a move. */
export interface MoveNode {
  /** Unique within its game (not kept across a reload: paths are). */
  readonly id: number;
  readonly parent: MoveNode | null;
  /** children[0] continues this node's line; the others are its variations. */
  readonly children: MoveNode[];
  /** Null for the root. */
  readonly move: PlayedMove | null;
  /** Moves from the start position. */
  readonly ply: number;
  /** PGN comments after the move, raw (with `[%clk ...]`, `[%eval ...]`); the root's are the game's. */
  comments: string[];
  /** PGN comments before the move (a variation's first move). */
  startingComments: string[];
  /** Numeric annotation glyphs ($1 = `!`, $2 = `?`, ...). */
  nags: number[];
  /** The engine's score of the position after the move (analysis, review), White's view. */
  eval?: WhiteScore;
  /** Review's verdict on the move. */
  mark?: MarkKind;
  /** For a marked move: the engine's best line (UCI) from the position before it (review). */
  better?: string[];
}

export { INITIAL_FEN };

/** Parses a FEN into a legal position; throws Error with a readable message otherwise. */
export function positionFromFen(fen: string): Chess {
  const setup = parseFen(fen.trim());
  if (setup.isErr) throw new Error(`not a valid FEN (${describeChessopsError(setup.error.message)})`);
  const position = Chess.fromSetup(setup.value);
  if (position.isErr) throw new Error(`not a legal position (${describeChessopsError(position.error.message)})`);
  return position.value;
}

/** chessops' error codes (FEN, position and PGN errors) in words that say what to fix. */
const kChessopsErrors: Record<string, string> = {
  ERR_FEN: 'a FEN has six fields: the board, the side to move, castling, en passant, the halfmove clock and the move number',
  ERR_BOARD: 'the board must be 8 ranks separated by "/", each of pieces (KQRBNP, kqrbnp) and digits for 8 squares',
  ERR_POCKETS: 'the pieces in hand are not readable (they belong to crazyhouse)',
  ERR_TURN: 'the side to move must be "w" or "b"',
  ERR_CASTLING: 'castling must be "-" or letters of "KQkq" (or rook files in Chess960)',
  ERR_EP_SQUARE: 'the en-passant square must be "-" or a square such as e3',
  ERR_HALFMOVES: 'the halfmove clock must be a whole number',
  ERR_FULLMOVES: 'the move number must be a whole number from 1',
  ERR_REMAINING_CHECKS: 'there is more after the move number (a FEN has six fields)',
  ERR_PROMOTED: 'the promoted-piece marks are not readable',
  ERR_EMPTY: 'the board is empty',
  ERR_KINGS: 'each side needs exactly one king',
  ERR_OPPOSITE_CHECK: 'the side not to move is in check, so its king could be taken',
  ERR_PAWNS_ON_BACKRANK: 'a pawn stands on the first or last rank',
  ERR_IMPOSSIBLE_CHECK: 'no legal move could have given this check',
  ERR_VARIANT: 'the position is not one of standard chess',
  ERR_PGN_BUDGET: 'the game is too long to read',
};

/** A chessops error code in words; any other text as it is. */
export function describeChessopsError(code: string): string {
  return kChessopsErrors[code] ?? code;
}

/** The part of a FEN that decides repetition: placement, side to move, castling, en passant. */
function repetitionKey(fen: string): string {
  return fen.split(' ').slice(0, 4).join(' ');
}

interface NodeInternal extends MoveNode {
  readonly position: Chess;
}

export class GameModel {
  /** PGN tag pairs in their order (the seven-tag roster and any others), kept for export. */
  readonly headers = new Map<string, string>();
  /** The last finished review's accuracy and counts per side (its marks are on the nodes). */
  review: ReviewSummary | null = null;
  private m_startFen: string;
  private m_root: NodeInternal;
  /** The line being viewed: root, then each move down to a leaf. */
  private m_line: NodeInternal[];
  private m_nextId = 1;
  /** An ending that no position shows (time, resignation, agreement) and the node it came at. */
  private m_external: { node: MoveNode; outcome: GameOutcome } | null = null;

  constructor(startFen: string = INITIAL_FEN) {
    const start = positionFromFen(startFen);
    this.m_startFen = makeFen(start.toSetup());
    this.m_root = { id: 0, parent: null, children: [], move: null, ply: 0, comments: [], startingComments: [], nags: [], position: start };
    this.m_line = [this.m_root];
  }

  get startFen(): string {
    return this.m_startFen;
  }
  get root(): MoveNode {
    return this.m_root;
  }
  /** The viewed line, root first. */
  get line(): readonly MoveNode[] {
    return this.m_line;
  }
  /** The moves of the viewed line. */
  get moves(): PlayedMove[] {
    return this.m_line.slice(1).map((node) => node.move!);
  }
  get plyCount(): number {
    return this.m_line.length - 1;
  }
  /** The node at `ply` of the viewed line (clamped). */
  node(ply: number = this.plyCount): MoveNode {
    return this.lineNode(ply);
  }
  movesUci(ply: number = this.plyCount): string[] {
    return this.m_line.slice(1, Math.max(0, ply) + 1).map((node) => node.move!.uci);
  }
  /** The position after `ply` moves of the viewed line (0 = start). */
  position(ply: number = this.plyCount): Chess {
    return this.lineNode(ply).position.clone();
  }
  fen(ply: number = this.plyCount): string {
    return ply <= 0 ? this.m_startFen : this.lineNode(ply).move!.fen;
  }
  turn(ply: number = this.plyCount): Color {
    return this.lineNode(ply).position.turn;
  }
  /** The side that made move number `ply` (1-based). */
  moverOf(ply: number): Color {
    return this.turn(ply - 1);
  }
  /** The position of `node` (a copy). */
  positionOf(node: MoveNode): Chess {
    return (node as NodeInternal).position.clone();
  }

  /**
   * What an engine needs for the position at `ply`: a FEN and the UCI moves since. Normally the
   * start position and every move; after a null move (which no engine takes) the position after
   * the last one.
   */
  enginePosition(ply: number = this.plyCount): { fen: string; moves: string[] } {
    return enginePositionOf(this.m_startFen, this.m_line, ply);
  }

  /** Parses UCI or SAN in the position at `ply`; undefined when not a legal move. */
  parseMove(text: string, ply: number = this.plyCount): Move | undefined {
    return parseMoveIn(this.lineNode(ply).position, text);
  }

  /**
   * Plays a legal move given in UCI or SAN at the end of the viewed line; returns it, or null if
   * illegal or the game is over. `analysis` lets analysis go on after a draw by rule (repetition,
   * fifty moves) and after a resignation, agreement or flag fall.
   */
  play(text: string, analysis = false): PlayedMove | null {
    return this.playAt(this.plyCount, text, analysis)?.move ?? null;
  }

  /**
   * Plays a move from the position at `ply` of the viewed line: follows the existing child with
   * that move, or adds it (the first child continues the line, any later one is a variation).
   * The viewed line becomes the path to the move and its own continuation. Null when illegal.
   */
  playAt(ply: number, text: string, analysis = false): MoveNode | null {
    const parent = this.lineNode(ply);
    const outcome = this.outcomeAt(parent.ply);
    if (outcome) {
      const pastable = outcome.reason === 'Threefold repetition' || outcome.reason === 'Fifty-move rule' || this.m_external?.node === parent;
      if (!analysis || !pastable) return null;
    }
    const move = parseMoveIn(parent.position, text);
    if (!move) return null;
    const node = this.addMove(parent, move);
    this.select(node);
    return node;
  }

  /** Adds `move` (legal in `parent`'s position) as a child of `parent`, or returns the child that has it. */
  addMove(parent: MoveNode, move: Move): MoveNode {
    const from = parent as NodeInternal;
    const position = from.position.clone();
    const capture =
      'from' in move && (position.board.occupied.has(move.to) || (position.board.pawn.has(move.from) && move.to === position.epSquare));
    const uci = normaliseCastlingUci(position, move, makeUci(move));
    const existing = from.children.find((child) => child.move!.uci === uci);
    if (existing) return existing;
    const san = makeSanAndPlay(position, move);
    return this.addChild(from, { uci, san, fen: makeFen(position.toSetup()), capture: Boolean(capture), check: position.isCheck() }, position);
  }

  /**
   * Adds a null move (`--` in PGN: the side to move passes) after `parent`; null when the side
   * to move is in check, where passing would leave its king capturable.
   */
  addNullMove(parent: MoveNode): MoveNode | null {
    const from = parent as NodeInternal;
    if (from.position.isCheck()) return null;
    const existing = from.children.find((child) => child.move!.uci === '0000');
    if (existing) return existing;
    const position = from.position.clone();
    if (position.turn === 'black') position.fullmoves++;
    position.turn = position.turn === 'white' ? 'black' : 'white';
    position.epSquare = undefined;
    position.halfmoves++;
    return this.addChild(from, { uci: '0000', san: '--', fen: makeFen(position.toSetup()), capture: false, check: false }, position);
  }

  private addChild(parent: NodeInternal, move: PlayedMove, position: Chess): NodeInternal {
    const node: NodeInternal = {
      id: this.m_nextId++,
      parent,
      children: [],
      move,
      ply: parent.ply + 1,
      comments: [],
      startingComments: [],
      nags: [],
      position,
    };
    parent.children.push(node);
    return node;
  }

  /** Views `node`: the line becomes the path to it and then its first children down to a leaf. */
  select(node: MoveNode): void {
    const line: NodeInternal[] = [];
    for (let n: MoveNode | null = node; n; n = n.parent) line.push(n as NodeInternal);
    line.reverse();
    let tail = node as NodeInternal;
    while (tail.children.length) {
      tail = tail.children[0] as NodeInternal;
      line.push(tail);
    }
    this.m_line = line;
  }

  selectMainline(): void {
    this.select(this.m_root);
  }

  mainline(): MoveNode[] {
    const nodes: MoveNode[] = [this.m_root];
    for (let n: MoveNode = this.m_root; n.children.length; ) nodes.push((n = n.children[0]!));
    return nodes;
  }

  isMainline(node: MoveNode): boolean {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
    return true;
  }

  /** True when the viewed line is the main line. */
  get onMainline(): boolean {
    return this.isMainline(this.m_line[this.m_line.length - 1]!);
  }

  /** Child indices from the root to `node` (how a node is named across a reload). */
  pathOf(node: MoveNode): number[] {
    const path: number[] = [];
    for (let n = node; n.parent; n = n.parent) path.push(n.parent.children.indexOf(n));
    return path.reverse();
  }

  /** The node a path names, or the deepest one that exists along it. */
  nodeAtPath(path: readonly number[]): MoveNode {
    let node: MoveNode = this.m_root;
    for (const index of path) {
      const child = node.children[index];
      if (!child) break;
      node = child;
    }
    return node;
  }

  *nodes(): Generator<MoveNode> {
    const stack: MoveNode[] = [this.m_root];
    while (stack.length) {
      const node = stack.pop()!;
      yield node;
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }

  /** Takes back the moves of the viewed line after `ply`: they leave the tree (with any outcome after them). */
  truncate(ply: number): void {
    const keep = Math.max(0, Math.min(ply, this.plyCount));
    const next = this.m_line[keep + 1];
    if (next) this.deleteNode(next);
    this.select(this.m_line[keep]!);
  }

  /**
   * Deletes `node` and everything after it. When the viewed line ran through it, the parent is
   * viewed (with whatever continuation is now first). Returns the parent.
   */
  deleteNode(node: MoveNode): MoveNode {
    const parent = node.parent;
    if (!parent) return node;
    const siblings = parent.children;
    const index = siblings.indexOf(node);
    if (index >= 0) siblings.splice(index, 1);
    if (this.m_external && this.isInSubtree(this.m_external.node, node)) this.m_external = null;
    if (this.m_line.includes(node as NodeInternal)) this.select(parent);
    return parent;
  }

  /**
   * Moves the variation holding `node` one level up: the nearest ancestor (or itself) that is not
   * the first child of its parent becomes the first. With `toMain`, repeats until `node` is on the
   * main line. False when it already was.
   */
  promote(node: MoveNode, toMain = false): boolean {
    let changed = false;
    for (let n: MoveNode = node; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      const index = siblings.indexOf(n);
      if (index > 0) {
        siblings.splice(index, 1);
        siblings.unshift(n);
        changed = true;
        if (!toMain) break;
      }
    }
    const viewedEnd = this.m_line[this.m_line.length - 1]!;
    this.select(viewedEnd);
    return changed;
  }

  /** Records an ending that no position shows (flag fall, resignation, agreed draw) at the line's end. */
  end(outcome: GameOutcome): void {
    if (!this.outcome()) this.m_external = { node: this.m_line[this.m_line.length - 1]!, outcome };
  }

  /** Records an ending that no position shows at `node` (a game restored after a reload). */
  endAt(node: MoveNode, outcome: GameOutcome): void {
    this.m_external = { node, outcome };
  }

  /** The ending recorded by end(), wherever it happened in the tree. */
  get externalOutcome(): { node: MoveNode; outcome: GameOutcome } | null {
    return this.m_external;
  }

  /** How the viewed line ended, or null while it goes on. */
  outcome(): GameOutcome | null {
    return this.outcomeAt(this.plyCount);
  }

  /** How the game stands at `ply` of the viewed line: an ending by rule or one recorded there. */
  outcomeAt(ply: number): GameOutcome | null {
    const node = this.lineNode(ply);
    if (this.m_external?.node === node) return this.m_external.outcome;
    return this.ruleOutcome(node.ply);
  }

  /** The result of the main line's end, when it has one by rule or by end(). */
  mainlineOutcome(): GameOutcome | null {
    const end = this.mainline().at(-1)!;
    if (this.m_external?.node === end) return this.m_external.outcome;
    const saved = this.m_line;
    this.selectMainline();
    const outcome = this.ruleOutcome(this.plyCount);
    this.m_line = saved;
    return outcome;
  }

  private ruleOutcome(ply: number): GameOutcome | null {
    const position = this.m_line[ply]!.position;
    if (position.isCheckmate()) {
      const winner: Color = position.turn === 'white' ? 'black' : 'white';
      return { result: winner === 'white' ? '1-0' : '0-1', reason: 'Checkmate', winner };
    }
    if (position.isStalemate()) return { result: '1/2-1/2', reason: 'Stalemate' };
    if (position.isInsufficientMaterial()) return { result: '1/2-1/2', reason: 'Insufficient material' };
    if (position.halfmoves >= 100) return { result: '1/2-1/2', reason: 'Fifty-move rule' };
    const key = repetitionKey(this.fen(ply));
    let seen = 0;
    for (let p = ply; p >= 0; p--) {
      if (repetitionKey(this.fen(p)) === key) seen++;
      // An irreversible move ends the stretch in which repetitions can happen.
      if (p > 0 && this.m_line[p]!.position.halfmoves === 0) break;
    }
    return seen >= 3 ? { result: '1/2-1/2', reason: 'Threefold repetition' } : null;
  }

  private lineNode(ply: number): NodeInternal {
    return this.m_line[Math.max(0, Math.min(ply, this.plyCount))]!;
  }

  private isInSubtree(node: MoveNode, top: MoveNode): boolean {
    for (let n: MoveNode | null = node; n; n = n.parent) if (n === top) return true;
    return false;
  }
}

/**
 * The FEN and UCI moves an engine needs for `line[ply]` (`line` from the root): the start and
 * every move, or after a null move (which no engine takes) the position after the last one.
 */
export function enginePositionOf(startFen: string, line: readonly MoveNode[], ply: number): { fen: string; moves: string[] } {
  const end = Math.max(0, Math.min(ply, line.length - 1));
  let from = 0;
  for (let i = end; i >= 1; i--)
    if (line[i]!.move!.uci === '0000') {
      from = i;
      break;
    }
  const fen = from === 0 ? startFen : line[from]!.move!.fen;
  return { fen, moves: line.slice(from + 1, end + 1).map((node) => node.move!.uci) };
}

/** A move in UCI or SAN (`0-0` and trailing `!?` marks accepted) legal in `position`, or undefined. */
export function parseMoveIn(position: Chess, text: string): Move | undefined {
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
 * chessops writes castling as king-takes-rook (e1h1); the UCI standard form is e1g1. Chess960
 * castling (a king or rook off its usual square) keeps king-takes-rook, as UCI_Chess960 does.
 */
function normaliseCastlingUci(position: Chess, move: Move, uci: string): string {
  if (!('from' in move) || !position.board.king.has(move.from) || !position.board.rook.has(move.to)) return uci;
  if (position.board.getColor(move.to) !== position.turn) return uci;
  const rank = uci[1]!;
  if (uci[0] !== 'e' || (uci[2] !== 'h' && uci[2] !== 'a')) return uci;
  return `e${rank}${uci[2] === 'h' ? 'g' : 'c'}${rank}`;
}

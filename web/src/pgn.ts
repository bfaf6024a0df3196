// SPDX-License-Identifier: GPL-3.0-or-later
// PGN in and out through chessops' own PGN module: headers, comments (with [%clk] and [%eval]),
// NAGs, variations and the result kept, so that a game read and written again is the same game.

import { makeFen } from 'chessops/fen';
import {
  ChildNode,
  Node,
  makeComment,
  makePgn,
  parseComment,
  parsePgn,
  parseVariant,
  startingPosition,
  type Game,
  type PgnNodeData,
} from 'chessops/pgn';
import { describeChessopsError, GameModel, INITIAL_FEN, parseMoveIn, type MoveNode } from './game';
import type { WhiteScore } from './score';

/** The seven-tag roster, written first and in this order. */
export const kSevenTagRoster = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result'] as const;

export interface ImportedGame {
  game: GameModel;
  /** What could not be read: an illegal move and how many moves after it were dropped. */
  warnings: string[];
}

/** Every game of a PGN text (chessops' parser). */
export function parsePgnGames(text: string): Game<PgnNodeData>[] {
  return parsePgn(text);
}

/**
 * A parsed PGN game as a GameModel: the headers as they were, the comments, NAGs and variations.
 * A variant other than standard chess or Chess960, or a bad FEN, throws Error with a readable
 * message. A move that is not legal ends its line there (with what followed it), and says so in
 * `warnings`. Null moves (`--`) are kept.
 */
export function gameFromPgn(source: Game<PgnNodeData>): ImportedGame {
  const variant = source.headers.get('Variant');
  if (parseVariant(variant) !== 'chess') throw new Error(`the variant ${variant ?? '?'} is not supported (standard chess and Chess960 only)`);
  const start = startingPosition(source.headers);
  if (start.isErr) throw new Error(`bad FEN header (${describeChessopsError(start.error.message)})`);
  const game = new GameModel(makeFen(start.value.toSetup()));
  for (const [name, value] of source.headers) game.headers.set(name, value);
  game.root.comments.push(...(source.comments ?? []));
  const warnings: string[] = [];
  const stack: [Node<PgnNodeData>, MoveNode][] = [[source.moves, game.root]];
  while (stack.length) {
    const [from, to] = stack.pop()!;
    for (const child of from.children) {
      const data = child.data;
      const node = data.san === '--' ? game.addNullMove(to) : addParsedMove(game, to, data.san);
      if (!node) {
        const dropped = countNodes(child);
        const position = game.positionOf(to);
        const where = `${position.fullmoves}${position.turn === 'white' ? '.' : '...'}`;
        warnings.push(`illegal move ${where} ${data.san}: ${dropped} move${dropped === 1 ? '' : 's'} from it on dropped`);
        continue;
      }
      node.comments.push(...(data.comments ?? []));
      node.startingComments.push(...(data.startingComments ?? []));
      node.nags.push(...(data.nags ?? []));
      stack.push([child, node]);
    }
  }
  game.selectMainline();
  return { game, warnings };
}

function addParsedMove(game: GameModel, parent: MoveNode, san: string): MoveNode | null {
  // parseMoveIn takes SAN, and UCI too (some engines' PGNs are written in it).
  const move = parseMoveIn(game.positionOf(parent), san);
  return move ? game.addMove(parent, move) : null;
}

function countNodes(node: Node<PgnNodeData>): number {
  let count = 0;
  const stack: Node<PgnNodeData>[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    count++;
    stack.push(...n.children);
  }
  return count;
}

/** What a library list shows of a parsed game, read from its headers and main line (no move is checked). */
export function summaryOf(source: Game<PgnNodeData>): { white: string; black: string; result: string; event: string; date: string; plies: number } {
  let plies = 0;
  for (const _ of source.moves.mainlineNodes()) plies++;
  const tag = (name: string, fallback: string): string => source.headers.get(name) ?? fallback;
  return { white: tag('White', '?'), black: tag('Black', '?'), result: tag('Result', '*'), event: tag('Event', '?'), date: tag('Date', '????.??.??'), plies };
}

/** A parsed game written back as chessops writes it (its moves as they were, not replayed). */
export function writeParsed(source: Game<PgnNodeData>): string {
  return makePgn(source);
}

/** Whether the page can open the game: standard chess or Chess960. */
export function isSupportedVariant(source: Game<PgnNodeData>): boolean {
  return parseVariant(source.headers.get('Variant')) === 'chess';
}

/** The first game of a PGN text; throws Error when there is none or it cannot be read. */
export function importPgn(text: string): ImportedGame {
  const games = parsePgnGames(text);
  const first = games[0];
  if (!first || !looksLikeGame(first, text)) throw new Error('no game found in the PGN');
  return gameFromPgn(first);
}

/** chessops reads any text as a game; a text with no tag, move, comment or result is none. */
export function looksLikeGame(game: Game<PgnNodeData>, text: string): boolean {
  return game.moves.children.length > 0 || (game.comments?.length ?? 0) > 0 || /\[\s*\w+\s+"/.test(text) || /(^|\s)(1-0|0-1|1\/2-1\/2|\*)(\s|$)/.test(text);
}

/** The game as a chessops PGN game (headers as given, the tree's comments, NAGs and variations). */
export function toPgnGame(game: GameModel, headers: Map<string, string>): Game<PgnNodeData> {
  const root = new Node<PgnNodeData>();
  const stack: [MoveNode, Node<PgnNodeData>][] = [[game.root, root]];
  while (stack.length) {
    const [from, to] = stack.pop()!;
    for (const child of from.children) {
      const data: PgnNodeData = { san: child.move!.san };
      const comments = child.eval ? commentsWithEval(child.comments, child.eval) : child.comments;
      if (comments.length) data.comments = [...comments];
      if (child.startingComments.length) data.startingComments = [...child.startingComments];
      if (child.nags.length) data.nags = [...child.nags];
      const out = new ChildNode(data);
      to.children.push(out);
      stack.push([child, out]);
    }
  }
  const pgnGame: Game<PgnNodeData> = { headers, moves: root };
  if (game.root.comments.length) pgnGame.comments = [...game.root.comments];
  return pgnGame;
}

/**
 * The headers written for `game`: the seven-tag roster first (`?` where unknown), then every
 * other tag in its order; `SetUp`/`FEN` when the game did not start from the initial position;
 * `Result` the one the game came with, or when that is `*`, the main line's ending if it has one.
 */
export function exportHeaders(game: GameModel): Map<string, string> {
  const headers = new Map<string, string>();
  const defaults: Record<string, string> = { Event: '?', Site: '?', Date: '????.??.??', Round: '?', White: '?', Black: '?', Result: '*' };
  for (const tag of kSevenTagRoster) headers.set(tag, game.headers.get(tag) ?? defaults[tag]!);
  for (const [name, value] of game.headers) if (!headers.has(name)) headers.set(name, value);
  // A result the game came with stands (it may be an adjudication); an unfinished one is filled in.
  const outcome = headers.get('Result') === '*' ? game.mainlineOutcome() : null;
  if (outcome) headers.set('Result', outcome.result);
  if (game.startFen !== INITIAL_FEN && !headers.has('FEN')) {
    headers.set('SetUp', '1');
    headers.set('FEN', game.startFen);
  }
  return headers;
}

/** The game as PGN text (one game, its movetext on one line as lichess writes it). */
export function exportPgn(game: GameModel): string {
  return makePgn(toPgnGame(game, exportHeaders(game)));
}

/**
 * `comments` with the engine's score written as `[%eval ...]` (pawns or `#n`, White's view, as
 * lichess writes it), so that an analysed or reviewed game keeps its evaluations in the PGN: the
 * first comment holding an `[%eval]` gets the new score in its place, else the first comment
 * (a `[%clk]` one, say) gets it beside what it has, else a comment of its own is added. A
 * tablebase result is no evaluation and is not written.
 */
export function commentsWithEval(comments: readonly string[], score: WhiteScore): string[] {
  if (score.tb) return [...comments];
  const evaluation = score.mate !== undefined ? { mate: score.mate } : { pawns: (score.cp ?? 0) / 100 };
  const out = [...comments];
  let index = out.findIndex((comment) => parseComment(comment).evaluation !== undefined);
  if (index < 0) index = out.length ? 0 : -1;
  if (index < 0) return [makeComment({ evaluation })];
  const parsed = parseComment(out[index]!);
  out[index] = makeComment({ ...parsed, text: parsed.text || undefined, evaluation });
  return out;
}

/** A score from a `[%eval ...]` comment (pawns, or `#n`, from White's view) of `node`, if any. */
export function commentEval(node: MoveNode): WhiteScore | undefined {
  for (const comment of node.comments) {
    const evaluation = parseComment(comment).evaluation;
    if (!evaluation) continue;
    if ('mate' in evaluation) return { mate: evaluation.mate };
    return { cp: Math.round(evaluation.pawns * 100) };
  }
  return undefined;
}

/** A comment's text without its `[%...]` commands. */
export function commentText(comment: string): string {
  return parseComment(comment).text.trim();
}

/** The clock (seconds) a `[%clk ...]` comment of `node` gives, if any. */
export function commentClock(node: MoveNode): number | undefined {
  for (const comment of node.comments) {
    const clock = parseComment(comment).clock;
    if (clock !== undefined) return clock;
  }
  return undefined;
}

/** PGN's date format, YYYY.MM.DD. */
export function pgnDate(date: Date): string {
  return `${date.getFullYear()}.${String(date.getMonth() + 1).padStart(2, '0')}.${String(date.getDate()).padStart(2, '0')}`;
}

/** Symbols of the common NAGs (as lichess shows them); others are written `$n`. */
export const kNagSymbols: Record<number, string> = {
  1: '!',
  2: '?',
  3: '!!',
  4: '??',
  5: '!?',
  6: '?!',
  7: '□',
  10: '=',
  13: '∞',
  // Written with characters every system font has (the usual ⩲ ⩱ are missing from many).
  14: '+=',
  15: '=+',
  16: '±',
  17: '∓',
  18: '+-',
  19: '-+',
  22: '⨀',
  23: '⨀',
  32: '⟳',
  33: '⟳',
  36: '→',
  37: '→',
  40: '↑',
  41: '↑',
  132: '⇆',
  133: '⇆',
  138: '⊕',
  139: '⊕',
  140: '∆',
  146: 'N',
};

export const kNagNames: Record<number, string> = {
  1: 'good move',
  2: 'mistake',
  3: 'brilliant move',
  4: 'blunder',
  5: 'interesting move',
  6: 'dubious move',
  7: 'only move',
  10: 'equal position',
  13: 'unclear position',
  14: 'White is slightly better',
  15: 'Black is slightly better',
  16: 'White is better',
  17: 'Black is better',
  18: 'White is winning',
  19: 'Black is winning',
  146: 'novelty',
};

export function nagSymbol(nag: number): string {
  return kNagSymbols[nag] ?? `$${nag}`;
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The opening explorer's counting: games (PGN) walked along their main line, and for each
// position reached (its key: the FEN without the move counters, so transpositions meet) each
// move played from it, with how many games, White wins, draws, Black wins and the players'
// ratings. Also a stream of PGN lines cut into games. Pure: no DOM, no storage.

import { Chess } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import { parsePgn, parseVariant, startingPosition, type Game, type PgnNodeData } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { makeUci } from 'chessops/util';

/** Plies of each game indexed: the opening and early middlegame, as explorers keep. */
export const kExplorerPlies = 40;

export interface MoveStats {
  games: number;
  white: number;
  draws: number;
  black: number;
  /** Sum and count of the known player ratings (WhiteElo, BlackElo) of those games. */
  ratingSum: number;
  ratingCount: number;
  /** The move in SAN, as first seen. */
  san: string;
}

/** Position key -> UCI move -> counts. */
export type ExplorerTally = Map<string, Map<string, MoveStats>>;

/** The FEN without halfmove clock and move number: placement, side, castling, en passant. */
export function positionKey(position: Chess): string {
  return makeFen(position.toSetup()).split(' ').slice(0, 4).join(' ');
}

function rating(value: string | undefined): number | null {
  const n = Number(value);
  return value && /^\d{3,4}$/.test(value) && n >= 100 ? n : null;
}

/** Adds one game's main line to `tally`; false when the game is not one of standard chess. */
export function tallyGame(game: Game<PgnNodeData>, tally: ExplorerTally): boolean {
  if (parseVariant(game.headers.get('Variant')) !== 'chess') return false;
  const start = startingPosition(game.headers);
  if (start.isErr || !(start.value instanceof Chess)) return false;
  const position = start.value;
  const result = game.headers.get('Result');
  const ratings = [rating(game.headers.get('WhiteElo')), rating(game.headers.get('BlackElo'))].filter((r): r is number => r !== null);
  let plies = 0;
  for (const node of game.moves.mainlineNodes()) {
    if (plies++ >= kExplorerPlies) break;
    const move = parseSan(position, node.data.san);
    if (!move) break;
    const key = positionKey(position);
    const uci = makeUci(move);
    let moves = tally.get(key);
    if (!moves) tally.set(key, (moves = new Map()));
    let stats = moves.get(uci);
    if (!stats) moves.set(uci, (stats = { games: 0, white: 0, draws: 0, black: 0, ratingSum: 0, ratingCount: 0, san: node.data.san.replace(/[!?]+$/, '') }));
    stats.games++;
    if (result === '1-0') stats.white++;
    else if (result === '0-1') stats.black++;
    else if (result === '1/2-1/2') stats.draws++;
    for (const r of ratings) {
      stats.ratingSum += r;
      stats.ratingCount++;
    }
    position.play(move);
  }
  return true;
}

/** Every game of a PGN text into `tally`; returns how many were counted and how many left out. */
export function tallyPgn(text: string, tally: ExplorerTally): { counted: number; skipped: number } {
  let counted = 0;
  let skipped = 0;
  for (const game of parsePgn(text)) {
    if (!game.moves.children.length) continue;
    if (tallyGame(game, tally)) counted++;
    else skipped++;
  }
  return { counted, skipped };
}

/**
 * Cuts a stream of PGN lines into texts of about `gamesPerChunk` games each: a new game begins at
 * a tag line that follows movetext. Each chunk is parsed on its own, so memory stays bounded.
 */
export async function* pgnChunks(lines: AsyncIterable<string>, gamesPerChunk: number): AsyncGenerator<string> {
  let chunk: string[] = [];
  let games = 0;
  let inMoves = false;
  for await (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith('[') && inMoves) {
      inMoves = false;
      games++;
      if (games >= gamesPerChunk) {
        yield chunk.join('\n');
        chunk = [];
        games = 0;
      }
    } else if (trimmed && !trimmed.startsWith('[')) inMoves = true;
    chunk.push(line);
  }
  if (chunk.some((line) => line.trim())) yield chunk.join('\n');
}

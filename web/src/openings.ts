// SPDX-License-Identifier: GPL-3.0-or-later
// Opening names: the Lichess openings table (bundled by web/openings-table.mjs), matched by
// position (EPD), so that a game that transposes into a named position gets that position's name.
// A line is named after the last named position on the way to the viewed move, as Lichess does.

import table from 'axon:openings-table';
import type { Chess } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import type { GameModel, MoveNode } from './game';
import { parseMoveIn } from './game';

export interface Opening {
  /** ECO code, A00..E99. */
  eco: string;
  /** "Family: Variation, Subvariation" as Lichess writes it. */
  name: string;
}

/** Plies of a game searched for a name: the table's longest line is far shorter. */
export const kOpeningMaxPlies = 60;

let byEpd: Map<string, Opening> | null = null;

function index(): Map<string, Opening> {
  if (!byEpd) {
    byEpd = new Map();
    for (const line of table.split('\n')) {
      const [epd, eco, name] = line.split('\t');
      if (epd && eco && name) byEpd.set(epd, { eco, name });
    }
  }
  return byEpd;
}

/** Entries in the table. */
export function openingCount(): number {
  return index().size;
}

/**
 * The EPD of a FEN: placement, side to move, castling, en passant. The page's FENs come from
 * chessops, which writes an en-passant square only when a capture there is legal, as the table does.
 */
export function epdOf(fen: string): string {
  return fen.trim().split(/\s+/).slice(0, 4).join(' ');
}

/** The opening named at exactly this position, if any. */
export function openingAt(fen: string): Opening | undefined {
  return index().get(epdOf(fen));
}

/** The opening of the line from the start to `node`: the last named position on the way. */
export function openingOfNode(game: GameModel, node: MoveNode): Opening | undefined {
  for (let n: MoveNode | null = node; n; n = n.parent) {
    if (n.ply > kOpeningMaxPlies) continue;
    const found = openingAt(n.move ? n.move.fen : game.startFen);
    if (found) return found;
  }
  return undefined;
}

/** The opening of a game's main line (the library's summary). */
export function openingOfGame(game: GameModel): Opening | undefined {
  return openingOfNode(game, game.mainline().at(-1)!);
}

/** The opening of moves (SAN or UCI) played from `start`; moves after an illegal one are ignored. */
export function openingOfMoves(start: Chess, moves: Iterable<string>): Opening | undefined {
  const position = start.clone();
  let found = openingAt(makeFen(position.toSetup()));
  let ply = 0;
  for (const text of moves) {
    if (++ply > kOpeningMaxPlies) break;
    const move = parseMoveIn(position, text);
    if (!move) break;
    position.play(move);
    found = openingAt(makeFen(position.toSetup())) ?? found;
  }
  return found;
}

/** "B90 Sicilian Defense: Najdorf Variation". */
export function openingText(opening: Opening): string {
  return `${opening.eco} ${opening.name}`;
}

/** Writes `opening` into `element` (the `opening-name` line), or hides it when there is none. */
export function showOpening(element: HTMLElement, opening: Opening | undefined): void {
  element.hidden = !opening;
  const text = opening ? openingText(opening) : '';
  if (element.textContent !== text) element.textContent = text;
  element.title = opening ? `${opening.name} (ECO ${opening.eco}), from the Lichess openings table` : '';
  if (opening) element.dataset.eco = opening.eco;
  else delete element.dataset.eco;
}

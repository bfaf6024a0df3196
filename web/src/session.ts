// SPDX-License-Identifier: GPL-3.0-or-later
// The page's current game kept in localStorage, so that a reload (or a closed tab) loses nothing:
// the tree as PGN, the viewed move, the mode, a game against Axon with its clocks, the engine's
// scores, review marks and better lines, and which library entry the game is.

import type { Color } from 'chessops/types';
import type { GameModel, GameOutcome, MarkKind, MoveNode } from './game';
import { exportPgn, importPgn } from './pgn';
import { readReviewSummary, type ReviewSummary } from './review';
import type { WhiteScore } from './score';

const kStorageKey = 'axon.session.v1';

export interface SavedPlay {
  userColor: Color;
  /** UCI_Elo, or null for full strength. */
  elo: number | null;
  /** The game's time control id (`5+0`, `unlimited`). */
  tc: string;
  /** What was left on the clocks (ms), when the game has them. */
  clock: { white: number; black: number } | null;
}

/** What the engine said about one node of the tree (its PGN does not hold it all). */
export interface SavedNote {
  path: number[];
  eval?: WhiteScore;
  mark?: MarkKind;
  better?: string[];
}

export interface SavedSession {
  v: 1;
  pgn: string;
  mode: 'play' | 'analysis';
  /** Child indices from the start to the viewed move. */
  path: number[];
  orientation: Color;
  /** A game against Axon (over or not), or null. */
  play: SavedPlay | null;
  /** An ending no position shows (resignation, time, agreement) and where it came. */
  external: { path: number[]; outcome: GameOutcome } | null;
  /** Engine scores, review marks and better lines of the tree's nodes. */
  notes: SavedNote[];
  /** The last review's accuracy and counts (absent in sessions saved before it was kept). */
  review?: ReviewSummary | null;
  libraryId: number | null;
  /** The library entry's kind, for the game's next save. */
  source: 'played' | 'imported' | 'analysis';
  savedAt: number;
}

/** The engine's scores, review marks and better lines of every node that has some. */
export function nodeNotes(game: GameModel): SavedNote[] {
  const notes: SavedNote[] = [];
  for (const node of game.nodes())
    if (node.eval || node.mark)
      notes.push({
        path: game.pathOf(node),
        ...(node.eval && { eval: node.eval }),
        ...(node.mark && { mark: node.mark }),
        ...(node.better && { better: node.better }),
      });
  return notes;
}

/** The parts of a session that describe the game record itself. */
export function gameSnapshot(game: GameModel, viewed: MoveNode): Pick<SavedSession, 'pgn' | 'path' | 'external' | 'notes' | 'review'> {
  const external = game.externalOutcome;
  return {
    pgn: exportPgn(game),
    path: game.pathOf(viewed),
    external: external ? { path: game.pathOf(external.node), outcome: external.outcome } : null,
    notes: nodeNotes(game),
    review: game.review,
  };
}

/** The game of a saved session, viewing the saved move; throws when its PGN cannot be read. */
export function restoreGame(saved: Pick<SavedSession, 'pgn' | 'path' | 'external' | 'notes' | 'review'>): { game: GameModel; viewed: MoveNode } {
  const { game } = importPgn(saved.pgn);
  for (const note of Array.isArray(saved.notes) ? saved.notes : []) {
    if (!note || !Array.isArray(note.path)) continue;
    const node = game.nodeAtPath(note.path);
    if (game.pathOf(node).length !== note.path.length) continue;
    if (note.eval) node.eval = note.eval;
    if (note.mark) node.mark = note.mark;
    if (Array.isArray(note.better)) node.better = note.better.filter((uci) => typeof uci === 'string');
  }
  game.review = readReviewSummary(saved.review);
  if (saved.external) game.endAt(game.nodeAtPath(saved.external.path), saved.external.outcome);
  const viewed = game.nodeAtPath(saved.path);
  game.select(viewed);
  return { game, viewed };
}

export function saveSession(session: SavedSession): void {
  try {
    localStorage.setItem(kStorageKey, JSON.stringify(session));
  } catch {
    // Private mode or storage full: the library (IndexedDB) still has the game.
  }
}

export function loadSession(): SavedSession | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(kStorageKey) ?? 'null') as SavedSession | null;
    return parsed && parsed.v === 1 && typeof parsed.pgn === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

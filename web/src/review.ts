// SPDX-License-Identifier: GPL-3.0-or-later
// Game review: every position searched at a fixed budget, each move marked by how much it lowered
// its player's winning chance (thresholds below, also in web/README.md), and an accuracy per side.

import type { Color } from 'chessops/types';
import type { Engine } from './engine/engine';
import { enginePositionOf, type GameModel, type MarkKind, type MoveNode } from './game';
import { toWhiteScore, whiteWinChance, type WhiteScore } from './score';

/** Search budget per position. */
export const kReviewMoveTimeMs = 250;
/** Drops in the mover's winning chance, in percentage points (Lichess's thresholds). */
export const kInaccuracyDrop = 10;
export const kMistakeDrop = 20;
export const kBlunderDrop = 30;

export interface ReviewResult {
  /** The line reviewed, root first. */
  line: MoveNode[];
  /** White-view score after each ply (index 0 = start). */
  scores: WhiteScore[];
  marks: Map<number, MarkKind>;
  summary: Record<Color, { inaccuracy: number; mistake: number; blunder: number; accuracy: number }>;
}

export function classifyDrop(drop: number): MarkKind | null {
  if (drop >= kBlunderDrop) return 'blunder';
  if (drop >= kMistakeDrop) return 'mistake';
  if (drop >= kInaccuracyDrop) return 'inaccuracy';
  return null;
}

/** Lichess's move accuracy from the drop in win chance: 100 for no drop, about 0 from a 60-point drop. */
function moveAccuracy(drop: number): number {
  return Math.max(0, Math.min(100, 103.1668 * Math.exp(-0.04354 * Math.max(0, drop)) - 3.1669));
}

/** The score a finished position has without searching: mate or draw. */
function terminalScore(game: GameModel, node: MoveNode): WhiteScore | null {
  const position = game.positionOf(node);
  if (position.isCheckmate()) return { mate: position.turn === 'white' ? -1 : 1 };
  if (position.isStalemate() || position.isInsufficientMaterial()) return { cp: 0 };
  return null;
}

export class ReviewRunner {
  private m_cancelled = false;
  private m_stop: (() => void) | null = null;

  cancel(): void {
    this.m_cancelled = true;
    this.m_stop?.();
  }

  /**
   * Reviews the game's viewed line as it is when called (the user may view another line
   * meanwhile); `scores[ply]` and `marks` are about the nodes of that line.
   */
  async run(game: GameModel, engine: Engine, onProgress: (done: number, total: number, partial: WhiteScore[]) => void): Promise<ReviewResult | null> {
    this.m_cancelled = false;
    const line = [...game.line];
    const plies = line.length - 1;
    const scores: WhiteScore[] = [];
    for (let ply = 0; ply <= plies; ply++) {
      if (this.m_cancelled) return null;
      const terminal = terminalScore(game, line[ply]!);
      if (terminal) scores.push(terminal);
      else {
        let last: WhiteScore = ply > 0 ? scores[ply - 1]! : { cp: 0 };
        const turn = game.positionOf(line[ply]!).turn;
        const handle = engine.search({
          ...enginePositionOf(game.startFen, line, ply),
          limits: { movetime: kReviewMoveTimeMs, multipv: 1 },
          onInfo: (info) => {
            if (info.multipv === 1 && info.score.bound === 'exact') last = toWhiteScore(info.score, turn);
          },
        });
        this.m_stop = handle.stop;
        await handle.result.catch(() => undefined);
        scores.push(last);
      }
      onProgress(ply + 1, plies + 1, scores);
    }
    if (this.m_cancelled) return null;
    const marks = new Map<number, MarkKind>();
    const summary = {
      white: { inaccuracy: 0, mistake: 0, blunder: 0, accuracy: 0 },
      black: { inaccuracy: 0, mistake: 0, blunder: 0, accuracy: 0 },
    };
    const accuracySum = { white: 0, black: 0 };
    const movesBy = { white: 0, black: 0 };
    for (let ply = 1; ply <= plies; ply++) {
      const mover = game.positionOf(line[ply - 1]!).turn;
      const before = whiteWinChance(scores[ply - 1]!);
      const after = whiteWinChance(scores[ply]!);
      const drop = mover === 'white' ? before - after : after - before;
      const kind = classifyDrop(drop);
      if (kind) {
        marks.set(ply, kind);
        summary[mover][kind]++;
      }
      accuracySum[mover] += moveAccuracy(drop);
      movesBy[mover]++;
    }
    for (const color of ['white', 'black'] as const)
      summary[color].accuracy = movesBy[color] ? accuracySum[color] / movesBy[color] : 100;
    return { line, scores, marks, summary };
  }
}

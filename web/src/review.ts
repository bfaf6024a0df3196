// SPDX-License-Identifier: GPL-3.0-or-later
// Game review: every position searched at a fixed budget, each move marked by how much it lowered
// its player's winning chance (thresholds below, also in web/README.md), the engine's better move
// and line for each marked move, and an accuracy per side (accuracy.ts).

import type { Color } from 'chessops/types';
import { gameAccuracy, winPercent } from './accuracy';
import type { Engine } from './engine/engine';
import { enginePositionOf, type GameModel, type MarkKind, type MoveNode } from './game';
import { toWhiteScore, whiteWinChance, type WhiteScore } from './score';

/** Search budget per position. */
export const kReviewMoveTimeMs = 250;
/**
 * Drops in the mover's winning chance, in percentage points: Lichess's thresholds (0.1, 0.2 and
 * 0.3 of its winning chances from -1 to +1, which are 5, 10 and 15 points of 0..100).
 */
export const kInaccuracyDrop = 5;
export const kMistakeDrop = 10;
export const kBlunderDrop = 15;
/** Plies of the better line kept for a marked move. */
export const kBetterLinePlies = 10;

export type ReviewCounts = { inaccuracy: number; mistake: number; blunder: number; accuracy: number | null };
export type ReviewSummary = Record<Color, ReviewCounts>;

/** A review summary read back from storage (the session, the library), or null when it is not one. */
export function readReviewSummary(value: unknown): ReviewSummary | null {
  if (!value || typeof value !== 'object') return null;
  const out: Partial<ReviewSummary> = {};
  for (const color of ['white', 'black'] as const) {
    const side = (value as Record<string, unknown>)[color] as Record<string, unknown> | undefined;
    if (!side || typeof side !== 'object') return null;
    const count = (key: string): number | null => (Number.isInteger(side[key]) && (side[key] as number) >= 0 ? (side[key] as number) : null);
    const [inaccuracy, mistake, blunder] = [count('inaccuracy'), count('mistake'), count('blunder')];
    if (inaccuracy === null || mistake === null || blunder === null) return null;
    const accuracy = typeof side.accuracy === 'number' && Number.isFinite(side.accuracy) ? side.accuracy : null;
    out[color] = { inaccuracy, mistake, blunder, accuracy };
  }
  return out as ReviewSummary;
}

export interface ReviewResult {
  /** The line reviewed, root first. */
  line: MoveNode[];
  /** White-view score after each ply (index 0 = start). */
  scores: WhiteScore[];
  /** The engine's best line (UCI) in the position after each ply; empty where none was searched. */
  best: string[][];
  marks: Map<number, MarkKind>;
  summary: ReviewSummary;
}

export function classifyDrop(drop: number): MarkKind | null {
  if (drop >= kBlunderDrop) return 'blunder';
  if (drop >= kMistakeDrop) return 'mistake';
  if (drop >= kInaccuracyDrop) return 'inaccuracy';
  return null;
}

/** The score a finished position has without searching: mate or draw. */
function terminalScore(game: GameModel, node: MoveNode): WhiteScore | null {
  const position = game.positionOf(node);
  if (position.isCheckmate()) return { mate: position.turn === 'white' ? -1 : 1 };
  if (position.isStalemate() || position.isInsufficientMaterial()) return { cp: 0 };
  return null;
}

/**
 * Marks, counts and accuracies of a line from its scores (`scores[ply]` after each ply);
 * `movers[i]` is the side that made move i + 1.
 */
export function judgeLine(scores: readonly WhiteScore[], movers: readonly Color[]): Pick<ReviewResult, 'marks' | 'summary'> {
  const marks = new Map<number, MarkKind>();
  const summary: Record<Color, ReviewCounts> = {
    white: { inaccuracy: 0, mistake: 0, blunder: 0, accuracy: null },
    black: { inaccuracy: 0, mistake: 0, blunder: 0, accuracy: null },
  };
  for (let ply = 1; ply < scores.length; ply++) {
    const mover = movers[ply - 1]!;
    const before = whiteWinChance(scores[ply - 1]!);
    const after = whiteWinChance(scores[ply]!);
    const kind = classifyDrop(mover === 'white' ? before - after : after - before);
    if (kind) {
      marks.set(ply, kind);
      summary[mover][kind]++;
    }
  }
  const accuracy = gameAccuracy(scores.map(winPercent), movers[0] ?? 'white');
  summary.white.accuracy = accuracy.white;
  summary.black.accuracy = accuracy.black;
  return { marks, summary };
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
    const best: string[][] = [];
    for (let ply = 0; ply <= plies; ply++) {
      if (this.m_cancelled) return null;
      const terminal = terminalScore(game, line[ply]!);
      let pv: string[] = [];
      if (terminal) scores.push(terminal);
      else {
        let last: WhiteScore = ply > 0 ? scores[ply - 1]! : { cp: 0 };
        const turn = game.positionOf(line[ply]!).turn;
        const handle = engine.search({
          ...enginePositionOf(game.startFen, line, ply),
          limits: { movetime: kReviewMoveTimeMs, multipv: 1 },
          onInfo: (info) => {
            if (info.multipv !== 1 || info.score.bound !== 'exact') return;
            last = toWhiteScore(info.score, turn);
            if (info.pv.length) pv = info.pv.slice(0, kBetterLinePlies);
          },
        });
        this.m_stop = handle.stop;
        const result = await handle.result.catch(() => null);
        // The move the search ended on is the best one; its last exact line may have started otherwise.
        if (result?.bestmove && pv[0] !== result.bestmove) pv = [result.bestmove];
        scores.push(last);
      }
      best.push(pv);
      onProgress(ply + 1, plies + 1, scores);
    }
    if (this.m_cancelled) return null;
    const movers = line.slice(0, -1).map((node) => game.positionOf(node).turn);
    return { line, scores, best, ...judgeLine(scores, movers) };
  }
}

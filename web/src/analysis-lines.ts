// SPDX-License-Identifier: GPL-3.0-or-later
// AnalysisLines: which of a MultiPV search's lines the analysis panel shows. One complete depth at
// a time (the previous one stays while the next arrives), sorted best first for the side to move,
// never two lines with the same first move. Pure: no DOM, no engine.

import type { Score, SearchInfo } from './engine/engine';

/**
 * A score as one number that orders lines for the side to move: a mate for it above every
 * centipawn score (the shorter the better), a mate against it below every one (the longer the
 * better). A bound counts as its value: a fail-high line is at least that good, a fail-low one at
 * most, and the value is the best guess either way.
 */
export function scoreRank(score: Score): number {
  const kMateBase = 1_000_000;
  if (score.mate !== undefined) return score.mate > 0 ? kMateBase - score.mate : -kMateBase - score.mate;
  return score.cp ?? 0;
}

/** Best first for the side to move; equal scores keep the engine's order (multipv). */
export function sortLines(lines: readonly SearchInfo[]): SearchInfo[] {
  return [...lines].sort((a, b) => scoreRank(b.score) - scoreRank(a.score) || a.multipv - b.multipv);
}

/**
 * One line per first move: of two lines starting with the same move, the deeper one (at equal
 * depth the one that came later) is kept. Lines without a move are dropped.
 */
export function distinctFirstMoves(lines: readonly SearchInfo[]): SearchInfo[] {
  const byMove = new Map<string, SearchInfo>();
  for (const line of lines) {
    const first = line.pv[0];
    if (!first) continue;
    const held = byMove.get(first);
    if (!held || line.depth >= held.depth) byMove.set(first, line);
  }
  return [...byMove.values()];
}

export class AnalysisLines {
  /** The lines on screen: one complete depth, sorted, distinct first moves. */
  private m_shown: SearchInfo[] = [];
  private m_shownDepth = 0;
  /** Lines of depths not complete yet, by depth, then by multipv. */
  private m_pending = new Map<number, Map<number, SearchInfo>>();
  /** Whether the shown lines are a complete depth (false once an ended search's partial depth was merged in). */
  private m_complete = true;

  /** `expected`: the lines each depth has, min(MultiPV, legal moves). */
  constructor(private m_expected: number) {}

  get shown(): readonly SearchInfo[] {
    return this.m_shown;
  }
  /** The depth of the lines shown (0 before the first complete depth). */
  get shownDepth(): number {
    return this.m_shownDepth;
  }
  get complete(): boolean {
    return this.m_complete;
  }
  /** The deepest depth any line has reached, complete or not. */
  get searchedDepth(): number {
    return Math.max(this.m_shownDepth, ...this.m_pending.keys());
  }

  /** Forgets every line (another position, another MultiPV). */
  reset(expected: number): void {
    this.m_expected = Math.max(1, expected);
    this.m_shown = [];
    this.m_shownDepth = 0;
    this.m_pending.clear();
    this.m_complete = true;
  }

  /**
   * The same position searched again (Go deeper): the lines shown stay until the new search
   * completes a depth at least as deep; its shallower depths (quick, from the hash) are skipped.
   */
  restart(): void {
    this.m_pending.clear();
  }

  /**
   * Takes one info line; true when the lines shown changed. Lines of a depth shallower than the
   * one shown belong to an earlier iteration (or to a restarted search catching up) and are skipped.
   */
  add(info: SearchInfo): boolean {
    if (!info.pv[0] || info.depth < this.m_shownDepth) return false;
    let lines = this.m_pending.get(info.depth);
    if (!lines) this.m_pending.set(info.depth, (lines = new Map()));
    lines.set(info.multipv, info);
    return this.promote();
  }

  /**
   * The search ended: a depth it did not complete is merged into the lines shown (each first
   * move's deepest line kept, the lines sorted again), so that a fail-high found at the end is
   * not lost. True when the lines shown changed.
   */
  finish(): boolean {
    const partial = [...this.m_pending.entries()].filter(([depth]) => depth > this.m_shownDepth).flatMap(([, lines]) => [...lines.values()]);
    this.m_pending.clear();
    if (partial.length === 0) return false;
    const merged = distinctFirstMoves([...this.m_shown, ...partial]);
    this.m_shown = sortLines(merged).slice(0, this.m_expected);
    this.m_shownDepth = Math.max(this.m_shownDepth, ...partial.map((line) => line.depth));
    this.m_complete = false;
    return true;
  }

  /** Shows the deepest complete pending depth, if any, and drops what it supersedes. */
  private promote(): boolean {
    let best = 0;
    for (const [depth, lines] of this.m_pending) if (depth > best && isComplete(lines, this.m_expected)) best = depth;
    if (best === 0 || best < this.m_shownDepth) return false;
    const lines = [...this.m_pending.get(best)!.values()];
    this.m_shown = sortLines(distinctFirstMoves(lines)).slice(0, this.m_expected);
    this.m_shownDepth = best;
    this.m_complete = true;
    for (const depth of [...this.m_pending.keys()]) if (depth <= best) this.m_pending.delete(depth);
    return true;
  }
}

/** A depth is complete when each of its lines 1..expected arrived with an exact score. */
function isComplete(lines: Map<number, SearchInfo>, expected: number): boolean {
  for (let multipv = 1; multipv <= expected; multipv++) if (lines.get(multipv)?.score.bound !== 'exact') return false;
  return true;
}

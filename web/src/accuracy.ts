// SPDX-License-Identifier: GPL-3.0-or-later
// Accuracy as Lichess computes it (lila's AccuracyPercent.gameAccuracy): each move's accuracy from
// the mover's drop in winning percentage, then per side the mean of a volatility-weighted mean and
// a harmonic mean of those accuracies. Pure functions; web/README.md gives the formulas.

import type { Color } from 'chessops/types';
import type { WhiteScore } from './score';

/** Centipawns beyond which a score counts as this much (Lichess's Cp.CEILING); mates count as it too. */
export const kCpCeiling = 1000;
/** The logistic slope of Lichess's winning chances (lila pull request 11148). */
const kWinSlope = 0.00368208;
/** Move accuracy = kAccA * exp(-kAccK * drop) + kAccB, plus kUncertaintyBonus (Lichess's fit). */
const kAccA = 103.1668100711649;
const kAccK = 0.04354415386753951;
const kAccB = -3.166924740191411;
const kUncertaintyBonus = 1;
/** Window of the volatility weights: plies / kWindowDivisor, within these bounds. */
const kWindowDivisor = 10;
const kWindowMin = 2;
const kWindowMax = 8;
/** Bounds of a window's standard deviation used as its weight. */
const kWeightMin = 0.5;
const kWeightMax = 12;

/** White's winning percentage 0..100 for a score (mate as the ceiling, as Lichess's accuracy does). */
export function winPercent(score: WhiteScore): number {
  const cp = score.mate !== undefined ? (score.mate >= 0 ? kCpCeiling : -kCpCeiling) : (score.cp ?? 0);
  const ceiled = Math.max(-kCpCeiling, Math.min(kCpCeiling, cp));
  return 50 + 50 * (2 / (1 + Math.exp(-kWinSlope * ceiled)) - 1);
}

/** Accuracy 0..100 of one move from the mover's winning percentage before and after it. */
export function moveAccuracy(before: number, after: number): number {
  if (after >= before) return 100;
  const raw = kAccA * Math.exp(-kAccK * (before - after)) + kAccB + kUncertaintyBonus;
  return Math.max(0, Math.min(100, raw));
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Population standard deviation (as Lichess's Maths.standardDeviation). */
function standardDeviation(values: readonly number[]): number {
  const m = mean(values);
  return Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / values.length);
}

/** Harmonic mean with each value taken as at least 1 (as Lichess's Maths.harmonicMean). */
function harmonicMean(values: readonly number[]): number {
  return values.length / values.reduce((sum, v) => sum + 1 / Math.max(1, v), 0);
}

export interface GameAccuracy {
  white: number | null;
  black: number | null;
  /** Each move's accuracy (index 0 = the first move). */
  moves: number[];
}

/**
 * Both sides' accuracy from White's winning percentages at every position of a line: `wins[0]` is
 * the start, `wins[i]` the position after move i. `first` is the side that made move 1. A side
 * without a move has null.
 */
export function gameAccuracy(wins: readonly number[], first: Color): GameAccuracy {
  const plies = wins.length - 1;
  if (plies < 1) return { white: null, black: null, moves: [] };
  // Each move is weighted by how much the winning chances swing around it: a window of the
  // positions near it; the first moves reuse the first window.
  const size = Math.max(kWindowMin, Math.min(kWindowMax, Math.floor(plies / kWindowDivisor)));
  const windows: number[][] = [];
  for (let i = 0; i < Math.min(size, wins.length) - 2; i++) windows.push(wins.slice(0, size));
  if (wins.length <= size) windows.push([...wins]);
  else for (let i = 0; i + size <= wins.length; i++) windows.push(wins.slice(i, i + size));
  const weights = windows.map((w) => Math.max(kWeightMin, Math.min(kWeightMax, standardDeviation(w))));
  const bySide: Record<Color, { accuracy: number; weight: number }[]> = { white: [], black: [] };
  const moves: number[] = [];
  for (let i = 0; i < plies; i++) {
    const mover: Color = (i % 2 === 0) === (first === 'white') ? 'white' : 'black';
    const [before, after] = mover === 'white' ? [wins[i]!, wins[i + 1]!] : [100 - wins[i]!, 100 - wins[i + 1]!];
    const accuracy = moveAccuracy(before, after);
    moves.push(accuracy);
    bySide[mover].push({ accuracy, weight: weights[i] ?? kWeightMin });
  }
  const side = (color: Color): number | null => {
    const list = bySide[color];
    if (!list.length) return null;
    const totalWeight = list.reduce((sum, m) => sum + m.weight, 0);
    const weighted = list.reduce((sum, m) => sum + m.accuracy * m.weight, 0) / totalWeight;
    return (weighted + harmonicMean(list.map((m) => m.accuracy))) / 2;
  };
  return { white: side('white'), black: side('black'), moves };
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Scores seen from White: conversion from the engine's side-to-move view, display text and win chance.

import type { Color } from 'chessops/types';
import type { Score } from './engine/engine';

/** A score from White's point of view: centipawns, or mate in n (positive: White mates). */
export interface WhiteScore {
  cp?: number;
  mate?: number;
  /** A tablebase result (cp is ±(20000 less plies)), not an evaluation. */
  tb?: boolean;
}

export function toWhiteScore(score: Score, turn: Color): WhiteScore {
  const sign = turn === 'white' ? 1 : -1;
  if (score.mate !== undefined) return { mate: sign * score.mate };
  if (score.tb && score.cp) return { cp: sign * score.cp, tb: true };
  return { cp: sign * (score.cp ?? 0) };
}

/** The contract's data-score: centipawns, or `M3` / `-M2`. */
export function scoreAttribute(score: WhiteScore): string {
  if (score.mate !== undefined) return score.mate < 0 ? `-M${-score.mate}` : `M${score.mate}`;
  return String(score.cp ?? 0);
}

/** +0.35, -1.20, #3, #-2 as on analysis boards. */
export function formatScore(score: WhiteScore, decimals = 2): string {
  if (score.mate !== undefined) return score.mate < 0 ? `#-${-score.mate}` : `#${score.mate}`;
  if (score.tb && score.cp) return score.cp > 0 ? 'TB win' : 'TB loss';
  const pawns = (score.cp ?? 0) / 100;
  return `${pawns > 0 ? '+' : ''}${pawns.toFixed(decimals)}`;
}

/**
 * White's winning chance in percent, 0..100: Lichess's logistic curve on centipawns
 * (kWinChanceSlope), so that drops in it weigh a lost pawn more in equal positions than in won ones.
 */
const kWinChanceSlope = 0.00368208;
export function whiteWinChance(score: WhiteScore): number {
  if (score.mate !== undefined) return score.mate > 0 ? 100 : score.mate < 0 ? 0 : 50;
  if (score.tb && score.cp) return score.cp > 0 ? 100 : 0;
  const cp = Math.max(-1000, Math.min(1000, score.cp ?? 0));
  return 50 + 50 * (2 / (1 + Math.exp(-kWinChanceSlope * cp)) - 1);
}

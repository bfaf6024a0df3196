// SPDX-License-Identifier: GPL-3.0-or-later
// How long a limited-strength Axon takes over a move, as a person would: a share of its clock that
// grows with the position's complexity (its legal moves), quick in the opening and with a forced
// move, never instant, never more than its clock allows. The page waits this long before playing
// the engine's move (play.ts); web/README.md gives the numbers.

export interface ThinkInput {
  /** The engine's clock when its turn starts, or null in a game without a clock. */
  remainingMs: number | null;
  incrementMs: number;
  /** Legal moves in the position (1: a forced move). */
  legalMoves: number;
  inCheck: boolean;
  /** Plies played before this move. */
  ply: number;
  /** A number in [0, 1) for the move-to-move variation (Math.random in the page). */
  random: number;
}

/** A game without a clock is paced as if each side had this much. */
export const kNoClockMs = 120_000;
/** Moves a game is expected to last from the move about to be played: at least kMinMovesToGo. */
const kMovesPerGame = 50;
const kMinMovesToGo = 25;
/** Share of the increment spent on a move on top of the clock's share. */
const kIncrementShare = 0.75;
/** The opening is played quickly: the time grows from kOpeningFactor to full by kOpeningPlies. */
const kOpeningFactor = 0.3;
const kOpeningPlies = 16;
/** Legal moves of a typical middlegame position: more makes a move slower, fewer faster. */
const kTypicalLegalMoves = 30;
const kComplexityMin = 0.6;
const kComplexityMax = 1.6;
/** A check is answered a little faster (few replies, an obvious threat). */
const kCheckFactor = 0.8;
/** The variation between moves: the time is scaled by kJitterMin..kJitterMin + kJitterSpan. */
const kJitterMin = 0.6;
const kJitterSpan = 0.8;
/** A forced move still takes about this long (seeing that it is the only one). */
export const kForcedMoveMs = 700;
/** Never faster than this, unless the clock is short enough to need it (kMaxClockShare). */
export const kMinThinkMs = 400;
/** Never longer than this... */
export const kMaxThinkMs = 30_000;
/** ...nor more than this share of the clock plus kIncrementShare of the increment... */
export const kMaxClockShare = 0.1;
/** ...nor, in any case, more than this share of the clock alone (the increment comes after the move). */
export const kMaxClockShareHard = 0.5;

/** The think time in milliseconds for a move in `input`'s position. */
export function humanThinkTimeMs(input: ThinkInput): number {
  const remaining = Math.max(0, input.remainingMs ?? kNoClockMs);
  const increment = input.remainingMs === null ? 0 : Math.max(0, input.incrementMs);
  const jitter = kJitterMin + kJitterSpan * Math.min(1, Math.max(0, input.random));
  let target: number;
  if (input.legalMoves <= 1) target = kForcedMoveMs * jitter;
  else {
    const movesToGo = Math.max(kMinMovesToGo, kMovesPerGame - Math.floor(input.ply / 2));
    const budget = remaining / movesToGo + increment * kIncrementShare;
    const opening = kOpeningFactor + (1 - kOpeningFactor) * Math.min(1, input.ply / kOpeningPlies);
    const complexity = Math.min(kComplexityMax, Math.max(kComplexityMin, input.legalMoves / kTypicalLegalMoves));
    target = budget * opening * complexity * (input.inCheck ? kCheckFactor : 1) * jitter;
  }
  const upper = Math.min(kMaxThinkMs, remaining * kMaxClockShare + increment * kIncrementShare, remaining * kMaxClockShareHard);
  const lower = Math.min(kMinThinkMs, upper);
  return Math.round(Math.max(lower, Math.min(upper, target)));
}

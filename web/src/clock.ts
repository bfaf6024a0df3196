// SPDX-License-Identifier: GPL-3.0-or-later
// ChessClock: two countdown clocks with increment, the running side, flag fall, and their display
// (tenths of a second under 10 s); the time controls, presets and custom ones.

import type { Color } from 'chessops/types';

export interface TimeControl {
  /** e.g. "3+2"; "unlimited" has no clock. */
  id: string;
  initialMs: number;
  incrementMs: number;
}

export const kTimeControls: TimeControl[] = [
  { id: '1+0', initialMs: 60_000, incrementMs: 0 },
  { id: '3+2', initialMs: 180_000, incrementMs: 2_000 },
  { id: '5+0', initialMs: 300_000, incrementMs: 0 },
  { id: '10+5', initialMs: 600_000, incrementMs: 5_000 },
  { id: '15+10', initialMs: 900_000, incrementMs: 10_000 },
  { id: 'unlimited', initialMs: 0, incrementMs: 0 },
];

/** Bounds of a custom time control: minutes (whole seconds, at least kCustomMinMs) and increment. */
export const kCustomMinMs = 15_000;
export const kCustomMaxMinutes = 180;
export const kCustomMaxIncrementS = 180;

/**
 * A time control from its id: a preset, or any `minutes+increment` (a custom one, such as
 * `7+3` or `0.5+0`) within the custom bounds; otherwise the default 5+0.
 */
export function timeControlById(id: string): TimeControl {
  const preset = kTimeControls.find((tc) => tc.id === id);
  if (preset) return preset;
  const [minutes, increment] = id.split('+');
  const custom = minutes !== undefined && increment !== undefined ? parseTimeControl(minutes, increment) : null;
  return custom && 'tc' in custom ? custom.tc : kTimeControls[2]!;
}

/** A number as the user typed it: digits with one `.` or `,`; NaN otherwise. */
function parseDecimal(text: string): number {
  const trimmed = text.trim().replace(',', '.');
  return /^(\d+(\.\d*)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : NaN;
}

/**
 * A custom time control from the user's minutes and increment (seconds), or why it is not one:
 * minutes from 0.25 (kCustomMinMs) to kCustomMaxMinutes in whole seconds, an increment of whole
 * seconds from 0 to kCustomMaxIncrementS. Its id is `minutes+increment` (`0.5+0`, `7+3`).
 */
export function parseTimeControl(minutesText: string, incrementText: string): { tc: TimeControl } | { error: string } {
  const minutes = parseDecimal(minutesText);
  const increment = parseDecimal(incrementText === '' ? '0' : incrementText);
  if (!Number.isFinite(minutes)) return { error: 'Minutes must be a number, such as 3 or 0.5' };
  const initialMs = Math.round(minutes * 60_000);
  if (initialMs < kCustomMinMs) return { error: `At least ${kCustomMinMs / 1000} seconds (0.25 minutes)` };
  if (minutes > kCustomMaxMinutes) return { error: `At most ${kCustomMaxMinutes} minutes` };
  if (initialMs % 1000 !== 0) return { error: 'Minutes must come to whole seconds (0.5 is 30 s)' };
  if (!Number.isInteger(increment)) return { error: 'The increment must be whole seconds, such as 0 or 2' };
  if (increment > kCustomMaxIncrementS) return { error: `The increment is at most ${kCustomMaxIncrementS} seconds` };
  return { tc: { id: `${initialMs / 60_000}+${increment}`, initialMs, incrementMs: increment * 1000 } };
}

/** Below this the clock shows tenths of a second. */
export const kTenthsBelowMs = 10_000;

/**
 * m:ss, or h:mm:ss from an hour up, and 0:09.3 (tenths) under kTenthsBelowMs; rounds up, so that
 * 0:00.0 means the flag has fallen.
 */
export function formatClock(ms: number): string {
  const tenths = Math.max(0, Math.ceil(ms / 100));
  if (tenths < kTenthsBelowMs / 100) return `0:${String(Math.floor(tenths / 10)).padStart(2, '0')}.${tenths % 10}`;
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** Milliseconds until formatClock(ms) shows something else (the next tenth or second down). */
export function msUntilClockChange(ms: number): number {
  if (ms <= 0) return 0;
  const step = ms <= kTenthsBelowMs ? 100 : 1000;
  const rest = ms % step;
  return rest === 0 ? step : rest;
}

/** The running clock is redrawn at least this often, and whenever its text changes. */
const kTickMs = 100;
const kLowTimeMs = 20_000;

export class ChessClock {
  private m_remaining: Record<Color, number> = { white: 0, black: 0 };
  private m_running: Color | null = null;
  private m_since = 0;
  private m_timer: number | undefined;
  private m_tc: TimeControl = timeControlById('5+0');

  private m_warned: Record<Color, boolean> = { white: false, black: false };

  constructor(
    private readonly m_elements: Record<Color, HTMLElement>,
    private readonly m_onFlag: (color: Color) => void,
    /** Called once per game and side when its time drops under kLowTimeMs. */
    private readonly m_onLowTime: (color: Color) => void = () => {},
  ) {}

  get enabled(): boolean {
    return this.m_tc.initialMs > 0;
  }
  get incrementMs(): number {
    return this.m_tc.incrementMs;
  }
  get running(): Color | null {
    return this.m_running;
  }

  reset(tc: TimeControl): void {
    this.stop();
    this.m_tc = tc;
    this.m_remaining = { white: tc.initialMs, black: tc.initialMs };
    this.m_warned = { white: tc.initialMs <= kLowTimeMs, black: tc.initialMs <= kLowTimeMs };
    this.render();
  }

  /** Sets what is left on both clocks (a game restored after a reload); no clock runs. */
  setRemaining(white: number, black: number): void {
    this.stop();
    this.m_remaining = { white, black };
    this.m_warned = { white: white <= kLowTimeMs, black: black <= kLowTimeMs };
    this.render();
  }

  /** The time control set by reset(). */
  get timeControl(): TimeControl {
    return this.m_tc;
  }

  remaining(color: Color): number {
    const base = this.m_remaining[color];
    return this.m_running === color ? base - (performance.now() - this.m_since) : base;
  }

  /** Starts `color`'s clock (the other side's stops, without increment). */
  start(color: Color): void {
    if (!this.enabled) return;
    this.pause();
    this.m_running = color;
    this.m_since = performance.now();
    this.render();
    this.schedule();
  }

  /** The next tick: when the text changes (a tenth or a second), kTickMs at the latest. */
  private schedule(): void {
    const color = this.m_running;
    if (!color) return;
    const delay = Math.min(kTickMs, msUntilClockChange(this.remaining(color)) + 1);
    this.m_timer = window.setTimeout(() => this.tick(), delay);
  }

  /** The side to move finished its move: it gets the increment (if its clock ran) and the other side's clock runs. */
  switchAfterMove(mover: Color, startOther: boolean): void {
    if (!this.enabled) return;
    if (this.m_running === mover) {
      this.pause();
      this.m_running = null;
      this.m_remaining[mover] += this.m_tc.incrementMs;
    }
    if (startOther) this.start(mover === 'white' ? 'black' : 'white');
    else this.render();
  }

  /** Stops the running clock, keeping what is left. */
  stop(): void {
    this.pause();
    this.m_running = null;
    this.render();
  }

  private pause(): void {
    if (this.m_running) this.m_remaining[this.m_running] = this.remaining(this.m_running);
    if (this.m_timer !== undefined) clearTimeout(this.m_timer);
    this.m_timer = undefined;
    this.m_since = performance.now();
  }

  private tick(): void {
    const color = this.m_running;
    if (!color) return;
    if (this.remaining(color) <= 0) {
      this.pause();
      this.m_remaining[color] = 0;
      this.m_running = null;
      this.render();
      this.m_onFlag(color);
      return;
    }
    if (!this.m_warned[color] && this.remaining(color) < kLowTimeMs) {
      this.m_warned[color] = true;
      this.m_onLowTime(color);
    }
    this.render();
    this.schedule();
  }

  render(): void {
    for (const color of ['white', 'black'] as const) {
      const element = this.m_elements[color];
      const ms = Math.max(0, this.remaining(color));
      element.hidden = !this.enabled;
      element.dataset.ms = String(Math.round(ms));
      const text = formatClock(ms);
      if (element.textContent !== text) element.textContent = text;
      element.classList.toggle('running', this.m_running === color);
      element.classList.toggle('low', this.enabled && ms < kLowTimeMs);
    }
  }
}

// SPDX-License-Identifier: GPL-3.0-or-later
// User settings kept in localStorage (colour, strength, clock, engine, MultiPV, each engine's
// hash and threads, sound, whether Axon's search shows during a game, the board's looks) and the theme.

export type Theme = 'light' | 'dark';
export type ColorChoice = 'white' | 'black' | 'random';

export interface Settings {
  theme: Theme;
  color: ColorChoice;
  /** UCI_Elo, or 'max' for full strength. */
  elo: number | 'max';
  /** Time control id: a preset (`3+2`, `unlimited`) or a custom `minutes+increment`. */
  tc: string;
  engine: 'server' | 'wasm' | null;
  multipv: number;
  /** Hash (MiB) and threads the user chose for each engine; absent: the engine's own default. */
  engineHash: Partial<Record<'server' | 'wasm', number>>;
  engineThreads: Partial<Record<'server' | 'wasm', number>>;
  sound: boolean;
  /** Show Axon's evaluation and line (the dashboard) while playing against it. */
  showEngineEval: boolean;
  /** The board's looks (board-looks.ts): piece set, board colours, coordinates shown. */
  pieceSet: string;
  boardTheme: string;
  coordinates: boolean;
}

const kStorageKey = 'axon.settings.v1';

function defaults(): Settings {
  const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  return { theme: dark ? 'dark' : 'light', color: 'white', elo: 1500, tc: '5+0', engine: null, multipv: 3, engineHash: {}, engineThreads: {}, sound: true, showEngineEval: false, pieceSet: 'cburnett', boardTheme: 'brown', coordinates: true };
}

export function loadSettings(): Settings {
  const base = defaults();
  try {
    const stored = JSON.parse(localStorage.getItem(kStorageKey) ?? '{}') as Partial<Settings>;
    return { ...base, ...stored };
  } catch {
    return base;
  }
}

export function saveSettings(settings: Settings): void {
  try {
    localStorage.setItem(kStorageKey, JSON.stringify(settings));
  } catch {
    // Private mode or storage full: settings just do not persist.
  }
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', theme === 'dark' ? '#161512' : '#f4f1ec');
}

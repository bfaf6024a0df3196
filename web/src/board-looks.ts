// SPDX-License-Identifier: GPL-3.0-or-later
// The board's looks: piece set, board colours and coordinates, chosen in the Board card and kept
// in the settings. The default set (cburnett) and board (brown) are chessground's CSS; the other
// sets are drawn here as SVG (Axon's own, GPL-3.0-or-later like the page) and the other boards are
// two-colour squares, both as CSS rules on `html[data-pieces]` / `html[data-board]`, so that every
// board of the page (the game, the editor, the dashboard's) follows.

import type { Settings } from './settings';

export const kPieceSets = ['cburnett', 'flat', 'letters'] as const;
export type PieceSet = (typeof kPieceSets)[number];
export const kBoardThemes = ['brown', 'green', 'blue', 'grey'] as const;
export type BoardTheme = (typeof kBoardThemes)[number];

/** Light and dark squares of the boards drawn here (brown is chessground's own image). */
const kBoardColours: Record<Exclude<BoardTheme, 'brown'>, [string, string]> = {
  green: ['#eeeed2', '#769656'],
  blue: ['#dee3e6', '#8ca2ad'],
  grey: ['#d9d9d9', '#a3a3a3'],
};

type Role = 'king' | 'queen' | 'rook' | 'bishop' | 'knight' | 'pawn';
const kRoles: Role[] = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];

/** Simple geometric pieces on a 45-unit square (as cburnett's), one shape list per role. */
const kFlatShapes: Record<Role, string> = {
  pawn: '<circle cx="22.5" cy="14" r="5.5"/><path d="M17 21h11l3 13H14z"/><rect x="11" y="34" width="23" height="5" rx="1.5"/>',
  rook: '<path d="M12 9h5v4h3V9h5v4h3V9h5v8l-3 3v12h-15V20l-3-3z"/><rect x="10" y="33" width="25" height="6" rx="1.5"/>',
  knight:
    '<path d="M14 38c0-9 2-13 8-17-4 0-7 2-9 4l-2-4c2-5 7-11 14-12l1-4 3 5c5 3 7 10 7 28z"/><circle cx="24" cy="15" r="1.6" class="eye"/><rect x="11" y="34" width="24" height="5" rx="1.5"/>',
  bishop:
    '<circle cx="22.5" cy="8" r="3"/><path d="M22.5 11c6 4 9 9 7 15-1 3-4 5-7 5s-6-2-7-5c-2-6 1-11 7-15z"/><path d="M21 17h3v3h3v3h-3v3h-3v-3h-3v-3h3z" class="mark"/><rect x="11" y="33" width="23" height="6" rx="1.5"/>',
  queen:
    '<circle cx="8" cy="13" r="2.5"/><circle cx="15" cy="9" r="2.5"/><circle cx="22.5" cy="7.5" r="2.5"/><circle cx="30" cy="9" r="2.5"/><circle cx="37" cy="13" r="2.5"/><path d="M8 15l5 17h19l5-17-8 8-6-13-6 13z"/><rect x="10" y="33" width="25" height="6" rx="1.5"/>',
  king:
    '<path d="M21 4h3v4h4v3h-4v4h-3v-4h-4V8h4z"/><path d="M22.5 15c-8 0-13 5-12 11l3 7h18l3-7c1-6-4-11-12-11z"/><rect x="10" y="33" width="25" height="6" rx="1.5"/>',
};

const kLetters: Record<Role, string> = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P' };

function pieceSvg(set: Exclude<PieceSet, 'cburnett'>, role: Role, white: boolean): string {
  const fill = white ? '#fafafa' : '#303030';
  const line = white ? '#202020' : '#0a0a0a';
  const detail = white ? '#202020' : '#fafafa';
  let body: string;
  if (set === 'flat')
    body = `<g fill="${fill}" stroke="${line}" stroke-width="1.5" stroke-linejoin="round">${kFlatShapes[role]}</g><style>.eye,.mark{fill:${detail};stroke:none}</style>`;
  else
    body =
      `<circle cx="22.5" cy="22.5" r="18" fill="${fill}" stroke="${line}" stroke-width="2"/>` +
      `<text x="22.5" y="30" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="22" fill="${detail}">${kLetters[role]}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45">${body}</svg>`;
}

const dataUri = (svg: string): string => `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}")`;

/** A checkerboard of 8x8 squares, light first (a8 is light). */
function boardSvg([light, dark]: [string, string]): string {
  let squares = '';
  for (let rank = 0; rank < 8; rank++) for (let file = 0; file < 8; file++) if ((rank + file) % 2 === 1) squares += `<rect x="${file}" y="${rank}" width="1" height="1"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8" shape-rendering="crispEdges"><rect width="8" height="8" fill="${light}"/><g fill="${dark}">${squares}</g></svg>`;
}

/** The CSS of every set and board drawn here (written once into a <style> of the page). */
export function looksCss(): string {
  const rules: string[] = [];
  for (const set of kPieceSets) {
    if (set === 'cburnett') continue;
    for (const role of kRoles)
      for (const white of [true, false]) {
        const color = white ? 'white' : 'black';
        rules.push(`html[data-pieces="${set}"] .cg-wrap piece.${role}.${color}{background-image:${dataUri(pieceSvg(set, role, white))}}`);
      }
  }
  for (const [theme, colours] of Object.entries(kBoardColours)) {
    rules.push(`html[data-board="${theme}"] cg-board{background-color:${colours[0]};background-image:${dataUri(boardSvg(colours))}}`);
    // The coordinates on the squares' colours, as chessground's brown theme does.
    rules.push(`html[data-board="${theme}"] .cg-wrap coords coord.coord-light{color:${colours[1]}}`);
    rules.push(`html[data-board="${theme}"] .cg-wrap coords coord.coord-dark{color:${colours[0]}}`);
  }
  rules.push('html[data-coords="off"] .cg-wrap coords{display:none}');
  return rules.join('\n');
}

/** A stored choice if it is one of `options`, else the first. */
function oneOf<T extends string>(value: unknown, options: readonly T[]): T {
  return options.includes(value as T) ? (value as T) : options[0]!;
}

/** Puts the settings' looks on the page. */
export function applyLooks(settings: Pick<Settings, 'pieceSet' | 'boardTheme' | 'coordinates'>): void {
  const root = document.documentElement;
  root.dataset.pieces = oneOf(settings.pieceSet, kPieceSets);
  root.dataset.board = oneOf(settings.boardTheme, kBoardThemes);
  root.dataset.coords = settings.coordinates === false ? 'off' : 'on';
}

/** Writes the looks' CSS into the page once, and wires the Board card's controls. */
export function initLooks(settings: Settings, save: () => void): void {
  const style = document.createElement('style');
  style.dataset.looks = '';
  style.textContent = looksCss();
  document.head.appendChild(style);
  applyLooks(settings);
  const pieces = document.querySelector<HTMLSelectElement>('[data-testid="piece-set-select"]');
  const board = document.querySelector<HTMLSelectElement>('[data-testid="board-theme-select"]');
  const coords = document.querySelector<HTMLInputElement>('[data-testid="coords-toggle"]');
  if (!pieces || !board || !coords) return;
  pieces.value = oneOf(settings.pieceSet, kPieceSets);
  board.value = oneOf(settings.boardTheme, kBoardThemes);
  coords.checked = settings.coordinates !== false;
  const changed = (): void => {
    settings.pieceSet = oneOf(pieces.value, kPieceSets);
    settings.boardTheme = oneOf(board.value, kBoardThemes);
    settings.coordinates = coords.checked;
    applyLooks(settings);
    save();
  };
  for (const control of [pieces, board, coords]) control.addEventListener('change', changed);
}

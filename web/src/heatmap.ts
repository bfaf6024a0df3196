// SPDX-License-Identifier: GPL-3.0-or-later
// HeatmapOverlay, "what the network sees": in analysis, each piece's contribution to Axon's static
// evaluation (the network's score of the position minus its score without that piece, kings
// excluded, White's point of view; Engine.evalPieces, docs/eval-pieces.md) drawn as a signed heat
// map on the squares, under the pieces, with the centipawn value on hover.
//
// It reads the page through the DOM that other parts keep: the board's data-fen and
// data-orientation (BoardView), the layout's data-mode, the engine status's data-engine and
// data-state; main.ts only constructs it.

import type { Engine, PieceContribution, PieceEval } from './engine/engine';

export interface HeatmapOptions {
  /** The board container (data-testid=board): BoardView keeps its data-fen and data-orientation. */
  board: HTMLElement;
  /** The page layout, whose data-mode is 'analysis' or 'play'. */
  layout: HTMLElement;
  /** Where the toggle goes: the analysis panel's head (hidden in play). */
  toggleHost: HTMLElement;
  engine: () => Engine | null;
  /** The engine status line: a change of its data-engine or data-state asks again after a failure. */
  engineStatus?: HTMLElement;
}

type HeatState = 'off' | 'loading' | 'ready' | 'error' | 'no-engine';

const kStorageKey = 'axon.heatmap.v1';
const kToggleTitle =
  "What the network sees: each piece's share of Axon's static evaluation (the network's score " +
  'minus its score without the piece, White\'s view; blue helps White, orange helps Black). ' +
  'Hover a piece for its value in centipawns.';
const kPieceNames: Record<string, string> = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

/** The fill of a square: blue where the piece helps White, orange where it helps Black, stronger with |cp|. */
export function heatColor(cp: number): string {
  if (cp === 0) return 'transparent';
  const strength = Math.min(1, Math.sqrt(Math.abs(cp) / 1000));
  const alpha = (0.14 + 0.56 * strength).toFixed(3);
  return cp > 0 ? `rgba(32, 112, 235, ${alpha})` : `rgba(240, 120, 16, ${alpha})`;
}

/** '+312 cp', '−95 cp' (a real minus sign), '0 cp'. */
export function formatContribution(cp: number): string {
  return `${cp > 0 ? '+' : cp < 0 ? '\u2212' : ''}${Math.abs(cp)} cp`;
}

/** The hover text of one piece: 'White knight f3: +312 cp, helps White'. */
export function describeContribution(p: PieceContribution): string {
  const colour = p.piece === p.piece.toUpperCase() ? 'White' : 'Black';
  const name = kPieceNames[p.piece.toLowerCase()] ?? p.piece;
  const side = p.cp > 0 ? ', helps White' : p.cp < 0 ? ', helps Black' : '';
  return `${colour} ${name} ${p.square}: ${formatContribution(p.cp)}${side}`;
}

/** Column and row (0..7 from the board's top-left) of a square as drawn for `orientation`. */
export function squareCell(square: string, orientation: 'white' | 'black'): { col: number; row: number } {
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  return orientation === 'white' ? { col: file, row: 7 - rank } : { col: 7 - file, row: rank };
}

/** The square under a point given as fractions (0..1) of the board's width and height, or null. */
export function squareAtFraction(x: number, y: number, orientation: 'white' | 'black'): string | null {
  if (!(x >= 0 && x < 1 && y >= 0 && y < 1)) return null;
  const col = Math.floor(x * 8);
  const row = Math.floor(y * 8);
  const file = orientation === 'white' ? col : 7 - col;
  const rank = orientation === 'white' ? 7 - row : row;
  return String.fromCharCode(97 + file) + String(rank + 1);
}

export class HeatmapOverlay {
  private readonly m_overlay: HTMLElement;
  private readonly m_tip: HTMLElement;
  private readonly m_toggle: HTMLInputElement;
  private m_enabled: boolean;
  private m_state: HeatState = 'off';
  /** What was last asked (FEN and engine), and its answer. */
  private m_fen = '';
  private m_engine: Engine | null = null;
  private m_answer: PieceEval | null = null;
  private m_token = 0;
  private m_hovered: string | null = null;
  private readonly m_groundObserver = new MutationObserver(() => this.attach());

  constructor(private readonly m_options: HeatmapOptions) {
    this.m_enabled = readEnabled();
    this.m_overlay = document.createElement('div');
    this.m_overlay.className = 'heatmap';
    this.m_overlay.dataset.testid = 'heatmap';
    this.m_overlay.setAttribute('aria-hidden', 'true');
    this.m_tip = document.createElement('div');
    this.m_tip.className = 'heatmap-tip';
    this.m_tip.dataset.testid = 'heatmap-tip';
    this.m_tip.setAttribute('role', 'tooltip');
    this.m_tip.hidden = true;
    m_options.board.appendChild(this.m_tip);

    const label = document.createElement('label');
    label.className = 'inline-field heatmap-toggle';
    label.title = kToggleTitle;
    this.m_toggle = document.createElement('input');
    this.m_toggle.type = 'checkbox';
    this.m_toggle.dataset.testid = 'heatmap-toggle';
    this.m_toggle.checked = this.m_enabled;
    label.append(this.m_toggle, ' Heat map');
    m_options.toggleHost.insertBefore(label, m_options.toggleHost.querySelector('.inline-field'));
    this.m_toggle.addEventListener('change', () => {
      this.m_enabled = this.m_toggle.checked;
      saveEnabled(this.m_enabled);
      this.refresh();
    });

    const watch = (element: HTMLElement | undefined, attributes: string[], onChange: () => void): void => {
      if (element) new MutationObserver(onChange).observe(element, { attributes: true, attributeFilter: attributes });
    };
    watch(m_options.board, ['data-fen', 'data-orientation'], () => this.refresh());
    watch(m_options.layout, ['data-mode'], () => this.refresh());
    watch(m_options.engineStatus, ['data-engine', 'data-state'], () => this.refresh(true));
    // Pointer events: a mouse hovering, and a finger touching a piece (touch screens have no hover).
    for (const type of ['pointermove', 'pointerdown'] as const)
      m_options.board.addEventListener(type, (event) => this.hover(event), { passive: true });
    m_options.board.addEventListener('pointerleave', () => this.hover(null));
    this.refresh();
  }

  /** Whether the overlay is switched on and the page is in analysis. */
  get visible(): boolean {
    return this.m_enabled && this.m_options.layout.dataset.mode === 'analysis';
  }

  /** Follows the page: shows, hides, or asks the engine about a new position. */
  refresh(engineChanged = false): void {
    if (!this.visible) {
      this.m_token++;
      this.m_fen = '';
      this.m_answer = null;
      this.setState('off');
      this.m_overlay.hidden = true;
      this.hover(null);
      return;
    }
    this.attach();
    this.m_overlay.hidden = false;
    const fen = this.m_options.board.dataset.fen ?? '';
    const engine = this.m_options.engine();
    const failed = this.m_state === 'error' || this.m_state === 'no-engine';
    if (fen !== this.m_fen || engine !== this.m_engine || (engineChanged && failed)) this.ask(fen, engine);
    else this.render();
  }

  private ask(fen: string, engine: Engine | null): void {
    const token = ++this.m_token;
    this.m_fen = fen;
    this.m_engine = engine;
    this.m_answer = null;
    if (!fen || !engine || engine.state === 'error') {
      this.setState('no-engine', engine?.errorMessage ?? 'no engine');
      this.render();
      return;
    }
    this.setState('loading');
    this.render();
    engine.evalPieces(fen).then(
      (answer) => {
        if (token !== this.m_token) return;
        this.m_answer = answer;
        this.setState('ready');
        this.render();
      },
      (error: unknown) => {
        if (token !== this.m_token) return;
        this.setState('error', error instanceof Error ? error.message : String(error));
        this.render();
      },
    );
  }

  private setState(state: HeatState, error = ''): void {
    this.m_state = state;
    this.m_overlay.dataset.state = state;
    const label = this.m_toggle.parentElement!;
    label.dataset.state = state;
    label.title = kToggleTitle + (error ? `\n(${error})` : '');
  }

  /** Puts the overlay inside chessground's container, under the pieces (chessground rebuilds it on a flip). */
  private attach(): void {
    const ground = this.m_options.board.querySelector<HTMLElement>('.board-ground');
    const container = ground?.querySelector<HTMLElement>('cg-container');
    if (ground) this.m_groundObserver.observe(ground, { childList: true });
    if (container && this.m_overlay.parentElement !== container) {
      container.appendChild(this.m_overlay);
      this.render();
    }
  }

  private orientation(): 'white' | 'black' {
    return this.m_options.board.dataset.orientation === 'black' ? 'black' : 'white';
  }

  private render(): void {
    const overlay = this.m_overlay;
    overlay.replaceChildren();
    const answer = this.m_answer;
    overlay.dataset.fen = answer ? this.m_fen : '';
    if (!answer) return;
    overlay.dataset.base = String(answer.base);
    const orientation = this.orientation();
    for (const p of answer.pieces) {
      const { col, row } = squareCell(p.square, orientation);
      const cell = document.createElement('div');
      cell.className = 'heatmap-cell';
      cell.dataset.square = p.square;
      cell.dataset.cp = String(p.cp);
      cell.style.left = `${col * 12.5}%`;
      cell.style.top = `${row * 12.5}%`;
      cell.style.background = heatColor(p.cp);
      overlay.appendChild(cell);
    }
    if (this.m_hovered) this.showTip(this.m_hovered);
  }

  private hover(event: PointerEvent | null): void {
    const board = this.m_options.board.querySelector<HTMLElement>('cg-board');
    if (!event || !board || !this.visible || !this.m_answer) {
      this.m_hovered = null;
      this.m_tip.hidden = true;
      return;
    }
    const rect = board.getBoundingClientRect();
    const square = squareAtFraction(
      (event.clientX - rect.left) / rect.width,
      (event.clientY - rect.top) / rect.height,
      this.orientation(),
    );
    this.m_hovered = square;
    if (square) this.showTip(square);
    else this.m_tip.hidden = true;
  }

  private showTip(square: string): void {
    const piece = this.m_answer?.pieces.find((p) => p.square === square);
    if (!piece) {
      this.m_tip.hidden = true;
      return;
    }
    const { col, row } = squareCell(square, this.orientation());
    this.m_tip.textContent = describeContribution(piece);
    this.m_tip.dataset.square = square;
    this.m_tip.dataset.cp = String(piece.cp);
    this.m_tip.style.left = `${(col + 0.5) * 12.5}%`;
    this.m_tip.style.top = `${row * 12.5}%`;
    this.m_tip.classList.toggle('below', row === 0);
    if (row === 0) this.m_tip.style.top = `${12.5}%`;
    this.m_tip.hidden = false;
  }
}

function readEnabled(): boolean {
  try {
    return localStorage.getItem(kStorageKey) === 'on';
  } catch {
    return false;
  }
}

function saveEnabled(on: boolean): void {
  try {
    localStorage.setItem(kStorageKey, on ? 'on' : 'off');
  } catch {
    // Storage refused (private mode): the toggle still works for this page.
  }
}

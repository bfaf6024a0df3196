// SPDX-License-Identifier: GPL-3.0-or-later
// BoardView: the chessground board, its data-* attributes, legal destinations, premoves and the promotion picker.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import { chessgroundDests } from 'chessops/compat';
import type { Chess } from 'chessops/chess';
import type { Color } from 'chessops/types';
import { makeFen } from 'chessops/fen';

export interface BoardPosition {
  position: Chess;
  lastMoveUci: string;
  /** Which side the user may move: a colour, both (analysis), or none (engine's turn, game over). */
  movable: Color | 'both' | 'none';
  /** Whether the user may premove while it is not their turn. */
  premove: boolean;
  /** The arrows and circles the user drew on this position (board-shapes.ts). */
  shapes: DrawShape[];
}

type PromotionRole = 'queen' | 'rook' | 'bishop' | 'knight';
const kPromotionRoles: { role: PromotionRole; letter: string }[] = [
  { role: 'queen', letter: 'q' },
  { role: 'knight', letter: 'n' },
  { role: 'rook', letter: 'r' },
  { role: 'bishop', letter: 'b' },
];

export class BoardView {
  readonly api: Api;
  private m_position: Chess | null = null;
  private m_picker: HTMLElement;

  /** `m_element` is the board's container: chessground renders into a child, the picker lies beside it. */
  constructor(
    private readonly m_element: HTMLElement,
    /** Called with a UCI move the user made (promotion letter included). */
    private readonly m_onUserMove: (uci: string) => void,
    /** Called when the user drew or erased an arrow or circle (the position's shapes now). */
    private readonly m_onShapes: (shapes: DrawShape[]) => void = () => {},
  ) {
    const ground = document.createElement('div');
    ground.className = 'board-ground';
    m_element.appendChild(ground);
    this.api = Chessground(ground, {
      coordinates: true,
      animation: { enabled: true, duration: 180 },
      highlight: { lastMove: true, check: true },
      movable: { free: false, showDests: true, events: { after: (orig, dest) => this.afterMove(orig, dest) } },
      premovable: { enabled: true, showDests: true },
      draggable: { enabled: true, showGhost: true },
      // Shapes belong to the viewed position and are saved with it (a move with one's own piece
      // keeps them; a click on an empty square erases them, as on lichess).
      drawable: { enabled: true, visible: true, onChange: (shapes) => this.m_onShapes([...shapes]) },
    });
    // chessground caches the board's screen position and refreshes it only on scroll or resize:
    // a layout change that moves the board without resizing it would send clicks to the wrong
    // squares, so the cache is dropped before every press (capture phase, ahead of chessground).
    for (const type of ['mousedown', 'touchstart'] as const) {
      ground.addEventListener(type, () => this.api.state.dom.bounds.clear(), { capture: true, passive: true });
    }
    this.m_picker = document.createElement('div');
    this.m_picker.className = 'cg-wrap promotion-picker';
    this.m_picker.dataset.testid = 'promotion-picker';
    this.m_picker.setAttribute('role', 'dialog');
    this.m_picker.setAttribute('aria-label', 'Choose the promotion piece');
    this.m_picker.hidden = true;
    m_element.appendChild(this.m_picker);
    this.setOrientation('white');
  }

  get orientation(): Color {
    return this.api.state.orientation;
  }

  setOrientation(color: Color): void {
    if (this.api.state.orientation !== color) this.api.toggleOrientation();
    this.m_element.dataset.orientation = color;
  }

  flip(): void {
    this.setOrientation(this.orientation === 'white' ? 'black' : 'white');
  }

  /** Shows a position; keeps a pending premove when the position merely advanced. */
  show(view: BoardPosition): void {
    const position = view.position;
    this.m_position = position;
    this.hidePicker();
    const fen = makeFen(position.toSetup());
    const last = view.lastMoveUci;
    const lastMove = last ? ([last.slice(0, 2), last.slice(2, 4)] as Key[]) : undefined;
    const movableColor = view.movable === 'none' ? undefined : view.movable === 'both' ? position.turn : view.movable;
    this.api.set({
      fen,
      turnColor: position.turn,
      check: position.isCheck() ? position.turn : false,
      lastMove,
      movable: {
        color: movableColor,
        dests: view.movable === 'none' ? new Map() : (chessgroundDests(position) as Map<Key, Key[]>),
      },
      premovable: { enabled: view.premove },
      // A new FEN clears chessground's shapes; these are the viewed position's own.
      drawable: { shapes: view.shapes },
    });
    if (!view.premove) this.api.cancelPremove();
    this.m_element.dataset.fen = fen;
    this.m_element.dataset.lastMove = last;
  }

  /** Plays a pending premove if it is legal now; chessground then calls our move handler. */
  playPremove(): boolean {
    return this.api.playPremove();
  }

  setArrows(shapes: DrawShape[]): void {
    this.api.setAutoShapes(shapes);
  }

  private afterMove(orig: Key, dest: Key): void {
    const position = this.m_position;
    if (!position) return;
    const uci = orig + dest;
    const piece = this.api.state.pieces.get(dest);
    const lastRank = dest[1] === '8' || dest[1] === '1';
    if (piece?.role === 'pawn' && lastRank) {
      this.showPicker(orig, dest, piece.color);
      return;
    }
    this.m_onUserMove(uci);
  }

  private showPicker(orig: Key, dest: Key, color: Color): void {
    const picker = this.m_picker;
    picker.replaceChildren();
    const file = dest.charCodeAt(0) - 97;
    const column = this.orientation === 'white' ? file : 7 - file;
    const fromTop = (dest[1] === '8') === (this.orientation === 'white');
    picker.style.left = `${column * 12.5}%`;
    picker.classList.toggle('from-bottom', !fromTop);
    for (const { role, letter } of kPromotionRoles) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.testid = `promote-${letter}`;
      button.setAttribute('aria-label', `Promote to ${role}`);
      const piece = document.createElement('piece');
      piece.className = `${role} ${color}`;
      button.appendChild(piece);
      button.addEventListener('click', (event) => {
        event.stopPropagation();
        this.hidePicker();
        this.m_onUserMove(orig + dest + letter);
      });
      picker.appendChild(button);
    }
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'promotion-cancel';
    cancel.textContent = '×';
    cancel.setAttribute('aria-label', 'Cancel the promotion');
    cancel.addEventListener('click', (event) => {
      event.stopPropagation();
      this.hidePicker();
      if (this.m_position) this.redraw();
    });
    picker.appendChild(cancel);
    picker.hidden = false;
    (picker.firstElementChild as HTMLElement | null)?.focus();
  }

  private redraw(): void {
    // Puts the pawn back: the move never happened.
    const position = this.m_position;
    if (!position) return;
    this.api.set({ fen: makeFen(position.toSetup()), drawable: { shapes: [...this.api.state.drawable.shapes] } });
    this.api.set({
      movable: { color: position.turn, dests: chessgroundDests(position) as Map<Key, Key[]> },
    });
  }

  private hidePicker(): void {
    this.m_picker.hidden = true;
    this.m_picker.replaceChildren();
  }
}


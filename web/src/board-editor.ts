// SPDX-License-Identifier: GPL-3.0-or-later
// BoardEditor: the board editor card. A board of its own (chessground, pieces moved freely, dragged
// off to remove them), a palette to drag pieces on from, the side to move, castling rights, the
// en-passant square, and Play / Analyse from the position; a position that cannot be played is
// refused under the board with what to fix (position-setup.ts).

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Color, Role } from '@lichess-org/chessground/types';
import { byTestId, el } from './dom';
import { setupToFen, type SetupResult } from './position-setup';

export interface BoardEditorHost {
  /** The FEN of the position viewed on the main board (the editor starts from it). */
  viewedFen(): string;
  /** Starts a game against Axon from `fen`. */
  play(fen: string): void;
  /** Opens `fen` in Analysis. */
  analyse(fen: string): void;
}

const kRoles: Role[] = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];
const kEmptyPlacement = '8/8/8/8/8/8/8/8';
const kStartPlacement = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';

export class BoardEditor {
  private readonly m_api: Api;
  private readonly m_root = byTestId('editor');
  private readonly m_turn = byTestId<HTMLSelectElement>('editor-turn');
  private readonly m_ep = byTestId<HTMLInputElement>('editor-ep');
  private readonly m_fen = byTestId<HTMLInputElement>('editor-fen');
  private readonly m_error = byTestId('editor-error');
  private readonly m_castling = {
    K: byTestId<HTMLInputElement>('editor-castle-K'),
    Q: byTestId<HTMLInputElement>('editor-castle-Q'),
    k: byTestId<HTMLInputElement>('editor-castle-k'),
    q: byTestId<HTMLInputElement>('editor-castle-q'),
  };

  constructor(private readonly m_host: BoardEditorHost) {
    const ground = el('div', { class: 'editor-ground' });
    byTestId('editor-board').appendChild(ground);
    this.m_api = Chessground(ground, {
      fen: kStartPlacement,
      coordinates: true,
      animation: { enabled: false },
      movable: { free: true, color: 'both', showDests: false },
      premovable: { enabled: false },
      draggable: { enabled: true, deleteOnDropOff: true, showGhost: true },
      selectable: { enabled: false },
      drawable: { enabled: false },
      highlight: { lastMove: false, check: false },
      events: { change: () => this.update() },
    });
    // chessground caches its board's position (see board-view.ts): the card opens and moves.
    ground.addEventListener('mousedown', () => this.m_api.state.dom.bounds.clear(), { capture: true, passive: true });
    this.buildPalette();
    this.m_root.addEventListener('toggle', () => {
      if ((this.m_root as HTMLDetailsElement).open) this.load(this.m_host.viewedFen());
    });
    for (const input of [this.m_turn, this.m_ep, ...Object.values(this.m_castling)]) input.addEventListener('change', () => this.update());
    byTestId('editor-start').addEventListener('click', () => this.load(`${kStartPlacement} w KQkq - 0 1`));
    byTestId('editor-clear').addEventListener('click', () => this.load(`${kEmptyPlacement} w - - 0 1`));
    byTestId('editor-fen-load').addEventListener('click', () => this.load(this.m_fen.value));
    byTestId('editor-play').addEventListener('click', () => this.finish((fen) => this.m_host.play(fen)));
    byTestId('editor-analyse').addEventListener('click', () => this.finish((fen) => this.m_host.analyse(fen)));
    this.update();
  }

  /** Puts a FEN's pieces, side, castling and en passant into the editor (what it can read of them). */
  load(fen: string): void {
    const [placement = '', turn = 'w', castling = '-', ep = '-'] = fen.trim().split(/\s+/);
    this.m_api.set({ fen: placement || kEmptyPlacement });
    this.m_turn.value = turn === 'b' ? 'black' : 'white';
    for (const right of ['K', 'Q', 'k', 'q'] as const) this.m_castling[right].checked = castling.includes(right);
    this.m_ep.value = ep === '-' ? '' : ep;
    this.update();
  }

  private buildPalette(): void {
    const palette = byTestId('editor-palette');
    for (const color of ['white', 'black'] as Color[])
      for (const role of kRoles) {
        const name = `${color} ${role}`;
        const button = el('button', { type: 'button', class: 'editor-piece', 'data-testid': 'editor-piece', 'data-piece': `${color[0]}${role === 'knight' ? 'n' : role[0]}`, 'aria-label': `Drag a ${name} onto the board`, title: `Drag a ${name} onto the board` });
        const piece = document.createElement('piece');
        piece.className = name;
        button.appendChild(piece);
        const start = (event: MouseEvent | TouchEvent): void => {
          event.preventDefault();
          this.m_api.state.dom.bounds.clear();
          this.m_api.dragNewPiece({ color, role }, event, true);
        };
        button.addEventListener('mousedown', start);
        button.addEventListener('touchstart', start, { passive: false });
        palette.appendChild(button);
      }
  }

  private current(): SetupResult {
    const castling = { K: this.m_castling.K.checked, Q: this.m_castling.Q.checked, k: this.m_castling.k.checked, q: this.m_castling.q.checked };
    return setupToFen({ placement: this.m_api.getFen(), turn: this.m_turn.value === 'black' ? 'black' : 'white', castling, ep: this.m_ep.value || '-' });
  }

  /** The FEN box and the message say what the position is, or what to fix. */
  private update(): void {
    const result = this.current();
    this.m_error.textContent = result.error ? `Not a playable position: ${result.error}.` : '';
    this.m_root.dataset.valid = String(!result.error);
    if (result.fen && document.activeElement !== this.m_fen) this.m_fen.value = result.fen;
    for (const id of ['editor-play', 'editor-analyse']) byTestId<HTMLButtonElement>(id).setAttribute('aria-disabled', String(Boolean(result.error)));
  }

  private finish(action: (fen: string) => void): void {
    const result = this.current();
    if (result.fen === undefined) {
      this.m_error.textContent = `Not a playable position: ${result.error}.`;
      return;
    }
    action(result.fen);
  }
}

// SPDX-License-Identifier: GPL-3.0-or-later
// TablebasePanel: in analysis, for a position with few enough pieces and no castling rights, the
// Syzygy tablebases' result and every legal move's result and DTZ, as lichess's tablebase panel
// shows them (Engine.tablebase, docs/tablebases.md); a click plays the move. The in-browser
// engine has no tables: the panel says they need the server.
//
// Like the heat map it reads the page through the DOM: the board's data-fen, the layout's
// data-mode and the engine status's data-engine and data-state; main.ts constructs it.

import type { Engine, TablebaseAnswer, TablebaseMove } from './engine/engine';

export interface TablebasePanelOptions {
  /** The board container (data-testid=board), whose data-fen BoardView keeps. */
  board: HTMLElement;
  /** The page layout, whose data-mode is 'analysis' or 'play'. */
  layout: HTMLElement;
  /** Where the panel's element goes (it appends itself). */
  host: HTMLElement;
  engine: () => Engine | null;
  engineStatus?: HTMLElement;
  /** Plays a move (UCI) from the viewed position. */
  playMove: (uci: string) => void;
}

/** The most pieces any Syzygy table holds. */
export const kMaxTablebasePieces = 7;

/** Whether a FEN can be in the tables at all: at most 7 pieces and no castling rights. */
export function tablebaseCandidate(fen: string): boolean {
  const [placement = '', , castling = '-'] = fen.trim().split(/\s+/);
  const pieces = placement.replace(/[^a-zA-Z]/g, '').length;
  return pieces >= 2 && pieces <= kMaxTablebasePieces && castling === '-';
}

/** 'Win', 'Cursed win', 'Draw', 'Blessed loss', 'Loss' for a wdl word. */
export function wdlLabel(wdl: string): string {
  return wdl.charAt(0).toUpperCase() + wdl.slice(1);
}

/**
 * A move's line in the panel from the mover's view: the result it keeps and its DTZ (plies to
 * the next capture or pawn move), 'DTZ 12', or '' for a draw or a zeroing move reported as such.
 */
export function describeTablebaseMove(m: TablebaseMove): string {
  const dtz = m.dtz === 0 ? '' : ` · DTZ ${Math.abs(m.dtz)}`;
  return `${wdlLabel(m.wdl)}${dtz}`;
}

/** The panel's heading for the side to move: 'Tablebase: White wins (DTZ 23)'. */
export function describeTablebasePosition(answer: TablebaseAnswer, turn: 'white' | 'black'): string {
  if (!answer.inTables || !answer.wdl) return 'Tablebase: not in the tables';
  const mover = turn === 'white' ? 'White' : 'Black';
  const other = turn === 'white' ? 'Black' : 'White';
  const dtz = answer.dtz ? ` (DTZ ${Math.abs(answer.dtz)})` : '';
  switch (answer.wdl) {
    case 'win':
      return `Tablebase: ${mover} wins${dtz}`;
    case 'loss':
      return `Tablebase: ${other} wins${dtz}`;
    case 'cursed win':
      return `Tablebase: ${mover} wins, but the fifty-move rule draws${dtz}`;
    case 'blessed loss':
      return `Tablebase: ${other} wins, but the fifty-move rule draws${dtz}`;
    default:
      return 'Tablebase: draw';
  }
}

export class TablebasePanel {
  private readonly m_root: HTMLElement;
  private m_fen = '';
  private m_engine: Engine | null = null;
  private m_token = 0;

  constructor(private readonly m_options: TablebasePanelOptions) {
    this.m_root = document.createElement('div');
    this.m_root.className = 'tablebase-panel';
    this.m_root.dataset.testid = 'tablebase-panel';
    this.m_root.setAttribute('aria-live', 'polite');
    this.m_root.hidden = true;
    m_options.host.appendChild(this.m_root);
    const watch = (element: HTMLElement | undefined, attributes: string[], onChange: () => void): void => {
      if (element) new MutationObserver(onChange).observe(element, { attributes: true, attributeFilter: attributes });
    };
    watch(m_options.board, ['data-fen'], () => this.refresh());
    watch(m_options.layout, ['data-mode'], () => this.refresh());
    watch(m_options.engineStatus, ['data-engine', 'data-state'], () => this.refresh(true));
    this.refresh();
  }

  refresh(engineChanged = false): void {
    const fen = this.m_options.board.dataset.fen ?? '';
    const engine = this.m_options.engine();
    if (this.m_options.layout.dataset.mode !== 'analysis' || !tablebaseCandidate(fen)) {
      this.m_token++;
      this.m_fen = '';
      this.m_root.hidden = true;
      this.m_root.dataset.state = 'off';
      return;
    }
    if (fen === this.m_fen && engine === this.m_engine && !engineChanged) return;
    this.m_fen = fen;
    this.m_engine = engine;
    const token = ++this.m_token;
    this.m_root.hidden = false;
    if (!engine || engine.state === 'error') {
      this.show('no-engine', 'Tablebase: no engine');
      return;
    }
    this.m_root.dataset.state = 'loading';
    engine.tablebase(fen).then(
      (answer) => {
        if (token === this.m_token) this.render(answer, fen);
      },
      (error: unknown) => {
        if (token === this.m_token) this.show('error', `Tablebase: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  private show(state: string, text: string): void {
    this.m_root.dataset.state = state;
    const line = document.createElement('p');
    line.className = 'tablebase-note';
    line.textContent = text;
    this.m_root.replaceChildren(line);
  }

  private render(answer: TablebaseAnswer, fen: string): void {
    if (!answer.available) {
      this.show('unavailable', `Tablebase: ${answer.note ?? 'no tables'}`);
      return;
    }
    if (!answer.inTables) {
      this.show('outside', 'Tablebase: not in the tables this server has');
      return;
    }
    const turn = fen.split(/\s+/)[1] === 'b' ? 'black' : 'white';
    this.m_root.dataset.state = 'ready';
    this.m_root.dataset.wdl = answer.wdl ?? '';
    const head = document.createElement('p');
    head.className = 'tablebase-result';
    head.dataset.testid = 'tablebase-result';
    head.textContent = describeTablebasePosition(answer, turn);
    const list = document.createElement('ul');
    list.className = 'tablebase-moves';
    for (const m of answer.moves) {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = `tablebase-move wdl-${m.wdl.replace(' ', '-')}`;
      button.dataset.uci = m.uci;
      button.dataset.wdl = m.wdl;
      button.dataset.dtz = String(m.dtz);
      button.title = `Play ${m.san}`;
      const san = document.createElement('span');
      san.className = 'tablebase-san';
      san.textContent = m.san;
      const result = document.createElement('span');
      result.className = 'tablebase-wdl';
      result.textContent = describeTablebaseMove(m);
      button.append(san, result);
      button.addEventListener('click', () => this.m_options.playMove(m.uci));
      item.appendChild(button);
      list.appendChild(item);
    }
    this.m_root.replaceChildren(head, list);
  }
}

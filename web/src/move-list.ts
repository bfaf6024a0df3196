// SPDX-License-Identifier: GPL-3.0-or-later
// The move list: SAN moves in numbered rows, the move being viewed, review marks, click to navigate.

import type { PlayedMove } from './game';
import { el } from './dom';

export type MarkKind = 'inaccuracy' | 'mistake' | 'blunder';
const kMarkSymbols: Record<MarkKind, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

export class MoveList {
  private m_onSelect: (ply: number) => void = () => {};

  constructor(private readonly m_root: HTMLElement) {
    m_root.addEventListener('click', (event) => {
      const move = (event.target as HTMLElement).closest<HTMLElement>('[data-ply]');
      if (move) this.m_onSelect(Number(move.dataset.ply));
    });
  }

  onSelect(listener: (ply: number) => void): void {
    this.m_onSelect = listener;
  }

  /**
   * Renders every move; `firstPlyIsBlack` when the game started with Black to move, `firstMoveNumber`
   * the full-move number of the first move.
   */
  render(
    moves: readonly PlayedMove[],
    currentPly: number,
    firstMoveNumber: number,
    firstPlyIsBlack: boolean,
    marks: Map<number, MarkKind>,
    result: string | null,
  ): void {
    const root = this.m_root;
    root.replaceChildren();
    if (moves.length === 0) {
      root.appendChild(el('div', { class: 'move-list-empty' }, 'No moves yet'));
    }
    let row: HTMLElement | null = null;
    moves.forEach((move, index) => {
      const ply = index + 1;
      const black = (index % 2 === 1) !== firstPlyIsBlack;
      const number = firstMoveNumber + Math.floor((index + (firstPlyIsBlack ? 1 : 0)) / 2);
      if (!black || row === null) {
        row = el('div', { class: 'move-row', role: 'listitem' });
        row.appendChild(el('span', { class: 'move-number' }, `${number}.`));
        if (black) row.appendChild(el('span', { class: 'move-filler' }, '…'));
        root.appendChild(row);
      }
      const cell = el(
        'button',
        {
          type: 'button',
          class: 'move' + (ply === currentPly ? ' current' : ''),
          'data-testid': 'move',
          'data-ply': String(ply),
          'data-uci': move.uci,
          'aria-label': `${number}${black ? '...' : '.'} ${move.san}`,
        },
        move.san,
      );
      if (ply === currentPly) cell.setAttribute('aria-current', 'step');
      const mark = marks.get(ply);
      if (mark) {
        cell.classList.add(mark);
        cell.appendChild(
          el('span', { class: `review-mark ${mark}`, 'data-testid': 'review-mark', 'data-kind': mark, 'data-symbol': kMarkSymbols[mark], title: mark }),
        );
      }
      row!.appendChild(cell);
    });
    if (result) root.appendChild(el('div', { class: 'move-result' }, result));
    const current = root.querySelector<HTMLElement>('.move.current');
    if (current) {
      const top = current.offsetTop - root.clientHeight / 2;
      root.scrollTop = Math.max(0, top);
    } else if (currentPly === moves.length) root.scrollTop = root.scrollHeight;
  }
}

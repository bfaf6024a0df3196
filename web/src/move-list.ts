// SPDX-License-Identifier: GPL-3.0-or-later
// The move list, lichess-style: the main line in numbered rows; after a main-line move, its
// comments and the variations beside it, each on its own indented line, with deeper variations
// in parentheses; NAG glyphs and review marks on the moves; click a move to view it.

import type { GameModel, MarkKind, MoveNode } from './game';
import { el } from './dom';
import { commentText, kNagNames, nagSymbol } from './pgn';

export type { MarkKind };
const kMarkSymbols: Record<MarkKind, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

export class MoveList {
  private m_onSelect: (node: MoveNode) => void = () => {};
  private m_nodes = new Map<number, MoveNode>();
  private m_current: MoveNode | null = null;
  private m_firstNumber = 1;
  private m_startBlack = false;

  constructor(private readonly m_root: HTMLElement) {
    m_root.addEventListener('click', (event) => {
      const move = (event.target as HTMLElement).closest<HTMLElement>('[data-node]');
      const node = move && this.m_nodes.get(Number(move.dataset.node));
      if (node) this.m_onSelect(node);
    });
  }

  onSelect(listener: (node: MoveNode) => void): void {
    this.m_onSelect = listener;
  }

  /** Renders the whole tree; `current` is the viewed node, `result` is written after the main line. */
  render(game: GameModel, current: MoveNode, result: string | null): void {
    const root = this.m_root;
    root.replaceChildren();
    this.m_nodes.clear();
    this.m_current = current;
    this.m_startBlack = game.turn(0) === 'black';
    this.m_firstNumber = Number(game.startFen.split(' ')[5] ?? '1') || 1;
    const comments = game.root.comments.map(commentText).filter(Boolean);
    if (comments.length) {
      const block = el('div', { class: 'interrupt' });
      for (const text of comments) block.appendChild(el('span', { class: 'comment', 'data-testid': 'move-comment' }, text));
      root.appendChild(block);
    }
    if (game.root.children.length === 0) root.appendChild(el('div', { class: 'move-list-empty' }, 'No moves yet'));

    let row: HTMLElement | null = null;
    let needRow = true;
    for (let parent: MoveNode = game.root; parent.children.length; ) {
      const node = parent.children[0]!;
      const white = this.isWhiteMove(node.ply);
      if (white || needRow || row === null) {
        row = el('div', { class: 'move-row', role: 'listitem' });
        row.appendChild(el('span', { class: 'move-number' }, `${this.moveNumber(node.ply)}.`));
        if (!white) row.appendChild(el('span', { class: 'move-filler' }, '…'));
        root.appendChild(row);
      }
      row.appendChild(this.moveButton(node, true));
      needRow = false;
      const texts = [...node.startingComments, ...node.comments].map(commentText).filter(Boolean);
      const variations = parent.children.slice(1);
      if (texts.length || variations.length) {
        if (white) row.appendChild(el('span', { class: 'move-filler' }));
        const block = el('div', { class: 'interrupt' });
        for (const text of texts) block.appendChild(el('span', { class: 'comment', 'data-testid': 'move-comment' }, text));
        for (const variation of variations) {
          const line = el('div', { class: 'variation', 'data-testid': 'variation' });
          this.renderInline(variation, line);
          block.appendChild(line);
        }
        root.appendChild(block);
        needRow = true;
      }
      parent = node;
    }
    if (result) root.appendChild(el('div', { class: 'move-result', 'data-testid': 'move-result' }, result));
    const shown = root.querySelector<HTMLElement>('.move.current');
    if (shown) {
      const top = shown.offsetTop - root.clientHeight / 2;
      root.scrollTop = Math.max(0, top);
    } else if (current.ply === 0) root.scrollTop = 0;
  }

  /** A variation from `start` on, inline: numbers where needed, comments, nested variations in parentheses. */
  private renderInline(start: MoveNode, into: HTMLElement): void {
    let forceNumber = true;
    for (let node: MoveNode | undefined = start; node; node = node.children[0]) {
      for (const text of node.startingComments.map(commentText).filter(Boolean)) {
        into.appendChild(el('span', { class: 'comment', 'data-testid': 'move-comment' }, text));
        forceNumber = true;
      }
      const white = this.isWhiteMove(node.ply);
      if (white || forceNumber) into.appendChild(el('span', { class: 'inline-number' }, `${this.moveNumber(node.ply)}${white ? '.' : '...'}`));
      into.appendChild(this.moveButton(node, false));
      forceNumber = false;
      for (const text of node.comments.map(commentText).filter(Boolean)) {
        into.appendChild(el('span', { class: 'comment', 'data-testid': 'move-comment' }, text));
        forceNumber = true;
      }
      if (node !== start && node.parent) {
        for (const nested of node.parent.children.slice(1)) {
          const group = el('span', { class: 'nested-variation', 'data-testid': 'variation' });
          this.renderInline(nested, group);
          into.appendChild(group);
          forceNumber = true;
        }
      }
    }
  }

  private moveButton(node: MoveNode, mainline: boolean): HTMLElement {
    const move = node.move!;
    const white = this.isWhiteMove(node.ply);
    const current = node === this.m_current;
    const number = this.moveNumber(node.ply);
    const glyphNames = node.nags.map((nag) => kNagNames[nag] ?? nagSymbol(nag));
    const cell = el(
      'button',
      {
        type: 'button',
        class: `move${mainline ? '' : ' inline'}${current ? ' current' : ''}`,
        'data-testid': mainline ? 'move' : 'variation-move',
        'data-ply': String(node.ply),
        'data-uci': move.uci,
        'data-node': String(node.id),
        'aria-label': `${number}${white ? '.' : '...'} ${move.san}${glyphNames.length ? `, ${glyphNames.join(', ')}` : ''}${mainline ? '' : ' (variation)'}`,
      },
      move.san,
    );
    this.m_nodes.set(node.id, node);
    if (current) cell.setAttribute('aria-current', 'step');
    for (const nag of node.nags)
      cell.appendChild(el('span', { class: `nag nag-${nag}`, 'data-glyph': nagSymbol(nag), title: kNagNames[nag] ?? `NAG ${nag}` }));
    const mark = node.mark;
    if (mark) {
      cell.classList.add(mark);
      cell.appendChild(
        el('span', { class: `review-mark ${mark}`, 'data-testid': 'review-mark', 'data-kind': mark, 'data-symbol': kMarkSymbols[mark], title: mark }),
      );
    }
    return cell;
  }

  private isWhiteMove(ply: number): boolean {
    return (ply - 1 + (this.m_startBlack ? 1 : 0)) % 2 === 0;
  }

  private moveNumber(ply: number): number {
    return this.m_firstNumber + Math.floor((ply - 1 + (this.m_startBlack ? 1 : 0)) / 2);
  }
}

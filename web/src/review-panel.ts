// SPDX-License-Identifier: GPL-3.0-or-later
// ReviewPanel: what a review teaches, under the eval graph: each side's accuracy and counts (a
// count jumps to that side's next such move), the previous/next mistake buttons (keys P and N),
// and for a marked move on the board the engine's better move and line, which "Show line" adds to
// the tree as a variation.

import type { Color } from 'chessops/types';
import { byTestId, el } from './dom';
import { parseMoveIn, type GameModel, type MarkKind, type MoveNode } from './game';
import { pvToSan } from './pv';
import type { ReviewResult, ReviewSummary } from './review';
import { formatScore, whiteWinChance } from './score';

export interface ReviewPanelHost {
  game(): GameModel;
  /** The move on the board (the root for the start position). */
  viewed(): MoveNode;
  /** Views `node` (its line becomes the viewed one). */
  goTo(node: MoveNode): void;
  /** Whether the tree may get a variation now (no review running). */
  editable(): boolean;
}

const kMarkWords: Record<MarkKind, string> = { inaccuracy: 'an inaccuracy', mistake: 'a mistake', blunder: 'a blunder' };
const kMarkSymbols: Record<MarkKind, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** "12." or "12..." before the move of `node`. */
function moveNumber(game: GameModel, node: MoveNode): string {
  const position = game.positionOf(node.parent ?? node);
  return `${position.fullmoves}${position.turn === 'white' ? '.' : '...'}`;
}

export class ReviewPanel {
  private readonly m_summary = byTestId('review-summary');
  private readonly m_advice = byTestId('review-advice');
  private readonly m_nav = document.querySelector<HTMLElement>('.review-nav')!;
  private readonly m_prev = byTestId<HTMLButtonElement>('review-prev-mistake');
  private readonly m_next = byTestId<HTMLButtonElement>('review-next-mistake');
  /** The line the last review was about (its marks are what the buttons walk). */
  private m_line: MoveNode[] | null = null;

  constructor(private readonly m_host: ReviewPanelHost) {
    this.m_prev.addEventListener('click', () => this.step(-1));
    this.m_next.addEventListener('click', () => this.step(1));
  }

  /** A new game on the board: nothing reviewed yet. */
  reset(): void {
    this.m_line = null;
    this.m_summary.replaceChildren();
    delete this.m_summary.dataset.state;
  }

  running(done: number, total: number): void {
    this.m_summary.dataset.state = 'running';
    this.m_summary.textContent = total ? `Reviewing… ${done}/${total}` : 'Reviewing…';
  }

  stopped(): void {
    this.m_summary.dataset.state = 'stopped';
    this.m_summary.textContent = 'Review stopped';
  }

  /** Puts a finished review on the tree (scores, marks, better lines) and shows its summary. */
  show(result: ReviewResult, thresholds: string): void {
    result.line.forEach((node, ply) => {
      node.eval = result.scores[ply];
      node.mark = result.marks.get(ply);
      const better = result.best[ply - 1];
      // The better move is the engine's best in the position before the move, when it differs.
      node.better = node.mark && better?.length && better[0] !== node.move?.uci ? [...better] : undefined;
    });
    this.m_line = result.line;
    this.showSummary(result.summary, thresholds);
  }

  /** Shows a review's accuracy and counts (a finished one, or one kept with the game). */
  showSummary(counts: ReviewSummary, thresholds: string): void {
    const summary = this.m_summary;
    summary.dataset.state = 'done';
    summary.replaceChildren();
    summary.title = thresholds;
    for (const color of ['white', 'black'] as const) {
      const s = counts[color];
      const row = el('div', { class: `review-side ${color}`, 'data-color': color });
      row.appendChild(el('strong', {}, color === 'white' ? 'White' : 'Black'));
      const accuracy = s.accuracy === null ? '–' : `${Math.round(s.accuracy)}%`;
      row.appendChild(
        el('span', { class: 'accuracy', 'data-testid': 'review-accuracy', 'data-color': color, 'data-value': s.accuracy === null ? '' : s.accuracy.toFixed(1) }, `${accuracy} accuracy`),
      );
      const words: Record<MarkKind, [string, string]> = { inaccuracy: ['inaccuracy', 'inaccuracies'], mistake: ['mistake', 'mistakes'], blunder: ['blunder', 'blunders'] };
      for (const kind of ['inaccuracy', 'mistake', 'blunder'] as const) {
        const count = s[kind];
        const button = el(
          'button',
          { type: 'button', class: `count ${kind}`, 'data-kind': kind, 'data-color': color, title: `Go to ${color === 'white' ? "White's" : "Black's"} next ${words[kind][0]}` },
          `${count} ${words[kind][count === 1 ? 0 : 1]}`,
        );
        button.disabled = count === 0;
        button.addEventListener('click', () => this.step(1, { color, kind }));
        row.appendChild(button);
      }
      summary.appendChild(row);
    }
  }

  /** Goes to the next (1) or previous (-1) marked move, of one side and kind if given; false when none. */
  step(direction: 1 | -1, only?: { color: Color; kind: MarkKind }): boolean {
    const game = this.m_host.game();
    const viewed = this.m_host.viewed();
    const moverOf = (node: MoveNode): Color => game.positionOf(node.parent ?? node).turn;
    const marked = this.markedLine().filter((node) => node.mark && (!only || (node.mark === only.kind && moverOf(node) === only.color)));
    // Wrapping round the game when a side and kind are asked for (the counts), not otherwise.
    let target = direction > 0 ? marked.find((n) => n.ply > viewed.ply) : [...marked].reverse().find((n) => n.ply < viewed.ply);
    if (!target && only) target = marked[0];
    if (!target) return false;
    this.m_host.goTo(target);
    return true;
  }

  /** The marks the buttons walk: the reviewed line while it is in the tree, else the viewed line or the main line. */
  private markedLine(): MoveNode[] {
    const game = this.m_host.game();
    const line = this.m_line;
    const inTree = (node: MoveNode): boolean => !node.parent || node.parent.children.includes(node);
    if (line && line[0] === game.root && line.every(inTree)) return line;
    const viewed = [...game.line];
    return viewed.some((node) => node.mark) ? viewed : game.mainline();
  }

  render(): void {
    const viewed = this.m_host.viewed();
    const line = this.markedLine();
    const marked = line.filter((node) => node.mark);
    this.m_nav.hidden = marked.length === 0;
    this.m_prev.disabled = !marked.some((n) => n.ply < viewed.ply);
    this.m_next.disabled = !marked.some((n) => n.ply > viewed.ply);
    this.renderAdvice(viewed);
  }

  /** The viewed move's verdict, and the engine's better move and line. */
  private renderAdvice(node: MoveNode): void {
    const box = this.m_advice;
    const mark = node.mark;
    box.replaceChildren();
    box.hidden = !mark || !node.move || !node.parent;
    if (!mark || !node.move || !node.parent) {
      delete box.dataset.kind;
      return;
    }
    const game = this.m_host.game();
    box.dataset.kind = mark;
    const played = `${moveNumber(game, node)} ${node.move.san}${kMarkSymbols[mark]}`;
    const head = el('p', { class: 'review-verdict' });
    head.appendChild(el('strong', { class: `verdict ${mark}` }, played));
    const before = node.parent.eval;
    const after = node.eval;
    let drop = '';
    if (before && after) {
      const lost = Math.abs(whiteWinChance(before) - whiteWinChance(after));
      drop = ` (the winning chance fell by ${Math.round(lost)} points)`;
    }
    head.appendChild(document.createTextNode(` is ${kMarkWords[mark]}${drop}.`));
    box.appendChild(head);
    const better = node.better;
    if (!better?.length) return;
    const line = pvToSan(game.positionOf(node.parent), better, better.length);
    if (!line.sanMoves.length) return;
    const best = el('p', { class: 'review-better' });
    best.appendChild(document.createTextNode('Better was '));
    best.appendChild(el('strong', { 'data-testid': 'review-best-move', 'data-uci': better[0]! }, `${moveNumber(game, node)} ${line.sanMoves[0]}`));
    if (before) best.appendChild(document.createTextNode(` (${formatScore(before)})`));
    box.appendChild(best);
    box.appendChild(el('p', { class: 'review-best-line', 'data-testid': 'review-best-line' }, line.text));
    const show = el('button', { type: 'button', class: 'button small', 'data-testid': 'review-play-best', title: 'Add this line to the moves as a variation and go to it' }, 'Show line');
    show.disabled = !this.m_host.editable();
    show.addEventListener('click', () => this.addBetterLine(node));
    box.appendChild(show);
  }

  /** Adds `node`'s better line beside it as a variation (or follows the moves already there) and views its first move. */
  private addBetterLine(node: MoveNode): void {
    if (!node.parent || !node.better || !this.m_host.editable()) return;
    const game = this.m_host.game();
    let at: MoveNode = node.parent;
    let first: MoveNode | null = null;
    for (const uci of node.better) {
      const move = parseMoveIn(game.positionOf(at), uci);
      if (!move) break;
      at = game.addMove(at, move);
      first ??= at;
    }
    if (first) this.m_host.goTo(first);
  }
}

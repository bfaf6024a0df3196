// SPDX-License-Identifier: GPL-3.0-or-later
// AnalysisController: the engine's infinite MultiPV search on the viewed position, shown as the eval
// bar, SAN lines and the best-move arrow.

import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import type { Chess } from 'chessops/chess';
import { el } from './dom';
import type { Engine, SearchHandle, SearchInfo } from './engine/engine';
import type { MoveNode } from './game';
import { pvToSan } from './pv';
import { formatScore, scoreAttribute, toWhiteScore, whiteWinChance, type WhiteScore } from './score';

export interface AnalysisHost {
  engine(): Engine | null;
  setArrows(shapes: DrawShape[]): void;
  /** Every multipv-1 line: for the dashboard and the eval graph (the node analysed). */
  onInfo(info: SearchInfo, node: MoveNode, score: WhiteScore): void;
  /** The user clicked a line: play its first move. */
  playMove(uci: string): void;
}

export interface AnalysisTarget {
  /** What the engine gets: a FEN and the UCI moves since (GameModel.enginePosition). */
  fen: string;
  moves: string[];
  node: MoveNode;
  position: Chess;
  multipv: number;
}

export class AnalysisController {
  private m_handle: SearchHandle | null = null;
  private m_token = 0;
  private m_lines = new Map<number, SearchInfo>();

  constructor(
    private readonly m_host: AnalysisHost,
    private readonly m_evalBar: HTMLElement,
    private readonly m_lineList: HTMLElement,
    private readonly m_depthLabel: HTMLElement,
  ) {}

  get running(): boolean {
    return this.m_handle !== null;
  }

  start(target: AnalysisTarget): void {
    this.stop();
    const token = ++this.m_token;
    this.m_lines.clear();
    this.m_depthLabel.textContent = '';
    this.renderLines(target.position);
    const engine = this.m_host.engine();
    const position = target.position;
    if (!engine || engine.state === 'error') return;
    if (position.isEnd()) {
      const mated = position.isCheckmate();
      const whiteMated = position.turn === 'white';
      if (mated) this.showEval(whiteMated ? '-M0' : 'M0', whiteMated ? '0-1' : '1-0', whiteMated ? 0 : 100);
      else this.showEval('0', '½-½', 50);
      return;
    }
    const handle = engine.search({
      fen: target.fen,
      moves: target.moves,
      limits: { multipv: target.multipv },
      onInfo: (info) => {
        if (token !== this.m_token) return;
        this.m_lines.set(info.multipv, info);
        const white = toWhiteScore(info.score, position.turn);
        if (info.multipv === 1) {
          this.m_depthLabel.textContent = `depth ${info.depth}`;
          this.showEval(scoreAttribute(white), formatScore(white, 1), whiteWinChance(white));
          this.m_host.onInfo(info, target.node, white);
        }
        this.renderLines(position);
      },
    });
    this.m_handle = handle;
    handle.result
      .then((result) => {
        // The search ended by itself (a depth or time cap of the engine or server): say so.
        if (token === this.m_token && !result.stopped && this.m_depthLabel.textContent)
          this.m_depthLabel.textContent += ' · done';
      })
      .catch(() => undefined)
      .finally(() => {
        if (token === this.m_token) this.m_handle = null;
      });
  }

  stop(): void {
    this.m_token++;
    this.m_handle?.stop();
    this.m_handle = null;
    this.m_host.setArrows([]);
  }

  /** Empties the lines and puts the bar back in the middle. */
  reset(): void {
    this.stop();
    this.m_lines.clear();
    this.m_lineList.replaceChildren();
    this.showEval('0', '0.00', 50);
    delete this.m_evalBar.dataset.score;
  }

  private showEval(scoreText: string, text: string, whiteChance: number): void {
    const bar = this.m_evalBar;
    bar.dataset.score = scoreText;
    bar.style.setProperty('--white-share', `${whiteChance.toFixed(1)}%`);
    const label = bar.querySelector('.eval-label');
    if (label) label.textContent = text;
    bar.setAttribute('aria-valuenow', whiteChance.toFixed(0));
    bar.setAttribute('aria-valuetext', `Evaluation ${text}`);
    bar.classList.toggle('black-better', whiteChance < 50);
  }

  private renderLines(position: Chess): void {
    const list = this.m_lineList;
    list.replaceChildren();
    const shapes: DrawShape[] = [];
    const ordered = [...this.m_lines.values()].sort((a, b) => a.multipv - b.multipv);
    for (const info of ordered) {
      const white = toWhiteScore(info.score, position.turn);
      const line = pvToSan(position, info.pv, 16);
      const row = el('button', {
        type: 'button',
        class: 'pv-line',
        'data-testid': 'pv-line',
        'data-multipv': String(info.multipv),
        title: 'Play the first move of this line',
      });
      row.appendChild(el('span', { class: 'pv-score' + (whiteWinChance(white) < 50 ? ' black' : '') }, formatScore(white)));
      row.appendChild(document.createTextNode(' '));
      row.appendChild(el('span', { class: 'pv-moves' }, line.text));
      const first = info.pv[0];
      if (first) row.addEventListener('click', () => this.m_host.playMove(first));
      list.appendChild(row);
      if (first)
        shapes.push({
          orig: first.slice(0, 2) as Key,
          dest: first.slice(2, 4) as Key,
          brush: info.multipv === 1 ? 'paleBlue' : 'paleGrey',
          modifiers: info.multipv === 1 ? undefined : { lineWidth: 6 },
        });
    }
    // Arrows for the top lines; the best one drawn last so it lies on top.
    this.m_host.setArrows(shapes.slice(0, 3).reverse());
    if (ordered.length === 0) list.appendChild(el('div', { class: 'pv-empty' }, 'Waiting for the engine…'));
  }
}

// SPDX-License-Identifier: GPL-3.0-or-later
// AnalysisController: the engine's infinite MultiPV search on the viewed position, shown as the eval
// bar, SAN lines (one complete depth at a time, analysis-lines.ts), the best-move arrows and a live
// status row (depth, nodes, speed, hash, current move, time) updated by the engine's progress
// reports; Stop, and Go deeper to search the same position again once a search has ended (by the
// user, at the engine's cap, or by itself).

import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import { normalizeMove, type Chess } from 'chessops/chess';
import { makeSan } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { AnalysisLines } from './analysis-lines';
import { formatCount } from './dashboard';
import { el } from './dom';
import type { Engine, SearchHandle, SearchInfo, SearchProgress, SearchResult } from './engine/engine';
import type { MoveNode } from './game';
import { pvToSan } from './pv';
import { formatScore, scoreAttribute, toWhiteScore, whiteWinChance, type WhiteScore } from './score';

export interface AnalysisHost {
  engine(): Engine | null;
  setArrows(shapes: DrawShape[]): void;
  /** A search starts (the dashboard's counters start again). */
  searchStarted(): void;
  /** Every multipv-1 line as it comes, for the dashboard. */
  onInfo(info: SearchInfo): void;
  /** Every progress report, for the dashboard. */
  onProgress(progress: SearchProgress): void;
  /** The best line shown changed: the node's score (eval graph). */
  onEval(node: MoveNode, score: WhiteScore): void;
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

/** The elements the controller writes. */
export interface AnalysisElements {
  evalBar: HTMLElement;
  lineList: HTMLElement;
  depthLabel: HTMLElement;
  /** The live status row: its text, and data-* attributes for tests. */
  status: HTMLElement;
  /** Why the search is not running (or that it runs until stopped). */
  note: HTMLElement;
  stopButton: HTMLButtonElement;
  deeperButton: HTMLButtonElement;
}

/**
 * `running`: searching; `stopped`: the user stopped it; `capped`: it reached the engine's cap;
 * `yielded`: the server stopped an unlimited analysis past its cap for another search waiting for
 * its threads; `done`: it ended by itself before any cap (a forced mate, the deepest depth);
 * `idle`: no search (no engine, a finished game, another mode).
 */
export type AnalysisState = 'idle' | 'running' | 'stopped' | 'capped' | 'yielded' | 'done';

/** Ended by itself this close to its cap (a share of it): the cap ended it. */
const kCapShare = 0.9;

export class AnalysisController {
  private m_handle: SearchHandle | null = null;
  private m_token = 0;
  private m_target: AnalysisTarget | null = null;
  private m_lines = new AnalysisLines(1);
  private m_state: AnalysisState = 'idle';
  /** The latest of the search's progress reports and lines (by time). */
  private m_progress: SearchProgress | null = null;
  private m_progressUpdates = 0;
  private m_legalMoves = 0;
  /** When the search was asked for (performance.now()), for the cap check. */
  private m_startedAt = 0;
  /** The cap of the search that ended (ms), or null. */
  private m_endedCapMs: number | null = null;

  constructor(
    private readonly m_host: AnalysisHost,
    private readonly m_el: AnalysisElements,
  ) {
    m_el.stopButton.addEventListener('click', () => this.stopByUser());
    m_el.deeperButton.addEventListener('click', () => this.goDeeper());
    // No engine yet (the host's may not even exist while the page is wired up).
    m_el.stopButton.hidden = true;
    m_el.deeperButton.hidden = true;
  }

  get running(): boolean {
    return this.m_handle !== null;
  }
  get state(): AnalysisState {
    return this.m_state;
  }

  /** Analyses `target` from scratch (another position, another MultiPV): the lines start empty. */
  start(target: AnalysisTarget): void {
    this.stop();
    this.m_target = target;
    this.m_legalMoves = countLegalMoves(target.position);
    this.m_lines.reset(Math.min(target.multipv, this.m_legalMoves));
    this.setDepthLabel('');
    this.renderLines();
    const position = target.position;
    if (position.isEnd()) {
      const mated = position.isCheckmate();
      const whiteMated = position.turn === 'white';
      if (mated) this.showEval(whiteMated ? '-M0' : 'M0', whiteMated ? '0-1' : '1-0', whiteMated ? 0 : 100);
      else this.showEval('0', '½-½', 50);
      return;
    }
    this.run(target);
  }

  /**
   * Searches the viewed position again after its search ended: the hash still holds what was
   * found, so the new search soon passes the depth shown, which stays on screen until then.
   */
  goDeeper(): void {
    const target = this.m_target;
    if (!target || this.m_handle || target.position.isEnd()) return;
    this.m_lines.restart();
    this.run(target);
  }

  /** The Stop button: ends the search and offers Go deeper. */
  stopByUser(): void {
    if (!this.m_handle) return;
    // The result handler (same token) sees `stopped` and shows the state.
    this.m_handle.stop();
  }

  /** Ends the search for the page (another position, mode or engine follows): no state is shown. */
  stop(): void {
    this.cancel();
    this.m_host.setArrows([]);
    this.setState('idle');
  }

  /** Forgets the running search: its lines and result are ignored from now on. */
  private cancel(): void {
    this.m_token++;
    this.m_handle?.stop();
    this.m_handle = null;
  }

  /** Empties the lines and puts the bar back in the middle. */
  reset(): void {
    this.stop();
    this.m_target = null;
    this.m_lines.reset(1);
    this.m_el.lineList.replaceChildren();
    this.setDepthLabel('');
    this.showEval('0', '0.00', 50);
    delete this.m_el.evalBar.dataset.score;
  }

  private run(target: AnalysisTarget): void {
    this.cancel();
    const engine = this.m_host.engine();
    if (!engine || engine.state === 'error') {
      this.setState('idle');
      return;
    }
    const token = ++this.m_token;
    this.m_progress = null;
    this.m_progressUpdates = 0;
    this.m_startedAt = performance.now();
    this.m_host.searchStarted();
    const handle = engine.search({
      fen: target.fen,
      moves: target.moves,
      limits: { multipv: target.multipv },
      onInfo: (info) => {
        if (token !== this.m_token) return;
        if (info.multipv === 1) this.m_host.onInfo(info);
        this.takeProgress(info);
        if (this.m_lines.add(info)) this.showLines(target);
      },
      onProgress: (progress) => {
        if (token !== this.m_token) return;
        this.m_host.onProgress(progress);
        this.takeProgress(progress);
      },
    });
    this.m_handle = handle;
    this.setState('running');
    handle.result
      .then((result) => {
        if (token === this.m_token) this.ended(target, result);
      })
      .catch(() => {
        if (token === this.m_token) this.setState('idle');
      })
      .finally(() => {
        if (token === this.m_token) this.m_handle = null;
        this.renderControls();
      });
  }

  /** The search ended: a partial last depth joins the lines, and the state says why it ended. */
  private ended(target: AnalysisTarget, result: SearchResult): void {
    this.m_handle = null;
    if (this.m_lines.finish()) this.showLines(target);
    if (result.stopped) {
      this.setState('stopped');
      return;
    }
    // A lost connection or a failed worker ended it: the analysis starts again when the engine is back.
    const engineState = this.m_host.engine()?.state;
    if (engineState === 'reconnecting' || engineState === 'error') {
      this.setState('idle');
      return;
    }
    if (result.yielded) {
      this.setState('yielded');
      return;
    }
    const cap = result.maxTimeMs ?? null;
    const elapsed = performance.now() - this.m_startedAt;
    this.m_endedCapMs = cap;
    this.setState(cap !== null && elapsed >= cap * kCapShare ? 'capped' : 'done');
  }

  /** Progress and lines alike move the status row on, never back (a line may be older than a report). */
  private takeProgress(progress: SearchProgress): void {
    const latest = this.m_progress;
    if (latest && progress.time < latest.time) return;
    const currmove = progress.currmove ?? (latest && progress.depth === latest.depth ? latest.currmove : undefined);
    const currmovenumber = progress.currmove ? progress.currmovenumber : currmove ? latest?.currmovenumber : undefined;
    this.m_progress = {
      depth: progress.depth,
      seldepth: progress.seldepth,
      nodes: progress.nodes,
      nps: progress.nps,
      hashfull: progress.hashfull,
      time: progress.time,
      currmove,
      currmovenumber,
    };
    this.m_progressUpdates++;
    this.renderStatus();
  }

  private setState(state: AnalysisState): void {
    this.m_state = state;
    this.renderControls();
  }

  private setDepthLabel(text: string): void {
    this.m_el.depthLabel.textContent = text;
  }

  /** The status row: `depth 23/31 · 12.3M nodes · 1,503 kN/s · hash 37% · 3/20 e4 · 12.4 s`. */
  private renderStatus(): void {
    const status = this.m_el.status;
    const p = this.m_progress;
    if (!p) {
      status.textContent = '';
      for (const name of ['depth', 'seldepth', 'nodes', 'nps', 'hashfull', 'time', 'currmove']) delete status.dataset[name];
      status.dataset.updates = '0';
      return;
    }
    const parts = [`depth ${p.depth}/${p.seldepth}`, `${formatCount(p.nodes)} nodes`, `${Math.round(p.nps / 1000).toLocaleString('en-US')} kN/s`];
    parts.push(`hash ${Math.round(p.hashfull / 10)}%`);
    const san = p.currmove && this.m_target ? sanOf(this.m_target.position, p.currmove) : null;
    if (san) parts.push(p.currmovenumber ? `${p.currmovenumber}/${this.m_legalMoves} ${san}` : san);
    parts.push(formatElapsed(p.time));
    // Each part stays whole; a narrow panel wraps between them.
    status.replaceChildren();
    parts.forEach((part, index) => {
      if (index > 0) status.append(' · ');
      status.append(el('span', {}, part));
    });
    status.title = 'Depth/selective depth, nodes searched, speed in thousands of nodes a second, hash table in use, the move being searched, time';
    Object.assign(status.dataset, {
      depth: String(p.depth),
      seldepth: String(p.seldepth),
      nodes: String(p.nodes),
      nps: String(p.nps),
      hashfull: String(p.hashfull),
      time: String(p.time),
      currmove: p.currmove ?? '',
      updates: String(this.m_progressUpdates),
    });
  }

  /**
   * The engine's state changed (it booted, reconnected): its limits may have too. The in-browser
   * engine learns whether it is the threaded build (no cap) or the single-threaded one (a 60 s
   * cap) only once booted, so a note written while it booted must be written again.
   */
  engineChanged(): void {
    this.renderControls();
  }

  /** The note and the Stop / Go deeper buttons for the state. */
  private renderControls(): void {
    const { note, stopButton, deeperButton, status } = this.m_el;
    const state = this.m_state;
    status.dataset.state = state;
    const engine = state === 'idle' ? null : this.m_host.engine();
    const limits = engine?.analysisLimits;
    const capSeconds = (ms: number | null | undefined): string => (ms ? `${Math.round(ms / 1000)} s` : '');
    const whose = engine?.kind === 'server' ? "the server's" : "the in-browser engine's";
    let text = '';
    if (state === 'running')
      text = limits && !limits.unlimited && limits.maxThinkMs ? `Stops at ${whose} ${capSeconds(limits.maxThinkMs)} cap` : 'Runs until you stop it';
    else if (state === 'stopped') text = `Stopped at depth ${this.m_lines.shownDepth}`;
    else if (state === 'capped') text = `Stopped at ${whose} ${capSeconds(this.m_endedCapMs)} cap`;
    else if (state === 'yielded') text = `Paused at depth ${this.m_lines.shownDepth}: another search on the server needed its threads`;
    else if (state === 'done') text = `Search finished at depth ${this.m_lines.shownDepth}`;
    note.textContent = text;
    stopButton.hidden = state !== 'running';
    deeperButton.hidden = state === 'running' || state === 'idle';
    if (state === 'idle') {
      this.m_progress = null;
      this.renderStatus();
    }
  }

  private showEval(scoreText: string, text: string, whiteChance: number): void {
    const bar = this.m_el.evalBar;
    bar.dataset.score = scoreText;
    bar.style.setProperty('--white-share', `${whiteChance.toFixed(1)}%`);
    const label = bar.querySelector('.eval-label');
    if (label) label.textContent = text;
    bar.setAttribute('aria-valuenow', whiteChance.toFixed(0));
    bar.setAttribute('aria-valuetext', `Evaluation ${text}`);
    bar.classList.toggle('black-better', whiteChance < 50);
  }

  /** The lines shown changed: lines, depth, eval bar, arrows, the node's score. */
  private showLines(target: AnalysisTarget): void {
    const best = this.m_lines.shown[0];
    if (best) {
      const white = toWhiteScore(best.score, target.position.turn);
      this.showEval(scoreAttribute(white), formatScore(white, 1), whiteWinChance(white));
      this.m_host.onEval(target.node, white);
    }
    const depths = this.m_lines.shown.map((line) => line.depth);
    const low = Math.min(...depths);
    const high = Math.max(...depths);
    this.setDepthLabel(depths.length === 0 ? '' : low === high ? `depth ${high}` : `depth ${low}–${high}`);
    this.renderLines();
  }

  private renderLines(): void {
    const list = this.m_el.lineList;
    list.replaceChildren();
    const target = this.m_target;
    const shapes: DrawShape[] = [];
    const lines = this.m_lines.shown;
    if (target) {
      const position = target.position;
      lines.forEach((info, index) => {
        const rank = index + 1;
        const white = toWhiteScore(info.score, position.turn);
        const line = pvToSan(position, info.pv, 16);
        const first = info.pv[0]!;
        const row = el('button', {
          type: 'button',
          class: 'pv-line',
          'data-testid': 'pv-line',
          'data-multipv': String(rank),
          'data-depth': String(info.depth),
          'data-uci': first,
          'data-score': scoreAttribute(white),
          'data-bound': info.score.bound,
          title: 'Play the first move of this line',
        });
        const bound = boundSign(info, position.turn);
        const score = el('span', { class: 'pv-score' + (whiteWinChance(white) < 50 ? ' black' : '') }, bound + formatScore(white));
        if (bound) score.title = `Depth ${info.depth} not finished for this move: ${bound === '≥' ? 'at least' : 'at most'} this score (White's view)`;
        row.appendChild(score);
        row.appendChild(document.createTextNode(' '));
        row.appendChild(el('span', { class: 'pv-moves' }, line.text));
        row.addEventListener('click', () => this.m_host.playMove(first));
        list.appendChild(row);
        shapes.push({
          orig: first.slice(0, 2) as Key,
          dest: first.slice(2, 4) as Key,
          brush: rank === 1 ? 'paleBlue' : 'paleGrey',
          modifiers: rank === 1 ? undefined : { lineWidth: 6 },
        });
      });
    }
    // Arrows for the top lines; the best one drawn last so it lies on top.
    this.m_host.setArrows(shapes.slice(0, 3).reverse());
    if (lines.length === 0) list.appendChild(el('div', { class: 'pv-empty' }, 'Waiting for the engine…'));
  }
}

/** `≥` / `≤` before a score that is a bound, from White's view (the engine's is the mover's). */
function boundSign(info: SearchInfo, turn: 'white' | 'black'): string {
  if (info.score.bound === 'exact') return '';
  const atLeastForMover = info.score.bound === 'lower';
  return atLeastForMover === (turn === 'white') ? '≥' : '≤';
}

/** Legal moves as a UCI engine numbers them (a promotion is four moves), for `3/20`. */
function countLegalMoves(position: Chess): number {
  let count = 0;
  for (const [from, dests] of position.allDests()) {
    const pawn = position.board.get(from)?.role === 'pawn';
    for (const to of dests) count += pawn && (to < 8 || to >= 56) ? 4 : 1;
  }
  return count;
}

function sanOf(position: Chess, uci: string): string | null {
  const move = parseUci(uci);
  return move ? makeSan(position, normalizeMove(position, move)) : null;
}

/** 12.4 s under a minute, then 1:05, 12:30. */
function formatElapsed(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

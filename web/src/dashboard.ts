// SPDX-License-Identifier: GPL-3.0-or-later
// The engine dashboard: depth, nodes, speed, hash, time, WDL and PV of the running search, the TT
// fill over time and a small board with the position the PV leads to. Concealed (nothing of the
// search shown) while the player plays Axon, unless they ask to see it.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import type { Chess } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import { byTestId } from './dom';
import type { SearchInfo, SearchProgress } from './engine/engine';
import { HashGraph } from './graphs';
import { pvToSan } from './pv';
import { formatScore, toWhiteScore } from './score';

/** Compact counts for narrow cells: 812, 45.3k, 579k, 1.01M, 2.30G. */
export function formatCount(value: number): string {
  if (value >= 1e9) return `${(value / 1e9).toFixed(2)}G`;
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)}M`;
  if (value >= 1e5) return `${(value / 1e3).toFixed(0)}k`;
  if (value >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  return String(value);
}

export class Dashboard {
  private m_root: Chess | null = null;
  private m_pvBoard: Api;
  private m_hashGraph: HashGraph;
  private m_fields: Record<string, HTMLElement>;
  private m_concealed = false;
  /** The latest line since clear(), shown again when the search is revealed. */
  private m_latest: SearchInfo | null = null;
  /** The search time of the counters shown: a line held back by the server's throttle is older than the progress shown. */
  private m_countersTime = -1;

  constructor(private readonly m_element: HTMLElement) {
    const root = m_element;
    const ids = ['depth', 'seldepth', 'nodes', 'nps', 'hashfull', 'time', 'wdl', 'pv', 'score'];
    this.m_fields = Object.fromEntries(ids.map((id) => [id, byTestId(`dash-${id}`, root)]));
    this.m_hashGraph = new HashGraph(byTestId('dash-hash-graph', root) as unknown as SVGSVGElement);
    this.m_pvBoard = Chessground(byTestId('dash-pv-board', root), {
      viewOnly: true,
      coordinates: false,
      animation: { enabled: false },
      drawable: { enabled: false, visible: true },
    });
    this.clear();
  }

  /** The position the next info lines are about. */
  setRoot(position: Chess): void {
    this.m_root = position.clone();
  }

  /** Hides the search (its values are not even written) or shows it again, with its latest line. */
  setConcealed(concealed: boolean): void {
    if (concealed === this.m_concealed) return;
    this.m_concealed = concealed;
    this.m_element.dataset.concealed = String(concealed);
    byTestId('dash-concealed', this.m_element).hidden = !concealed;
    const latest = this.m_latest;
    this.clear();
    if (!concealed && latest) this.update(latest);
  }

  clear(): void {
    this.m_latest = null;
    this.m_countersTime = -1;
    for (const [name, field] of Object.entries(this.m_fields)) field.textContent = name === 'pv' ? '' : '–';
    if (this.m_root) this.m_pvBoard.set({ fen: makeFen(this.m_root.toSetup()), lastMove: undefined });
  }

  setOrientation(color: 'white' | 'black'): void {
    this.m_pvBoard.set({ orientation: color });
  }

  private writeCounters(p: SearchProgress): void {
    if (p.time < this.m_countersTime) return;
    this.m_countersTime = p.time;
    const f = this.m_fields;
    f.depth!.textContent = String(p.depth);
    f.seldepth!.textContent = String(p.seldepth);
    f.nodes!.textContent = formatCount(p.nodes);
    f.nps!.textContent = `${formatCount(p.nps)}/s`;
    f.hashfull!.textContent = `${(p.hashfull / 10).toFixed(1)} %`;
    f.time!.textContent = `${(p.time / 1000).toFixed(1)} s`;
  }

  resetHashGraph(): void {
    this.m_hashGraph.clear();
  }

  /** Another search of the same position starts (Go deeper): its counters start again from 0. */
  newSearch(): void {
    this.m_countersTime = -1;
  }

  /** The counters between lines (depth, nodes, speed, hash, time); the score and line stay. */
  progress(progress: SearchProgress): void {
    if (this.m_concealed || !this.m_root) return;
    this.writeCounters(progress);
  }

  update(info: SearchInfo): void {
    if (info.multipv !== 1 || !this.m_root) return;
    this.m_latest = info;
    if (this.m_concealed) return;
    const f = this.m_fields;
    this.writeCounters(info);
    f.score!.textContent = formatScore(toWhiteScore(info.score, this.m_root.turn));
    if (info.wdl) {
      // The engine reports the side to move's chances; shown from White's side like the score.
      const [win, draw, loss] = info.wdl;
      const [white, black] = this.m_root.turn === 'white' ? [win, loss] : [loss, win];
      const percent = (permille: number): string => `${(permille / 10).toFixed(1)}%`;
      f.wdl!.textContent = `White ${percent(white)} · Draw ${percent(draw)} · Black ${percent(black)}`;
    } else f.wdl!.textContent = '–';
    f.wdl!.title = 'Win / draw / loss chances from the engine\'s WDL model';
    const pv = pvToSan(this.m_root, info.pv, 40);
    f.pv!.textContent = pv.text;
    this.m_hashGraph.add(info.hashfull);
    const last = info.pv.length ? info.pv[Math.min(info.pv.length, pv.sanMoves.length) - 1] : undefined;
    this.m_pvBoard.set({
      fen: makeFen(pv.final.toSetup()),
      lastMove: last ? ([last.slice(0, 2), last.slice(2, 4)] as Key[]) : undefined,
    });
  }
}

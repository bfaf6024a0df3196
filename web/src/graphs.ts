// SPDX-License-Identifier: GPL-3.0-or-later
// Small SVG graphs: the evaluation over the game (click to jump to a move) and the TT fill over time.

import { svgEl } from './dom';
import { whiteWinChance, type WhiteScore } from './score';

const kEvalWidth = 600;
const kEvalHeight = 120;

export class EvalGraph {
  private m_onSelect: (ply: number) => void = () => {};
  private m_plyCount = 0;

  constructor(private readonly m_svg: SVGSVGElement) {
    m_svg.setAttribute('viewBox', `0 0 ${kEvalWidth} ${kEvalHeight}`);
    m_svg.setAttribute('preserveAspectRatio', 'none');
    m_svg.addEventListener('click', (event) => {
      if (this.m_plyCount === 0) return;
      const box = m_svg.getBoundingClientRect();
      const fraction = (event.clientX - box.left) / box.width;
      this.m_onSelect(Math.round(fraction * this.m_plyCount));
    });
  }

  onSelect(listener: (ply: number) => void): void {
    this.m_onSelect = listener;
  }

  /** scores[ply] is the evaluation after `ply` moves (0 = start), undefined where unknown. */
  render(scores: (WhiteScore | undefined)[], currentPly: number, marks: Map<number, string>): void {
    const svg = this.m_svg;
    svg.replaceChildren();
    const plies = Math.max(1, scores.length - 1);
    this.m_plyCount = scores.length - 1;
    const x = (ply: number): number => (ply / plies) * kEvalWidth;
    const y = (score: WhiteScore): number => ((100 - whiteWinChance(score)) / 100) * kEvalHeight;
    svg.appendChild(svgEl('rect', { class: 'graph-bg', x: 0, y: 0, width: kEvalWidth, height: kEvalHeight }));
    const points: string[] = [];
    let lastY = kEvalHeight / 2;
    scores.forEach((score, ply) => {
      if (score) lastY = y(score);
      points.push(`${x(ply).toFixed(1)},${lastY.toFixed(1)}`);
    });
    if (scores.some(Boolean)) {
      svg.appendChild(
        svgEl('polygon', { class: 'graph-white', points: `0,${kEvalHeight} ${points.join(' ')} ${kEvalWidth},${kEvalHeight}` }),
      );
      svg.appendChild(svgEl('polyline', { class: 'graph-line', points: points.join(' ') }));
    }
    svg.appendChild(svgEl('line', { class: 'graph-mid', x1: 0, y1: kEvalHeight / 2, x2: kEvalWidth, y2: kEvalHeight / 2 }));
    for (const [ply, kind] of marks) {
      const score = scores[ply];
      if (!score) continue;
      svg.appendChild(svgEl('circle', { class: `graph-mark ${kind}`, cx: x(ply), cy: y(score), r: 4 }));
    }
    svg.appendChild(svgEl('line', { class: 'graph-cursor', x1: x(currentPly), y1: 0, x2: x(currentPly), y2: kEvalHeight }));
  }
}

const kHashWidth = 240;
const kHashHeight = 60;
const kHashSamples = 200;

/** TT fill (hashfull, per mille) sampled from info lines, across searches. */
export class HashGraph {
  private m_samples: number[] = [];

  constructor(private readonly m_svg: SVGSVGElement) {
    m_svg.setAttribute('viewBox', `0 0 ${kHashWidth} ${kHashHeight}`);
    m_svg.setAttribute('preserveAspectRatio', 'none');
    this.render();
  }

  add(hashfull: number): void {
    this.m_samples.push(Math.max(0, Math.min(1000, hashfull)));
    if (this.m_samples.length > kHashSamples) this.m_samples.shift();
    this.render();
  }

  clear(): void {
    this.m_samples = [];
    this.render();
  }

  private render(): void {
    const svg = this.m_svg;
    svg.replaceChildren();
    svg.appendChild(svgEl('rect', { class: 'graph-bg', x: 0, y: 0, width: kHashWidth, height: kHashHeight }));
    for (const level of [250, 500, 750])
      svg.appendChild(
        svgEl('line', { class: 'graph-grid', x1: 0, x2: kHashWidth, y1: kHashHeight * (1 - level / 1000), y2: kHashHeight * (1 - level / 1000) }),
      );
    const samples = this.m_samples;
    svg.dataset.samples = String(samples.length);
    if (samples.length < 2) return;
    const step = kHashWidth / (kHashSamples - 1);
    const points = samples.map((value, i) => `${(i * step).toFixed(1)},${(kHashHeight * (1 - value / 1000)).toFixed(1)}`);
    const lastX = ((samples.length - 1) * step).toFixed(1);
    svg.appendChild(svgEl('polygon', { class: 'graph-fill', points: `0,${kHashHeight} ${points.join(' ')} ${lastX},${kHashHeight}` }));
    svg.appendChild(svgEl('polyline', { class: 'graph-line', points: points.join(' ') }));
  }
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Parsing of UCI `info` and `bestmove` lines into the engine-neutral types.

import type { SearchInfo } from './engine';

const kNumericFields = new Set(['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'hashfull', 'time']);

/** Parses `info ...`; returns null for info lines without a score and pv (currmove, string). */
export function parseInfoLine(line: string): SearchInfo | null {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'info') return null;
  const info: SearchInfo = {
    depth: 0,
    seldepth: 0,
    multipv: 1,
    score: { bound: 'exact' },
    nodes: 0,
    nps: 0,
    hashfull: 0,
    time: 0,
    pv: [],
  };
  let hasScore = false;
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === 'string') return null;
    if (kNumericFields.has(token)) {
      const value = Number(tokens[++i]);
      (info as unknown as Record<string, number>)[token] = Number.isFinite(value) ? value : 0;
    } else if (token === 'score') {
      const kind = tokens[++i];
      const value = Number(tokens[++i]);
      if (kind === 'cp') info.score.cp = value;
      else if (kind === 'mate') info.score.mate = value;
      hasScore = true;
      const next = tokens[i + 1];
      if (next === 'lowerbound' || next === 'upperbound') {
        info.score.bound = next === 'lowerbound' ? 'lower' : 'upper';
        i++;
      }
    } else if (token === 'wdl') {
      info.wdl = [Number(tokens[i + 1]), Number(tokens[i + 2]), Number(tokens[i + 3])];
      i += 3;
    } else if (token === 'pv') {
      info.pv = tokens.slice(i + 1);
      break;
    }
  }
  return hasScore && info.pv.length > 0 ? info : null;
}

/** Parses `bestmove X [ponder Y]`; `(none)` and `0000` become null. */
export function parseBestMove(line: string): { bestmove: string | null; ponder: string | null } | null {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'bestmove') return null;
  const clean = (m: string | undefined): string | null =>
    !m || m === '(none)' || m === '0000' ? null : m;
  const ponderAt = tokens.indexOf('ponder');
  return { bestmove: clean(tokens[1]), ponder: ponderAt > 0 ? clean(tokens[ponderAt + 1]) : null };
}

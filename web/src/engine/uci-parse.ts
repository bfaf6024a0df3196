// SPDX-License-Identifier: GPL-3.0-or-later
// Parsing of UCI `info` (lines and progress), `bestmove`, `option` and `info string pieces` lines
// into the engine-neutral types.

import type { PieceContribution, PieceEval, SearchInfo, SearchProgress, SpinOption } from './engine';

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

/**
 * Parses a progress line: an `info` with `nodes` but no `pv` (and no `string`), as `Progress
 * Interval` prints it (`info depth 12 seldepth 18 nodes 123456 nps 1500000 hashfull 37 time 850
 * currmove e2e4 currmovenumber 3`). Null for complete lines, `string` lines and the bare
 * `info depth D currmove M currmovenumber N` lines, which carry no counts.
 */
export function parseProgressLine(line: string): SearchProgress | null {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'info') return null;
  const progress: SearchProgress = { depth: 0, seldepth: 0, nodes: 0, nps: 0, hashfull: 0, time: 0 };
  let hasNodes = false;
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === 'string' || token === 'pv') return null;
    if (token === 'currmove') progress.currmove = tokens[++i];
    else if (token === 'currmovenumber') progress.currmovenumber = Number(tokens[++i]);
    else if (kNumericFields.has(token)) {
      const value = Number(tokens[++i]);
      if (token === 'nodes') hasNodes = Number.isFinite(value);
      if (token !== 'multipv') (progress as unknown as Record<string, number>)[token] = Number.isFinite(value) ? value : 0;
    } else if (token === 'score') i += 2;
    else if (token === 'wdl') i += 3;
  }
  return hasNodes ? progress : null;
}

/**
 * Parses `option name <name> type spin default D min A max B` (names may hold spaces, as
 * `Progress Interval` does). Null for other lines and other option types.
 */
export function parseSpinOption(line: string): { name: string; option: SpinOption } | null {
  const match = /^option name (.+?) type spin default (-?\d+) min (-?\d+) max (-?\d+)\s*$/.exec(line.trim());
  if (!match) return null;
  return { name: match[1]!, option: { value: Number(match[2]), min: Number(match[3]), max: Number(match[4]) } };
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

/**
 * Parses the answer to `eval pieces`: `info string pieces base <cp> (<square> <piece> <cp>)*`,
 * White's point of view (docs/eval-pieces.md). Null for any other line or a malformed one.
 */
export function parsePiecesLine(line: string): PieceEval | null {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'info' || tokens[1] !== 'string' || tokens[2] !== 'pieces' || tokens[3] !== 'base') return null;
  const integer = (text: string | undefined): number | null => (text !== undefined && /^-?\d+$/.test(text) ? Number(text) : null);
  const base = integer(tokens[4]);
  if (base === null || (tokens.length - 5) % 3 !== 0) return null;
  const pieces: PieceContribution[] = [];
  for (let i = 5; i < tokens.length; i += 3) {
    const square = tokens[i]!;
    const piece = tokens[i + 1]!;
    const cp = integer(tokens[i + 2]);
    if (!/^[a-h][1-8]$/.test(square) || !/^[PNBRQpnbrq]$/.test(piece) || cp === null) return null;
    pieces.push({ square, piece, cp });
  }
  return { base, pieces };
}

/**
 * The pieces of a FEN's board other than the kings, a1 to h8, as `eval pieces` lists them:
 * `square piece` pairs joined by spaces ('a1 R b1 N ...'). An answer whose pieces differ was not
 * about this FEN (the engine refused the position and kept its previous one).
 */
export function fenPieceList(fen: string): string {
  const ranks = (fen.trim().split(/\s+/)[0] ?? '').split('/');
  const out: string[] = [];
  for (let rank = 1; rank <= 8; rank++) {
    const row = ranks[8 - rank] ?? '';
    let file = 0;
    for (const c of row) {
      if (/\d/.test(c)) file += Number(c);
      else {
        if (c !== 'K' && c !== 'k') out.push(`${String.fromCharCode(97 + file)}${rank} ${c}`);
        file++;
      }
    }
  }
  return out.join(' ');
}

export function pieceEvalList(answer: PieceEval): string {
  return answer.pieces.map((p) => `${p.square} ${p.piece}`).join(' ');
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Sharing: PGN out and in, links that reproduce a position (#fen= / #pgn=), board images as SVG and PNG.

import type { Chess } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import { parsePgn, startingPosition } from 'chessops/pgn';
import type { Color } from 'chessops/types';
import { INITIAL_FEN, type GameModel, type GameOutcome } from './game';

export interface PgnHeaders {
  white: string;
  black: string;
  timeControl?: string;
}

/** The game as PGN, with the FEN header when it did not start from the initial position. */
export function gameToPgn(game: GameModel, outcome: GameOutcome | null, headers: PgnHeaders): string {
  const now = new Date();
  const date = `${now.getFullYear()}.${String(now.getMonth() + 1).padStart(2, '0')}.${String(now.getDate()).padStart(2, '0')}`;
  const result = outcome?.result ?? '*';
  const tags: [string, string][] = [
    ['Event', 'Axon game'],
    ['Site', typeof location !== 'undefined' && location.origin.startsWith('http') ? location.origin : 'Axon'],
    ['Date', date],
    ['White', headers.white],
    ['Black', headers.black],
    ['Result', result],
  ];
  if (game.startFen !== INITIAL_FEN) tags.push(['SetUp', '1'], ['FEN', game.startFen]);
  if (headers.timeControl) tags.push(['TimeControl', headers.timeControl]);
  if (outcome) tags.push(['Termination', outcome.reason]);
  const startTurn: Color = game.turn(0);
  let number = Number(game.startFen.split(' ')[5] ?? '1') || 1;
  const tokens: string[] = [];
  game.moves.forEach((move, index) => {
    const whiteMove = (index % 2 === 0) === (startTurn === 'white');
    if (whiteMove) tokens.push(`${number}.`);
    else if (index === 0) tokens.push(`${number}...`);
    tokens.push(move.san);
    if (!whiteMove) number++;
  });
  tokens.push(result);
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    if (line.length + token.length + 1 > 79) {
      lines.push(line);
      line = token;
    } else line = line ? `${line} ${token}` : token;
  }
  if (line) lines.push(line);
  return `${tags.map(([k, v]) => `[${k} "${v.replace(/"/g, "'")}"]`).join('\n')}\n\n${lines.join('\n')}\n`;
}

export interface ImportedGame {
  startFen: string;
  sanMoves: string[];
}

/** Reads the first game of a PGN (its mainline). Throws Error with a readable message. */
export function parsePgnGame(text: string): ImportedGame {
  const games = parsePgn(text);
  const game = games[0];
  if (!game) throw new Error('no game found in the PGN');
  const start = startingPosition(game.headers);
  if (start.isErr) throw new Error(`bad FEN header (${start.error.message})`);
  const sanMoves = [...game.moves.mainline()].map((node) => node.san);
  if (sanMoves.length === 0 && !game.headers.has('FEN') && !/\d\s*\./.test(text) && !/\[/.test(text))
    throw new Error('no game found in the PGN');
  return { startFen: makeFen(start.value.toSetup()), sanMoves };
}

/** What the URL hash asks for: `#fen=...` or `#pgn=...` (URL-encoded). */
export function readHash(): { fen?: string; pgn?: string } {
  const hash = location.hash.replace(/^#/, '');
  if (!hash) return {};
  const params = new URLSearchParams(hash);
  const fen = params.get('fen');
  const pgn = params.get('pgn');
  return { fen: fen ?? undefined, pgn: pgn ?? undefined };
}

export function linkToFen(fen: string): string {
  return `${location.origin}${location.pathname}${location.search}#fen=${encodeURIComponent(fen)}`;
}

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API needs a secure context and permission; fall back to a hidden textarea.
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

const kSquare = 64;
const kLight = '#f0d9b5';
const kDark = '#b58863';
const kLastMove = 'rgba(155,199,0,0.41)';
const kRoles = ['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'] as const;
const kRoleLetter: Record<string, string> = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

/** The piece images chessground's CSS carries (data: URLs), read once from the bundled stylesheet. */
let pieceImages: Map<string, string> | null = null;
function pieceImage(color: Color, role: string): string {
  if (!pieceImages) {
    pieceImages = new Map();
    const wrap = document.createElement('div');
    wrap.className = 'cg-wrap';
    wrap.style.cssText = 'position:absolute;left:-9999px;width:64px;height:64px';
    document.body.appendChild(wrap);
    for (const c of ['white', 'black'] as const)
      for (const r of kRoles) {
        const piece = document.createElement('piece');
        piece.className = `${r} ${c}`;
        wrap.appendChild(piece);
        const match = /url\("?(.*?)"?\)$/.exec(getComputedStyle(piece).backgroundImage);
        if (match) pieceImages.set(`${c}-${r}`, match[1]!);
      }
    wrap.remove();
  }
  return pieceImages.get(`${color}-${role}`) ?? '';
}

/** The board as a standalone SVG document (squares, last move, coordinates, cburnett pieces). */
export function boardToSvg(position: Chess, orientation: Color, lastMoveUci: string): string {
  const parts: string[] = [];
  const size = kSquare * 8;
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">`);
  const highlighted = new Set(lastMoveUci ? [lastMoveUci.slice(0, 2), lastMoveUci.slice(2, 4)] : []);
  const board = makeFen(position.toSetup()).split(' ')[0]!.split('/');
  for (let rankIndex = 0; rankIndex < 8; rankIndex++) {
    let file = 0;
    const rank = 7 - rankIndex;
    const squares: (string | null)[] = [];
    for (const ch of board[rankIndex]!) {
      if (/\d/.test(ch)) for (let i = 0; i < Number(ch); i++) squares.push(null);
      else squares.push(ch);
    }
    for (file = 0; file < 8; file++) {
      const column = orientation === 'white' ? file : 7 - file;
      const row = orientation === 'white' ? 7 - rank : rank;
      const x = column * kSquare;
      const y = row * kSquare;
      const name = String.fromCharCode(97 + file) + String(rank + 1);
      parts.push(`<rect x="${x}" y="${y}" width="${kSquare}" height="${kSquare}" fill="${(file + rank) % 2 === 1 ? kLight : kDark}"/>`);
      if (highlighted.has(name)) parts.push(`<rect x="${x}" y="${y}" width="${kSquare}" height="${kSquare}" fill="${kLastMove}"/>`);
      if (row === 7) parts.push(`<text x="${x + kSquare - 4}" y="${y + kSquare - 4}" font-size="11" font-family="sans-serif" text-anchor="end" fill="${(file + rank) % 2 === 1 ? kDark : kLight}">${name[0]}</text>`);
      if (column === 0) parts.push(`<text x="${x + 3}" y="${y + 12}" font-size="11" font-family="sans-serif" fill="${(file + rank) % 2 === 1 ? kDark : kLight}">${name[1]}</text>`);
      const piece = squares[file];
      if (piece) {
        const color: Color = piece === piece.toUpperCase() ? 'white' : 'black';
        const href = pieceImage(color, kRoleLetter[piece.toLowerCase()]!);
        if (href) parts.push(`<image x="${x}" y="${y}" width="${kSquare}" height="${kSquare}" href="${href}" xlink:href="${href}"/>`);
      }
    }
  }
  parts.push('</svg>');
  return parts.join('');
}

/** Renders the SVG to a PNG blob at twice its size (crisp on high-density screens). */
export function svgToPng(svg: string): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = kSquare * 16;
      canvas.height = kSquare * 16;
      const context = canvas.getContext('2d');
      if (!context) return reject(new Error('no canvas'));
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG encoding failed'))), 'image/png');
    };
    image.onerror = () => reject(new Error('could not render the board image'));
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Sharing: links that reproduce a position (#fen= / #pgn=), the clipboard, board images as SVG and PNG.

import type { Chess } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import type { Color } from 'chessops/types';

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

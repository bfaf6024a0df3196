// SPDX-License-Identifier: GPL-3.0-or-later
// A position set up by hand (the board editor) turned into a FEN, or refused with what to fix:
// castling rights whose king or rook is not on its square, an en-passant square no pawn could have
// passed, and everything chessops checks (kings, pawns on the back ranks, the side not to move in
// check), in words. Chess960 start positions by number (0-959) too. Pure: no DOM.

import { positionFromFen } from './game';

export interface PositionSetup {
  /** The FEN's first field (the pieces), as chessground's getFen() writes it. */
  placement: string;
  turn: 'white' | 'black';
  castling: { K: boolean; Q: boolean; k: boolean; q: boolean };
  /** `-` or a square such as `e6`. */
  ep: string;
}

export type SetupResult = { fen: string; error?: undefined } | { fen?: undefined; error: string };

/** The piece letter on each square of a placement (a8..h8 first), `''` where empty; null if unreadable. */
function squaresOf(placement: string): string[] | null {
  const ranks = placement.split('/');
  if (ranks.length !== 8) return null;
  const squares: string[] = [];
  for (const rank of ranks) {
    let count = 0;
    for (const char of rank) {
      if (/[1-8]/.test(char)) {
        for (let i = 0; i < Number(char); i++) squares.push('');
        count += Number(char);
      } else if (/[pnbrqkPNBRQK]/.test(char)) {
        squares.push(char);
        count++;
      } else return null;
    }
    if (count !== 8) return null;
  }
  return squares;
}

/** The piece on a square (`e1`) of `squares` (from squaresOf). */
function pieceAt(squares: string[], square: string): string {
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]);
  return squares[(8 - rank) * 8 + file] ?? '';
}

const kCastlingNeeds: Record<'K' | 'Q' | 'k' | 'q', { king: string; rook: string; words: string }> = {
  K: { king: 'e1', rook: 'h1', words: 'White cannot castle short' },
  Q: { king: 'e1', rook: 'a1', words: 'White cannot castle long' },
  k: { king: 'e8', rook: 'h8', words: 'Black cannot castle short' },
  q: { king: 'e8', rook: 'a8', words: 'Black cannot castle long' },
};

/** The FEN of a set-up position (move counters 0 and 1), or what is wrong with it in words. */
export function setupToFen(setup: PositionSetup): SetupResult {
  const squares = squaresOf(setup.placement);
  if (!squares) return { error: 'the board is not readable' };
  let castling = '';
  for (const right of ['K', 'Q', 'k', 'q'] as const) {
    if (!setup.castling[right]) continue;
    const need = kCastlingNeeds[right];
    const white = right === right.toUpperCase();
    if (pieceAt(squares, need.king) !== (white ? 'K' : 'k') || pieceAt(squares, need.rook) !== (white ? 'R' : 'r'))
      return { error: `${need.words}: the king must stand on ${need.king} and a rook on ${need.rook}` };
    castling += right;
  }
  const ep = setup.ep.trim().toLowerCase() || '-';
  if (ep !== '-') {
    if (!/^[a-h][36]$/.test(ep)) return { error: `the en-passant square must be on the 6th rank (White to move) or the 3rd (Black to move), not ${ep}` };
    const file = ep[0]!;
    const whiteToMove = setup.turn === 'white';
    if ((ep[1] === '6') !== whiteToMove)
      return { error: `en passant on ${ep} is for ${ep[1] === '6' ? 'White' : 'Black'} to play: ${whiteToMove ? 'White' : 'Black'} is to move` };
    const pawnSquare = `${file}${whiteToMove ? 5 : 4}`;
    const fromSquare = `${file}${whiteToMove ? 7 : 2}`;
    const pawn = whiteToMove ? 'p' : 'P';
    if (pieceAt(squares, pawnSquare) !== pawn || pieceAt(squares, ep) !== '' || pieceAt(squares, fromSquare) !== '')
      return {
        error: `en passant on ${ep} needs a ${whiteToMove ? 'black' : 'white'} pawn on ${pawnSquare} that has just come from ${fromSquare} (${ep} and ${fromSquare} empty)`,
      };
  }
  const fen = `${setup.placement} ${setup.turn === 'white' ? 'w' : 'b'} ${castling || '-'} ${ep} 0 1`;
  try {
    positionFromFen(fen);
  } catch (error) {
    return { error: (error as Error).message.replace(/^not a legal position \((.*)\)$/, '$1') };
  }
  return { fen };
}

/** The knights' two squares among the five left, for each value 0..9 of the Chess960 numbering. */
const kKnightPlaces: readonly [number, number][] = [
  [0, 1],
  [0, 2],
  [0, 3],
  [0, 4],
  [1, 2],
  [1, 3],
  [1, 4],
  [2, 3],
  [2, 4],
  [3, 4],
];

/**
 * The start FEN of Chess960 position `n` (0-959) in the standard (Scharnagl) numbering, where 518
 * is the usual start position; castling as `KQkq` (X-FEN: the rooks are the outermost ones).
 */
export function chess960Fen(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 959) throw new Error('a Chess960 start position is a number from 0 to 959');
  const back: string[] = Array(8).fill('');
  let rest = n;
  back[2 * (rest % 4) + 1] = 'B'; // the light-squared bishop: b, d, f or h
  rest = Math.floor(rest / 4);
  back[2 * (rest % 4)] = 'B'; // the dark-squared one: a, c, e or g
  rest = Math.floor(rest / 4);
  const empty = (): number[] => back.flatMap((piece, file) => (piece ? [] : [file]));
  back[empty()[rest % 6]!] = 'Q';
  rest = Math.floor(rest / 6);
  const [first, second] = kKnightPlaces[rest]!;
  const free = empty();
  back[free[first]!] = 'N';
  back[free[second]!] = 'N';
  // The three squares left: rook, king, rook.
  const [a, b, c] = empty();
  back[a!] = 'R';
  back[b!] = 'K';
  back[c!] = 'R';
  const white = back.join('');
  return `${white.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${white} w KQkq - 0 1`;
}

/** A Chess960 start position number at random (0-959). */
export function randomChess960(random: () => number = Math.random): number {
  return Math.min(959, Math.floor(random() * 960));
}

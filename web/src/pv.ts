// SPDX-License-Identifier: GPL-3.0-or-later
// Principal variations: UCI moves from an engine turned into numbered SAN and the position they reach.

import type { Chess } from 'chessops/chess';
import { normalizeMove } from 'chessops/chess';
import { makeSanAndPlay } from 'chessops/san';
import { parseUci } from 'chessops/util';

export interface PvLine {
  /** "12. Nf3 Nc6 13. Bb5" or "12... Nc6 13. Bb5". */
  text: string;
  sanMoves: string[];
  /** The position after the moves that were legal (an engine's PV always is). */
  final: Chess;
}

export function pvToSan(start: Chess, uciMoves: readonly string[], maxPlies = 24): PvLine {
  const position = start.clone();
  const parts: string[] = [];
  const sanMoves: string[] = [];
  for (const uci of uciMoves.slice(0, maxPlies)) {
    const parsed = parseUci(uci);
    if (!parsed) break;
    const move = normalizeMove(position, parsed);
    if (!position.isLegal(move)) break;
    const number = position.fullmoves;
    const white = position.turn === 'white';
    const san = makeSanAndPlay(position, move);
    if (white) parts.push(`${number}. ${san}`);
    else parts.push(parts.length === 0 ? `${number}... ${san}` : san);
    sanMoves.push(san);
  }
  return { text: parts.join(' '), sanMoves, final: position };
}

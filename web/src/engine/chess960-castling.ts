// SPDX-License-Identifier: GPL-3.0-or-later
// Whether a position's castling must be written king-takes-rook (e1h1), as UCI_Chess960 does: the
// page writes castling as e1g1 / e1c1 when the king is on the e-file and the rook in the corner
// (game.ts), king-takes-rook otherwise, so a UCI engine must be told UCI_Chess960 for those.

import { parseFen } from 'chessops/fen';
import { SquareSet } from 'chessops/squareSet';

const kCorners = SquareSet.corners();

export function needsChess960Castling(fen: string): boolean {
  const setup = parseFen(fen);
  if (setup.isErr) return false;
  const { board, castlingRights } = setup.value;
  for (const rook of castlingRights) {
    const color = board.getColor(rook);
    if (!color) continue;
    const king = board.kingOf(color);
    const kingHome = color === 'white' ? 4 : 60; // e1, e8
    if (!kCorners.has(rook) || king !== kingHome) return true;
  }
  return false;
}

// SPDX-License-Identifier: GPL-3.0-or-later
// The arrows and circles drawn on the board (right button), kept in the move's PGN comments as
// lichess writes them, `[%cal Ge2e4,Rd1h5]` and `[%csl Gf7]`: so they are saved with the game (the
// session, the library, Export) and drawn again when the move is viewed or the game imported.

import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import { makeComment, parseComment, type CommentShape, type CommentShapeColor } from 'chessops/pgn';
import { makeSquare, parseSquare } from 'chessops/util';

/** chessground's four drawing brushes are the four colours PGN's shapes have. */
const kBrushes: readonly CommentShapeColor[] = ['green', 'red', 'yellow', 'blue'];

/** The shapes of a move's comments, for chessground. */
export function shapesOfComments(comments: readonly string[]): DrawShape[] {
  const shapes: DrawShape[] = [];
  for (const comment of comments)
    for (const shape of parseComment(comment).shapes) {
      // chessops leaves a shape it cannot read as undefined in the list.
      if (!shape) continue;
      const orig = makeSquare(shape.from) as Key;
      const dest = makeSquare(shape.to) as Key;
      shapes.push(orig === dest ? { orig, brush: shape.color } : { orig, dest, brush: shape.color });
    }
  return shapes;
}

/**
 * `comments` with `shapes` in place of the shapes they held: the shapes go into the first comment
 * that had some (or the first comment, or a new one); a comment left with nothing is dropped.
 * Comments without shapes are kept exactly as they were.
 */
export function commentsWithShapes(comments: readonly string[], shapes: readonly DrawShape[]): string[] {
  const wanted: CommentShape[] = [];
  for (const shape of shapes) {
    const from = parseSquare(shape.orig);
    const to = parseSquare(shape.dest ?? shape.orig);
    const color = kBrushes.find((brush) => brush === shape.brush) ?? 'green';
    if (from !== undefined && to !== undefined) wanted.push({ color, from, to });
  }
  const hasShapes = (comment: string): boolean => parseComment(comment).shapes.length > 0;
  let target = comments.findIndex(hasShapes);
  if (target < 0 && comments.length) target = 0;
  const out: string[] = [];
  comments.forEach((comment, index) => {
    if (index !== target && !hasShapes(comment)) {
      out.push(comment);
      return;
    }
    const parsed = parseComment(comment);
    const rewritten = makeComment({ ...parsed, text: parsed.text || undefined, shapes: index === target ? wanted : [] });
    if (rewritten) out.push(rewritten);
  });
  if (target < 0 && wanted.length) out.push(makeComment({ shapes: wanted }));
  return out;
}

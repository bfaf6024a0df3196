// SPDX-License-Identifier: GPL-3.0-or-later
// What an analysis leaves in the PGN: the engine's scores as [%eval] beside the clock and text,
// and the board's arrows and circles as [%cal]/[%csl]; both read back by an import.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commentsWithShapes, shapesOfComments } from '../src/board-shapes';
import { GameModel } from '../src/game';
import { commentEval, commentsWithEval, exportPgn, importPgn } from '../src/pgn';
import { nodeNotes, restoreGame } from '../src/session';

test('an analysed move exports its score as [%eval], beside its clock, and an import reads it back', () => {
  const game = new GameModel();
  game.play('e4');
  game.play('e5');
  game.play('Qh5');
  game.node(1).comments = ['[%clk 0:05:00]'];
  game.node(1).eval = { cp: 31 };
  game.node(2).eval = { cp: -12 };
  game.node(3).eval = { mate: -4 };
  const pgn = exportPgn(game);
  assert.match(pgn, /1\. e4 \{ \[%eval 0\.31\] \[%clk 0:05:00\] \} e5 \{ \[%eval -0\.12\] \} 2\. Qh5 \{ \[%eval #-4\] \}/);
  const back = importPgn(pgn).game;
  assert.deepEqual([1, 2, 3].map((ply) => commentEval(back.node(ply))), [{ cp: 31 }, { cp: -12 }, { mate: -4 }]);
  // Exported again, the text is the same (the score replaces the one the comment had).
  back.node(1).eval = { cp: 31 };
  assert.equal(exportPgn(back), pgn);
});

test('a new score replaces the [%eval] a comment had; a tablebase result is not written', () => {
  assert.deepEqual(commentsWithEval(['good move [%eval 0.50]'], { cp: -20 }), ['good move [%eval -0.20]']);
  assert.deepEqual(commentsWithEval([], { cp: 0 }), ['[%eval 0.00]']);
  assert.deepEqual(commentsWithEval(['x'], { cp: 19990, tb: true }), ['x']);
});

test('arrows and circles go into the comments and come back; text and clock stay', () => {
  const comments = commentsWithShapes(['a plan [%clk 0:01:00]'], [
    { orig: 'e2', dest: 'e4', brush: 'green' },
    { orig: 'f7', brush: 'red' },
  ]);
  assert.deepEqual(comments, ['a plan [%csl Rf7] [%cal Ge2e4] [%clk 0:01:00]']);
  assert.deepEqual(shapesOfComments(comments), [
    { orig: 'f7', brush: 'red' },
    { orig: 'e2', dest: 'e4', brush: 'green' },
  ]);
  // Erased: the comment keeps its text and clock; a comment of shapes alone goes.
  assert.deepEqual(commentsWithShapes(comments, []), ['a plan [%clk 0:01:00]']);
  assert.deepEqual(commentsWithShapes(['[%cal Ba1a8]'], []), []);
  assert.deepEqual(commentsWithShapes([], [{ orig: 'd4', dest: 'd5', brush: 'blue' }]), ['[%cal Bd4d5]']);
  // Unreadable shapes in an imported comment are skipped, not drawn.
  assert.deepEqual(shapesOfComments(['[%cal Gz9a1,Ge2e4]']), []);
  const game = importPgn('1. e4 { [%cal Gd2d4,Ye7e5] [%csl Bd5] } e5 *').game;
  assert.deepEqual(shapesOfComments(game.node(1).comments).map((s) => `${s.brush}:${s.orig}${s.dest ?? ''}`), ['green:d2d4', 'yellow:e7e5', 'blue:d5']);
});

test('review marks, better lines and the summary survive the notes a library entry keeps', () => {
  const game = new GameModel();
  for (const san of ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#']) game.play(san);
  game.node(6).mark = 'blunder';
  game.node(6).eval = { mate: 1 };
  game.node(6).better = ['g7g6'];
  game.review = { white: { inaccuracy: 0, mistake: 0, blunder: 0, accuracy: 97.5 }, black: { inaccuracy: 0, mistake: 0, blunder: 1, accuracy: 40.25 } };
  const restored = restoreGame({ pgn: exportPgn(game), path: [], external: null, notes: nodeNotes(game), review: game.review }).game;
  assert.equal(restored.node(6).mark, 'blunder');
  assert.deepEqual(restored.node(6).better, ['g7g6']);
  assert.deepEqual(restored.review, game.review);
  // A summary that is not one (hostile storage) is dropped, not shown.
  const bad = restoreGame({ pgn: exportPgn(game), path: [], external: null, notes: [{ path: 'x' } as never], review: { white: { blunder: -1 } } as never }).game;
  assert.equal(bad.review, null);
});

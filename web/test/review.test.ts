// SPDX-License-Identifier: GPL-3.0-or-later
// Review: Lichess's accuracy (per move and per game), the marks of a line from its scores, and
// chessops' error codes in words.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IllegalSetup } from 'chessops/chess';
import { InvalidFen } from 'chessops/fen';
import { gameAccuracy, moveAccuracy, winPercent } from '../src/accuracy';
import { describeChessopsError, GameModel } from '../src/game';
import { judgeLine } from '../src/review';
import type { WhiteScore } from '../src/score';

const close = (actual: number | null, expected: number, tolerance: number, what: string): void =>
  assert.ok(actual !== null && Math.abs(actual - expected) <= tolerance, `${what}: ${actual}, expected ${expected} ± ${tolerance}`);

test('win percentage: the logistic curve, the ±1000 cp ceiling, mates at the ceiling', () => {
  assert.equal(winPercent({ cp: 0 }), 50);
  close(winPercent({ cp: 100 }), 59.1, 0.05, '+1.00');
  close(winPercent({ cp: -300 }), 24.89, 0.01, '-3.00');
  assert.equal(winPercent({ cp: 5000 }), winPercent({ cp: 1000 }));
  assert.equal(winPercent({ mate: 3 }), winPercent({ cp: 1000 }));
  assert.equal(winPercent({ mate: -1 }), winPercent({ cp: -1000 }));
  close(winPercent({ mate: 2 }), 97.5, 0.05, 'mate');
});

test('move accuracy: Lichess\'s curve with its uncertainty bonus, 100 for a move that loses nothing', () => {
  assert.equal(moveAccuracy(50, 50), 100);
  assert.equal(moveAccuracy(40, 60), 100);
  // 103.1668 * exp(-0.0435442 * d) - 3.1669 + 1, within 0..100.
  close(moveAccuracy(60, 50), 103.1668100711649 * Math.exp(-0.4354415386753951) - 2.166924740191411, 1e-9, 'a 10-point drop');
  close(moveAccuracy(60, 50), 64.6, 0.1, 'a 10-point drop');
  close(moveAccuracy(70, 50), 41.02, 0.01, 'a 20-point drop');
  assert.equal(moveAccuracy(100, 0), 0);
  assert.ok(moveAccuracy(50.5, 50) <= 100);
});

test('game accuracy: a flawless side scores 100; the weighted and harmonic means of the moves', () => {
  // Four moves, nothing changes: both sides 100.
  const flat = gameAccuracy([55, 55, 55, 55, 55], 'white');
  assert.equal(flat.white, 100);
  assert.equal(flat.black, 100);
  // White throws 30 points on its second move; Black loses nothing.
  const wins = [50, 50, 50, 20, 20, 20];
  const result = gameAccuracy(wins, 'white');
  assert.equal(result.black, 100);
  const blunder = moveAccuracy(50, 20);
  assert.deepEqual(result.moves.map((a) => Math.round(a)), [100, 100, Math.round(blunder), 100, 100]);
  // Window 2 (5 moves / 10, at least 2): weights are the windows' standard deviations (0.5..12).
  // White's moves 1, 3, 5 weigh 0.5, 12 (the swing, capped from 15) and 0.5.
  const weighted = (100 * 0.5 + blunder * 12 + 100 * 0.5) / 13;
  const harmonic = 3 / (1 / 100 + 1 / Math.max(1, blunder) + 1 / 100);
  close(result.white, (weighted + harmonic) / 2, 1e-9, 'White');
  // The same game started by Black: the sides swap.
  const swapped = gameAccuracy(wins.map((w) => 100 - w), 'black');
  close(swapped.black, result.white!, 1e-9, 'Black, when Black moved first');
  assert.deepEqual(gameAccuracy([50], 'white'), { white: null, black: null, moves: [] });
  assert.equal(gameAccuracy([50, 40], 'white').black, null);
});

test('marks and counts of a line from its scores (Lichess thresholds: 5, 10, 15 points)', () => {
  const game = new GameModel();
  for (const move of ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#']) game.play(move);
  const scores: WhiteScore[] = [{ cp: 20 }, { cp: 30 }, { cp: 25 }, { cp: -90 }, { cp: -80 }, { cp: 30 }, { mate: 1 }, { mate: 1 }];
  const movers = game.line.slice(0, -1).map((node) => game.positionOf(node).turn);
  const { marks, summary } = judgeLine(scores, movers);
  // 2. Qh5: +0.25 -> -0.90 costs White about 10.5 points; 3...Nf6?? allows mate.
  assert.equal(marks.get(3), 'mistake');
  assert.equal(marks.get(6), 'blunder');
  assert.deepEqual([...marks.keys()].sort(), [3, 6]);
  assert.deepEqual(summary.white, { inaccuracy: 0, mistake: 1, blunder: 0, accuracy: summary.white.accuracy });
  assert.deepEqual(summary.black, { inaccuracy: 0, mistake: 0, blunder: 1, accuracy: summary.black.accuracy });
  assert.ok(summary.white.accuracy! < 100 && summary.black.accuracy! < summary.white.accuracy!, JSON.stringify(summary));
  // From +0.30, White's winning chance (52.8) falls by 3.7, 6.4, 11.8 and 20.2 points.
  const after = (cp: number) => judgeLine([{ cp: 30 }, { cp }], ['white']).marks.get(1);
  assert.deepEqual([-10, -40, -100, -200].map(after), [undefined, 'inaccuracy', 'mistake', 'blunder']);
  // The same drops for Black, whose chance is White's mirrored.
  assert.equal(judgeLine([{ cp: -30 }, { cp: 100 }], ['black']).marks.get(1), 'mistake');
});

test('every chessops error code reads as words', () => {
  for (const code of [...Object.values(InvalidFen), ...Object.values(IllegalSetup), 'ERR_PGN_BUDGET']) {
    const words = describeChessopsError(code);
    assert.ok(!/ERR_/.test(words) && words.length > 10, `${code}: ${words}`);
  }
  assert.equal(describeChessopsError('something else'), 'something else');
  assert.throws(() => new GameModel('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x'), /more after the move number/);
  assert.throws(() => new GameModel('rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'), /^Error: not a valid FEN \(the board must be 8 ranks/);
  assert.throws(() => new GameModel('8/8/8/8/8/8/8/8 w - - 0 1'), /the board is empty/);
});

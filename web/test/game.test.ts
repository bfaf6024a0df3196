// SPDX-License-Identifier: GPL-3.0-or-later
// GameModel: moves in SAN and UCI, castling notation, takeback, and every rule that ends a game.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GameModel } from '../src/game';

test('plays SAN and UCI, writes UCI with standard castling', () => {
  const game = new GameModel();
  for (const move of ['e4', 'e7e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', '0-0']) assert.ok(game.play(move), move);
  assert.deepEqual(game.movesUci(), ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'f8c5', 'e1g1']);
  assert.equal(game.moves[6]!.san, 'O-O');
  assert.equal(game.turn(), 'black');
  assert.equal(game.play('e1g1'), null, 'illegal move is refused');
  assert.ok(game.play('Nf6'));
  assert.ok(game.play('d3'));
  assert.ok(game.play('e8g8'), 'castling given as king two squares');
  assert.equal(game.moves[9]!.san, 'O-O');
});

test('captures, checks and promotion are recorded', () => {
  const game = new GameModel('7k/P7/8/8/8/8/7r/K7 w - - 0 1');
  const promotion = game.play('a7a8q');
  assert.ok(promotion);
  assert.equal(promotion.san, 'a8=Q+');
  assert.equal(promotion.check, true);
  const open = new GameModel();
  for (const move of ['e4', 'd5']) open.play(move);
  assert.equal(open.play('exd5')?.capture, true);
  assert.equal(open.play('Qxd5')?.capture, true);
  assert.equal(open.play('Nc3')?.capture, false);
});

test('truncate takes moves back and clears an external outcome', () => {
  const game = new GameModel();
  game.play('e4');
  game.play('e5');
  game.end({ result: '1-0', reason: 'Resigned', winner: 'white' });
  assert.equal(game.outcome()?.reason, 'Resigned');
  game.truncate(1);
  assert.equal(game.outcome(), null);
  assert.deepEqual(game.movesUci(), ['e2e4']);
  assert.equal(game.fen(), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
});

test('checkmate', () => {
  const game = new GameModel();
  for (const move of ['f3', 'e5', 'g4', 'Qh4#']) game.play(move);
  assert.deepEqual(game.outcome(), { result: '0-1', reason: 'Checkmate', winner: 'black' });
  assert.equal(game.play('a3'), null, 'no moves after the end');
});

test('stalemate', () => {
  assert.equal(new GameModel('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1').outcome()?.reason, 'Stalemate');
});

test('threefold repetition counts from the last irreversible move', () => {
  const game = new GameModel();
  for (const move of ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1']) game.play(move);
  assert.equal(game.outcome(), null);
  game.play('Ng8');
  assert.deepEqual(game.outcome(), { result: '1/2-1/2', reason: 'Threefold repetition' });
});

test('fifty-move rule and insufficient material', () => {
  const fifty = new GameModel('8/8/8/4k3/8/8/3RK3/8 w - - 99 80');
  assert.equal(fifty.outcome(), null);
  fifty.play('Rd1');
  assert.equal(fifty.outcome()?.reason, 'Fifty-move rule');
  assert.equal(new GameModel('8/8/8/4k3/8/8/3BK3/8 w - - 0 1').outcome()?.reason, 'Insufficient material');
});

test('a bad FEN is refused with a message', () => {
  assert.throws(() => new GameModel('not a fen'), /FEN/);
  assert.throws(() => new GameModel('8/8/8/8/8/8/8/8 w - - 0 1'), /legal/);
});

test('analysis may go on past a draw by repetition, play may not', () => {
  const game = new GameModel();
  for (const move of ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']) game.play(move);
  assert.equal(game.play('e4'), null);
  assert.ok(game.play('e4', true));
  assert.equal(game.outcome(), null);
});

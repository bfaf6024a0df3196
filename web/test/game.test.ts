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

// ---- the move tree ---------------------------------------------------------------------------
const sans = (game: GameModel): string[] => game.moves.map((m) => m.san);

test('a move from an earlier position makes a variation; the main line stays', () => {
  const game = new GameModel();
  for (const move of ['e4', 'e5', 'Nf3', 'Nc6']) game.play(move);
  const c5 = game.playAt(1, 'c5', true);
  assert.ok(c5);
  assert.deepEqual(sans(game), ['e4', 'c5'], 'the viewed line is the variation');
  assert.equal(game.isMainline(c5), false);
  assert.deepEqual(game.mainline().slice(1).map((n) => n.move!.san), ['e4', 'e5', 'Nf3', 'Nc6']);
  assert.deepEqual(game.root.children[0]!.children.map((n) => n.move!.san), ['e5', 'c5']);
  // The same move again follows the existing node instead of adding one.
  const again = game.playAt(1, 'c7c5', true);
  assert.equal(again, c5);
  assert.equal(game.root.children[0]!.children.length, 2);
  // Selecting a main-line node views the main line through it to its end.
  game.select(game.root.children[0]!.children[0]!);
  assert.deepEqual(sans(game), ['e4', 'e5', 'Nf3', 'Nc6']);
  assert.equal(game.onMainline, true);
});

test('promote a variation, make it the main line, delete one', () => {
  const game = new GameModel();
  for (const move of ['e4', 'e5', 'Nf3']) game.play(move);
  const d5 = game.playAt(1, 'd5', true)!; // 1... d5 (beside 1... e5)
  const exd5 = game.playAt(2, 'exd5', true)!;
  game.playAt(2, 'e5', true); // 2. e5 beside 2. exd5 in the d5 line
  const c5 = game.playAt(1, 'c5', true)!;
  assert.deepEqual(game.root.children[0]!.children.map((n) => n.move!.san), ['e5', 'd5', 'c5']);
  assert.equal(game.promote(c5), true);
  assert.deepEqual(game.root.children[0]!.children.map((n) => n.move!.san), ['c5', 'e5', 'd5'], 'one level up is first here');
  assert.equal(game.isMainline(c5), true);
  assert.equal(game.promote(c5), false, 'already the main line');
  // exd5 sits in the second variation of d5's parent and is d5's first child: to main in one step.
  assert.equal(game.promote(exd5, true), true);
  assert.equal(game.isMainline(exd5), true);
  assert.deepEqual(game.mainline().slice(1).map((n) => n.move!.san), ['e4', 'd5', 'exd5']);
  game.select(exd5);
  const parent = game.deleteNode(d5);
  assert.equal(parent, game.root.children[0]);
  assert.deepEqual(sans(game), ['e4', 'c5'], 'deleting the viewed line views its parent and what now follows it');
  assert.deepEqual(game.root.children[0]!.children.map((n) => n.move!.san), ['c5', 'e5']);
  assert.equal([...game.nodes()].length, 5, 'root, e4, c5, e5, Nf3');
});

test('paths name nodes across a reload; takeback removes the moves', () => {
  const game = new GameModel();
  for (const move of ['d4', 'd5', 'c4']) game.play(move);
  const nf6 = game.playAt(1, 'Nf6', true)!;
  const path = game.pathOf(nf6);
  assert.deepEqual(path, [0, 1]);
  assert.equal(game.nodeAtPath(path), nf6);
  assert.equal(game.nodeAtPath([0, 5, 2]), game.root.children[0], 'a path that no longer exists stops where it can');
  game.selectMainline();
  game.truncate(1);
  assert.deepEqual(sans(game), ['d4', 'Nf6'], 'the takeback dropped d5 and c4; the variation took the main line');
});

test('an ending by resignation belongs to its node; analysis may go on past it, play may not', () => {
  const game = new GameModel();
  for (const move of ['e4', 'e5']) game.play(move);
  game.end({ result: '0-1', reason: 'Resigned', winner: 'black' });
  assert.equal(game.outcome()?.reason, 'Resigned');
  assert.equal(game.mainlineOutcome()?.result, '0-1');
  assert.equal(game.play('Nf3'), null);
  game.playAt(1, 'c5', true);
  assert.equal(game.outcome(), null, 'the variation has no ending');
  game.selectMainline();
  assert.equal(game.outcome()?.reason, 'Resigned');
  assert.ok(game.play('Nf3', true), 'analysis goes on');
  assert.equal(game.outcome(), null);
  assert.equal(game.externalOutcome?.outcome.reason, 'Resigned', 'still recorded where it happened');
});

test('castling UCI: standard e1g1; Chess960 king-takes-rook', () => {
  const standard = new GameModel('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  assert.equal(standard.play('O-O')?.uci, 'e1g1');
  assert.equal(standard.play('O-O-O')?.uci, 'e8c8');
  const chess960 = new GameModel('rk5n/8/8/8/8/8/8/RK4RN w GA - 0 1');
  assert.equal(chess960.play('O-O')?.uci, 'b1g1');
});

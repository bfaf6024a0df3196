// SPDX-License-Identifier: GPL-3.0-or-later
// The board editor's FEN and its refusals in words; Chess960 start positions by number.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GameModel, INITIAL_FEN } from '../src/game';
import { chess960Fen, randomChess960, setupToFen, type PositionSetup } from '../src/position-setup';

const kStart = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';
const setup = (over: Partial<PositionSetup>): PositionSetup => ({
  placement: kStart,
  turn: 'white',
  castling: { K: true, Q: true, k: true, q: true },
  ep: '-',
  ...over,
});

test('a set-up position becomes a FEN with its side, castling and en passant', () => {
  assert.deepEqual(setupToFen(setup({})), { fen: INITIAL_FEN });
  assert.deepEqual(setupToFen(setup({ placement: 'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR', turn: 'black', ep: 'e3' })), {
    fen: 'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1',
  });
  assert.deepEqual(setupToFen(setup({ placement: '4k3/8/8/8/8/8/8/4K2R', castling: { K: true, Q: false, k: false, q: false } })), { fen: '4k3/8/8/8/8/8/8/4K2R w K - 0 1' });
});

test('an illegal set-up is refused with what to fix', () => {
  const error = (over: Partial<PositionSetup>): string => setupToFen(setup(over)).error ?? '';
  assert.match(error({ placement: '4k3/8/8/8/8/8/8/4K3' }), /White cannot castle short: the king must stand on e1 and a rook on h1/);
  assert.match(error({ placement: '4k3/8/8/8/8/8/8/R3K2R', castling: { K: true, Q: true, k: true, q: false } }), /Black cannot castle short/);
  assert.match(error({ ep: 'e6' }), /en passant on e6 needs a black pawn on e5/);
  assert.match(error({ ep: 'e3' }), /en passant on e3 is for Black to play: White is to move/);
  assert.match(error({ ep: 'e4' }), /must be on the 6th rank/);
  const none = { K: false, Q: false, k: false, q: false };
  assert.equal(error({ placement: '8/8/8/8/8/8/8/4K3', castling: none }), 'each side needs exactly one king');
  assert.equal(error({ placement: '4k3/8/8/8/8/8/8/4KK2', castling: none }), 'each side needs exactly one king');
  assert.equal(error({ placement: 'P3k3/8/8/8/8/8/8/4K3', castling: none }), 'a pawn stands on the first or last rank');
  // Black, not to move, in check from the rook.
  assert.equal(error({ placement: '4k3/8/8/8/8/8/8/4RK2', castling: none }), 'the side not to move is in check, so its king could be taken');
  assert.equal(error({ placement: 'not a board' }), 'the board is not readable');
});

test('Chess960 positions by number: 518 is the usual start, 0 is BBQNNRKR, all 960 distinct and legal', () => {
  assert.equal(chess960Fen(518), INITIAL_FEN);
  assert.equal(chess960Fen(0).split(' ')[0]!.split('/')[7], 'BBQNNRKR');
  assert.equal(chess960Fen(959).split(' ')[0]!.split('/')[7], 'RKRNNQBB');
  const seen = new Set<string>();
  for (let n = 0; n < 960; n++) {
    const fen = chess960Fen(n);
    const back = fen.split('/')[7]!.split(' ')[0]!;
    assert.equal([...back].sort().join(''), 'BBKNNQRR', `${n}: ${back}`);
    const bishops = [...back].flatMap((p, i) => (p === 'B' ? [i % 2] : []));
    assert.notEqual(bishops[0], bishops[1], `${n}: bishops on squares of one colour`);
    assert.ok(/R.*K.*R/.test(back), `${n}: the king between the rooks`);
    const game = new GameModel(fen);
    assert.equal(game.position().allDests().size > 0, true);
    seen.add(back);
  }
  assert.equal(seen.size, 960);
  assert.throws(() => chess960Fen(960), /0 to 959/);
  assert.equal(randomChess960(() => 0.9999999), 959);
  assert.equal(randomChess960(() => 0), 0);
});

test('the in-browser engine is told UCI_Chess960 exactly where castling is king-takes-rook', async () => {
  const { needsChess960Castling } = await import('../src/engine/chess960-castling');
  assert.equal(needsChess960Castling(INITIAL_FEN), false);
  assert.equal(needsChess960Castling(chess960Fen(518)), false);
  assert.equal(needsChess960Castling(chess960Fen(0)), true, 'BBQNNRKR: king on g1');
  assert.equal(needsChess960Castling('4k3/8/8/8/8/8/8/4K1R1 w G - 0 1'), true, 'a rook off its corner');
  assert.equal(needsChess960Castling('4k3/8/8/8/8/8/8/4K3 w - - 0 1'), false);
});

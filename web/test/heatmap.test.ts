// SPDX-License-Identifier: GPL-3.0-or-later
// The heat map's pieces: the `eval pieces` line, the FEN check that guards the WASM engine's
// answers, colours, hover text and square geometry in both orientations.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fenPieceList, parsePiecesLine, pieceEvalList } from '../src/engine/uci-parse';
import { describeContribution, formatContribution, heatColor, squareAtFraction, squareCell } from '../src/heatmap';

test('eval pieces lines', () => {
  const answer = parsePiecesLine('info string pieces base -35 d2 N 512 b4 b -330');
  assert.deepEqual(answer, {
    base: -35,
    pieces: [
      { square: 'd2', piece: 'N', cp: 512 },
      { square: 'b4', piece: 'b', cp: -330 },
    ],
  });
  assert.deepEqual(parsePiecesLine('info string pieces base 7'), { base: 7, pieces: [] });
  for (const bad of [
    'info string pieces base x',
    'info string pieces base 5 d2 N',
    'info string pieces base 5 d9 N 3',
    'info string pieces base 5 e1 K 3', // kings are never listed
    'info string pieces base 5 d2 N 1.5',
    'info depth 3 score cp 5 pv e2e4',
    'info string error: eval: unknown argument',
  ])
    assert.equal(parsePiecesLine(bad), null, bad);
});

test('the pieces of a FEN, as eval pieces lists them', () => {
  assert.equal(fenPieceList('4k3/8/8/8/1b6/8/3N4/4K3 b - - 0 1'), 'd2 N b4 b');
  const start = fenPieceList('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1').split(' ');
  assert.equal(start.length, 60); // 30 pieces, square and letter each
  assert.deepEqual(start.slice(0, 8), ['a1', 'R', 'b1', 'N', 'c1', 'B', 'd1', 'Q']);
  assert.deepEqual(start.slice(-4), ['g8', 'n', 'h8', 'r']);
  const answer = parsePiecesLine('info string pieces base -35 d2 N 512 b4 b -330')!;
  assert.equal(pieceEvalList(answer), fenPieceList('4k3/8/8/8/1b6/8/3N4/4K3 b - - 0 1'));
  assert.notEqual(pieceEvalList(answer), fenPieceList('4k3/8/8/8/1b6/8/4N3/4K3 b - - 0 1'));
});

test('colours and hover text are signed', () => {
  assert.match(heatColor(300), /^rgba\(32, 112, 235, /);
  assert.match(heatColor(-300), /^rgba\(240, 120, 16, /);
  assert.equal(heatColor(0), 'transparent');
  const alpha = (cp: number): number => Number(/([\d.]+)\)$/.exec(heatColor(cp))![1]);
  assert.ok(alpha(900) > alpha(100));
  assert.equal(alpha(5000), alpha(-5000));
  assert.equal(formatContribution(312), '+312 cp');
  assert.equal(formatContribution(-95), '\u221295 cp');
  assert.equal(formatContribution(0), '0 cp');
  assert.equal(describeContribution({ square: 'f3', piece: 'N', cp: 312 }), 'White knight f3: +312 cp, helps White');
  assert.equal(describeContribution({ square: 'd8', piece: 'q', cp: -950 }), 'Black queen d8: \u2212950 cp, helps Black');
});

test('squares and cells in both orientations', () => {
  assert.deepEqual(squareCell('a1', 'white'), { col: 0, row: 7 });
  assert.deepEqual(squareCell('a1', 'black'), { col: 7, row: 0 });
  assert.deepEqual(squareCell('e4', 'white'), { col: 4, row: 4 });
  assert.equal(squareAtFraction(0.01, 0.99, 'white'), 'a1');
  assert.equal(squareAtFraction(0.01, 0.99, 'black'), 'h8');
  assert.equal(squareAtFraction(0.55, 0.55, 'white'), 'e4');
  assert.equal(squareAtFraction(1, 0.5, 'white'), null);
  assert.equal(squareAtFraction(-0.1, 0.5, 'black'), null);
  for (const orientation of ['white', 'black'] as const)
    for (const square of ['a1', 'h8', 'c6', 'f2']) {
      const { col, row } = squareCell(square, orientation);
      assert.equal(squareAtFraction((col + 0.5) / 8, (row + 0.5) / 8, orientation), square);
    }
});

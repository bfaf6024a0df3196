// SPDX-License-Identifier: GPL-3.0-or-later
// UCI parsing, scores from White's view, win chance, review thresholds, PVs in SAN.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBestMove, parseInfoLine } from '../src/engine/uci-parse';
import { GameModel } from '../src/game';
import { pvToSan } from '../src/pv';
import { classifyDrop, kBlunderDrop, kInaccuracyDrop, kMistakeDrop } from '../src/review';
import { formatScore, scoreAttribute, toWhiteScore, whiteWinChance } from '../src/score';

test('info lines', () => {
  const info = parseInfoLine(
    'info depth 12 seldepth 18 multipv 2 score cp -35 upperbound wdl 100 500 400 nodes 12345 nps 600000 hashfull 17 time 20 pv e7e5 g1f3',
  );
  assert.ok(info);
  assert.equal(info.depth, 12);
  assert.equal(info.multipv, 2);
  assert.deepEqual(info.score, { cp: -35, bound: 'upper' });
  assert.deepEqual(info.wdl, [100, 500, 400]);
  assert.equal(info.hashfull, 17);
  assert.deepEqual(info.pv, ['e7e5', 'g1f3']);
  assert.deepEqual(parseInfoLine('info depth 3 score mate -2 nodes 5 pv a1a2')?.score, { mate: -2, bound: 'exact' });
  assert.equal(parseInfoLine('info string axon-wasm build=st threads=1'), null);
  assert.equal(parseInfoLine('info depth 5 currmove e2e4 currmovenumber 1'), null);
});

test('bestmove lines', () => {
  assert.deepEqual(parseBestMove('bestmove e2e4 ponder e7e5'), { bestmove: 'e2e4', ponder: 'e7e5' });
  assert.deepEqual(parseBestMove('bestmove (none)'), { bestmove: null, ponder: null });
  assert.equal(parseBestMove('readyok'), null);
});

test('scores from White and win chance', () => {
  assert.deepEqual(toWhiteScore({ cp: 50, bound: 'exact' }, 'black'), { cp: -50 });
  assert.deepEqual(toWhiteScore({ mate: 3, bound: 'exact' }, 'black'), { mate: -3 });
  assert.equal(scoreAttribute({ mate: -3 }), '-M3');
  assert.equal(scoreAttribute({ cp: 12 }), '12');
  assert.equal(formatScore({ cp: 135 }), '+1.35');
  assert.equal(whiteWinChance({ cp: 0 }), 50);
  assert.ok(Math.abs(whiteWinChance({ cp: 200 }) + whiteWinChance({ cp: -200 }) - 100) < 1e-9);
  assert.equal(whiteWinChance({ mate: 2 }), 100);
});

test('review thresholds', () => {
  assert.equal(classifyDrop(kInaccuracyDrop - 0.1), null);
  assert.equal(classifyDrop(kInaccuracyDrop), 'inaccuracy');
  assert.equal(classifyDrop(kMistakeDrop), 'mistake');
  assert.equal(classifyDrop(kBlunderDrop), 'blunder');
});

test('PV to SAN with move numbers', () => {
  const game = new GameModel();
  game.play('e4');
  const line = pvToSan(game.position(), ['e7e5', 'g1f3', 'b8c6', 'e1e2']);
  assert.equal(line.text, '1... e5 2. Nf3 Nc6 3. Ke2');
  assert.deepEqual(line.sanMoves, ['e5', 'Nf3', 'Nc6', 'Ke2']);
});

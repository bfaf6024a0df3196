// SPDX-License-Identifier: GPL-3.0-or-later
// The tablebase panel's text and the server reply's parsing.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { toTablebaseAnswer } from '../src/engine/server-engine';
import { formatScore, toWhiteScore, whiteWinChance } from '../src/score';
import { describeTablebaseMove, describeTablebasePosition, tablebaseCandidate } from '../src/tablebase-panel';

test('only positions of at most seven pieces without castling rights are candidates', () => {
  assert.equal(tablebaseCandidate('8/8/8/4k3/8/8/8/K6R w - - 0 1'), true);
  assert.equal(tablebaseCandidate('4k3/8/8/8/8/8/8/4K2R w K - 0 1'), false);
  assert.equal(tablebaseCandidate('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'), false);
  assert.equal(tablebaseCandidate('8/pppp4/8/4k3/8/8/PPPP4/K7 w - - 0 1'), false);
});

test('a server reply becomes an answer; a malformed one reads as not in the tables', () => {
  const answer = toTablebaseAnswer({
    type: 'tablebase',
    available: true,
    inTables: true,
    wdl: 'win',
    dtz: 23,
    moves: [
      { uci: 'h1h5', san: 'Rh5+', wdl: 'win', dtz: 22 },
      { uci: 'a1b1', san: 'Kb1', wdl: 'win', dtz: 24 },
      { uci: 'bad' },
    ],
  });
  assert.equal(answer.inTables, true);
  assert.equal(answer.moves.length, 2);
  assert.equal(describeTablebasePosition(answer, 'white'), 'Tablebase: White wins (DTZ 23)');
  assert.equal(describeTablebasePosition({ ...answer, wdl: 'loss', dtz: -16 }, 'black'), 'Tablebase: White wins (DTZ 16)');
  assert.equal(describeTablebaseMove(answer.moves[0]!), 'Win · DTZ 22');
  assert.equal(describeTablebaseMove({ uci: 'e1e2', san: 'Ke2', wdl: 'draw', dtz: 0 }), 'Draw');
  const none = toTablebaseAnswer({ type: 'tablebase', available: false, inTables: false });
  assert.equal(none.available, false);
  assert.match(none.note ?? '', /--syzygy-path/);
});

test('a tablebase score shows as a result, not as centipawns', () => {
  const win = toWhiteScore({ cp: 19990, tb: true, bound: 'exact' }, 'black');
  assert.equal(formatScore(win), 'TB loss');
  assert.equal(whiteWinChance(win), 0);
  assert.equal(formatScore(toWhiteScore({ cp: 150, bound: 'exact' }, 'white')), '+1.50');
});

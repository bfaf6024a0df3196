// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis panel's line set: one complete depth at a time, sorted best first for the side to
// move (mates, bounds), distinct first moves; a partial depth merged when the search ends; Go
// deeper keeping the lines until the new search passes them. Progress lines and option lines of
// the UCI engine; hello's analysis limits.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnalysisLines, distinctFirstMoves, scoreRank, sortLines } from '../src/analysis-lines';
import { optionRangeError, type Score, type SearchInfo } from '../src/engine/engine';
import { limitsFromHello } from '../src/engine/server-engine';
import { parseInfoLine, parseProgressLine, parseSpinOption } from '../src/engine/uci-parse';
import { hashChoices, threadChoices } from '../src/engine-options';

function line(depth: number, multipv: number, score: Partial<Score>, pv: string[]): SearchInfo {
  return {
    depth,
    seldepth: depth + 4,
    multipv,
    score: { bound: 'exact', ...score },
    nodes: depth * 1000,
    nps: 1_000_000,
    hashfull: 10,
    time: depth * 100,
    pv,
  };
}
const firstMoves = (lines: readonly SearchInfo[]): string[] => lines.map((l) => l.pv[0]!);

test('scores rank mates for the side to move above every centipawn score, mates against it below', () => {
  const ranked = [{ mate: -1 }, { mate: -5 }, { cp: -300 }, { cp: 0 }, { cp: 250 }, { mate: 7 }, { mate: 2 }].map((s) =>
    scoreRank({ bound: 'exact', ...s }),
  );
  assert.deepEqual([...ranked].sort((a, b) => a - b), ranked, 'mated in 1 < mated in 5 < -3.00 < 0 < +2.50 < mate in 7 < mate in 2');
});

test('lines sort best first; equal scores keep the engine order', () => {
  const sorted = sortLines([
    line(10, 1, { cp: 20 }, ['e2e4']),
    line(10, 2, { cp: 35 }, ['d2d4']),
    line(10, 3, { mate: 4 }, ['g1f3']),
    line(10, 4, { cp: 20 }, ['c2c4']),
  ]);
  assert.deepEqual(firstMoves(sorted), ['g1f3', 'd2d4', 'e2e4', 'c2c4']);
});

test('one line per first move: the deeper one, at equal depth the later one', () => {
  const kept = distinctFirstMoves([
    line(10, 1, { cp: 20 }, ['e2e4', 'e7e5']),
    line(11, 2, { cp: 5, bound: 'upper' }, ['e2e4', 'c7c5']),
    line(10, 2, { cp: 10 }, ['d2d4']),
    line(10, 3, { cp: 12 }, ['d2d4', 'd7d5']),
    line(10, 3, { cp: 0 }, []),
  ]);
  assert.deepEqual(
    kept.map((l) => [l.pv[0], l.depth, l.score.cp]),
    [
      ['e2e4', 11, 5],
      ['d2d4', 10, 12],
    ],
  );
});

test('a depth is shown once all its lines arrived; the previous depth stays meanwhile', () => {
  const lines = new AnalysisLines(3);
  assert.equal(lines.add(line(1, 1, { cp: 30 }, ['e2e4'])), false, 'depth 1 is not complete with one line of three');
  assert.equal(lines.add(line(1, 2, { cp: 40 }, ['d2d4'])), false);
  assert.equal(lines.add(line(1, 3, { cp: 10 }, ['g1f3'])), true);
  assert.equal(lines.shownDepth, 1);
  assert.deepEqual(firstMoves(lines.shown), ['d2d4', 'e2e4', 'g1f3'], 'sorted by score even when the engine did not');
  // Depth 2 in progress: a fail-high of line 1 and one exact line are not a depth yet.
  assert.equal(lines.add(line(2, 1, { cp: 60, bound: 'lower' }, ['c2c4'])), false);
  assert.equal(lines.add(line(2, 2, { cp: 20 }, ['e2e4'])), false);
  assert.equal(lines.shownDepth, 1);
  assert.equal(lines.searchedDepth, 2);
  assert.equal(lines.add(line(2, 1, { cp: 50 }, ['c2c4'])), false, 'two exact lines of three');
  assert.equal(lines.add(line(2, 3, { cp: 15 }, ['d2d4'])), true);
  assert.equal(lines.shownDepth, 2);
  assert.deepEqual(firstMoves(lines.shown), ['c2c4', 'e2e4', 'd2d4']);
  assert.ok(lines.complete);
  // A line of an earlier depth (held back by a throttle) changes nothing.
  assert.equal(lines.add(line(1, 1, { cp: 99 }, ['h2h4'])), false);
  assert.deepEqual(firstMoves(lines.shown), ['c2c4', 'e2e4', 'd2d4']);
});

test('never two lines with the same first move, even if a depth reports one twice', () => {
  const lines = new AnalysisLines(2);
  lines.add(line(5, 1, { cp: 30 }, ['e2e4', 'e7e5']));
  lines.add(line(5, 2, { cp: 30 }, ['e2e4', 'c7c5']));
  assert.equal(lines.shownDepth, 5);
  assert.deepEqual(firstMoves(lines.shown), ['e2e4']);
});

test('fewer legal moves than lines asked: the depth is complete with as many lines as moves', () => {
  const lines = new AnalysisLines(1);
  lines.reset(Math.min(5, 1));
  assert.equal(lines.add(line(3, 1, { mate: 2 }, ['h5f7'])), true);
  assert.equal(lines.shown.length, 1);
});

test('mate scores from the side to move: being mated sorts last, the later mate first', () => {
  const lines = new AnalysisLines(3);
  lines.add(line(8, 1, { mate: -3 }, ['a7a6']));
  lines.add(line(8, 2, { mate: -1 }, ['b7b6']));
  lines.add(line(8, 3, { cp: -900 }, ['c7c6']));
  assert.deepEqual(firstMoves(lines.shown), ['c7c6', 'a7a6', 'b7b6']);
});

test('the search ended mid-depth: its lines join the shown ones, each first move once, sorted', () => {
  const lines = new AnalysisLines(2);
  lines.add(line(9, 1, { cp: 40 }, ['e2e4']));
  lines.add(line(9, 2, { cp: 30 }, ['d2d4']));
  lines.add(line(10, 1, { cp: 10, bound: 'upper' }, ['e2e4', 'c7c5']));
  assert.equal(lines.finish(), true);
  assert.equal(lines.complete, false);
  assert.deepEqual(
    lines.shown.map((l) => [l.pv[0], l.depth, l.score.bound]),
    [
      ['d2d4', 9, 'exact'],
      ['e2e4', 10, 'upper'],
    ],
  );
  assert.equal(lines.finish(), false, 'nothing more to merge');
});

test('Go deeper: the lines stay until the new search completes a depth at least as deep', () => {
  const lines = new AnalysisLines(1);
  lines.add(line(20, 1, { cp: 25 }, ['e2e4']));
  lines.restart();
  for (let depth = 1; depth < 20; depth++) assert.equal(lines.add(line(depth, 1, { cp: 0 }, ['a2a3'])), false, `depth ${depth} skipped`);
  assert.equal(lines.shownDepth, 20);
  assert.equal(lines.add(line(21, 1, { cp: 28 }, ['d2d4'])), true);
  assert.equal(lines.shownDepth, 21);
  assert.deepEqual(firstMoves(lines.shown), ['d2d4']);
});

test('progress lines: an info with nodes and no pv; complete lines and bare currmove lines are not', () => {
  const progress = parseProgressLine('info depth 12 seldepth 18 nodes 123456 nps 1500000 hashfull 37 time 850 currmove e2e4 currmovenumber 3');
  assert.deepEqual(progress, {
    depth: 12,
    seldepth: 18,
    nodes: 123456,
    nps: 1500000,
    hashfull: 37,
    time: 850,
    currmove: 'e2e4',
    currmovenumber: 3,
  });
  assert.deepEqual(parseProgressLine('info depth 1 seldepth 1 nodes 20 nps 20000 hashfull 0 time 1'), {
    depth: 1,
    seldepth: 1,
    nodes: 20,
    nps: 20000,
    hashfull: 0,
    time: 1,
  });
  const complete = 'info depth 12 seldepth 18 multipv 1 score cp 20 nodes 123456 nps 1500000 hashfull 37 time 850 pv e2e4 e7e5';
  assert.equal(parseProgressLine(complete), null);
  assert.ok(parseInfoLine(complete));
  assert.equal(parseInfoLine('info depth 12 seldepth 18 nodes 123456 nps 1500000 hashfull 37 time 850 currmove e2e4 currmovenumber 3'), null);
  assert.equal(parseProgressLine('info depth 5 currmove e2e4 currmovenumber 1'), null);
  assert.equal(parseProgressLine('info string nodes 5'), null);
  assert.equal(parseProgressLine('bestmove e2e4'), null);
});

test('spin options from the uci listing, names with spaces included', () => {
  assert.deepEqual(parseSpinOption('option name Hash type spin default 16 min 1 max 256'), {
    name: 'Hash',
    option: { value: 16, min: 1, max: 256 },
  });
  assert.deepEqual(parseSpinOption('option name Progress Interval type spin default 0 min 0 max 10000')?.name, 'Progress Interval');
  assert.equal(parseSpinOption('option name UCI_ShowWDL type check default false'), null);
});

test('hello: analysis unlimited or capped, Hash and Threads ranges; an older server is capped', () => {
  const hello = {
    type: 'hello',
    maxThinkMs: 10000,
    analysisUnlimited: true,
    options: [
      { name: 'Hash', type: 'spin', default: '16', value: '64', min: 1, max: 1024 },
      { name: 'Threads', type: 'spin', default: '1', value: '1', min: 1, max: 4 },
      { name: 'Clear Hash', type: 'button' },
    ],
  };
  assert.deepEqual(limitsFromHello(hello), {
    unlimited: true,
    maxThinkMs: 10000,
    hash: { min: 1, max: 1024, value: 64 },
    threads: { min: 1, max: 4, value: 1 },
  });
  const older = limitsFromHello({ type: 'hello', maxThinkMs: 5000, options: [] });
  assert.deepEqual(older, { unlimited: false, maxThinkMs: 5000, hash: null, threads: null });
});

test('the Hash and Threads choices stay within the engine range; out-of-range values are refused in words', () => {
  assert.deepEqual(hashChoices({ min: 1, max: 256, value: 32 }), [16, 32, 64, 128, 256]);
  assert.deepEqual(hashChoices({ min: 1, max: 16, value: 16 }), [16]);
  assert.deepEqual(hashChoices({ min: 1, max: 100, value: 16 }), [16, 32, 64, 100]);
  assert.deepEqual(threadChoices({ min: 1, max: 4, value: 2 }), [1, 2, 3, 4]);
  assert.equal(optionRangeError('Hash', 64, { min: 1, max: 256, value: 16 }), null);
  assert.equal(optionRangeError('Hash', 512, { min: 1, max: 256, value: 16 }), 'Hash must be from 1 to 256 MB with this engine, not 512');
  assert.match(optionRangeError('Threads', 1.5, { min: 1, max: 2, value: 1 }) ?? '', /^Threads must be from 1 to 2 /);
});

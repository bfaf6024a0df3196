// SPDX-License-Identifier: GPL-3.0-or-later
// Puzzles: Glicko-2 against the worked example of Glickman's paper, the Lichess CSV row parser
// (good rows, and hostile ones refused with a reason), the line stream, the store's import in
// batches, the pick by rating and theme, and the rating moving with a result. Every row of the
// shipped set is read and checked.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { glicko2Update } from '../src/glicko2';
import { parsePuzzleLine, splitCsvLine, streamLines } from '../src/puzzle-csv';
import { PuzzleStore } from '../src/puzzle-store';

const here = dirname(fileURLToPath(import.meta.url));
const webDir = resolve(here, here.includes('node_modules') ? '../..' : '..');

const kRow = '0fYUn,1r4k1/5ppp/p7/8/1P1R4/P1r4P/3R2P1/6K1 b - - 0 27,c3a3 d4d8 b8d8 d2d8,399,92,100,189,backRankMate endgame mate mateIn2 rookEndgame short,https://lichess.org/0xGprMIQ/black#54,';

test("Glicko-2: Glickman's example (1500/200/0.06 against 1400/30 won, 1550/100 and 1700/300 lost) gives 1464.06, 151.52, 0.05999", () => {
  const after = glicko2Update({ rating: 1500, rd: 200, volatility: 0.06 }, [
    { opponentRating: 1400, opponentRd: 30, score: 1 },
    { opponentRating: 1550, opponentRd: 100, score: 0 },
    { opponentRating: 1700, opponentRd: 300, score: 0 },
  ]);
  assert.ok(Math.abs(after.rating - 1464.06) < 0.01, `rating ${after.rating}`);
  assert.ok(Math.abs(after.rd - 151.52) < 0.01, `rd ${after.rd}`);
  assert.ok(Math.abs(after.volatility - 0.05999) < 0.00001, `volatility ${after.volatility}`);
  // No games: only the deviation grows.
  const idle = glicko2Update({ rating: 1500, rd: 200, volatility: 0.06 }, []);
  assert.equal(idle.rating, 1500);
  assert.ok(idle.rd > 200 && idle.rd < 201);
  // A win raises the rating, a loss lowers it.
  const start = { rating: 1500, rd: 350, volatility: 0.06 };
  assert.ok(glicko2Update(start, [{ opponentRating: 1500, opponentRd: 80, score: 1 }]).rating > 1500);
  assert.ok(glicko2Update(start, [{ opponentRating: 1500, opponentRd: 80, score: 0 }]).rating < 1500);
});

test('a Lichess puzzle row is read whole', () => {
  const row = parsePuzzleLine(kRow);
  assert.deepEqual(row.puzzle, {
    id: '0fYUn',
    fen: '1r4k1/5ppp/p7/8/1P1R4/P1r4P/3R2P1/6K1 b - - 0 27',
    moves: ['c3a3', 'd4d8', 'b8d8', 'd2d8'],
    rating: 399,
    ratingDeviation: 92,
    popularity: 100,
    plays: 189,
    themes: ['backRankMate', 'endgame', 'mate', 'mateIn2', 'rookEndgame', 'short'],
    gameUrl: 'https://lichess.org/0xGprMIQ/black#54',
    openingTags: [],
  });
  assert.deepEqual(splitCsvLine('a,"b,c","d ""e"""'), ['a', 'b,c', 'd "e"']);
  assert.equal(splitCsvLine('a,"b'), null);
});

test('hostile puzzle rows are refused with their reason', () => {
  const error = (line: string): string => parsePuzzleLine(line).error ?? '';
  assert.match(error(kRow.replace('c3a3', 'c3c9')), /move 1 \(c3c9\) is not legal/);
  assert.match(error(kRow.replace('b8d8 d2d8', 'b8d8 d2e3')), /move 4 \(d2e3\) is not legal/);
  assert.match(error(kRow.replace('1r4k1/', '1r4k1k/')), /0fYUn: not a valid FEN/);
  assert.match(error(kRow.replace(',399,', ',lots,')), /the rating "lots" is not a number/);
  assert.match(error(kRow.replace('0fYUn', '<script>')), /is not one/);
  assert.match(error('just,three,fields'), /9 or 10 fields, this one 3/);
  assert.match(error(kRow.replace(',c3a3 d4d8 b8d8 d2d8,', ',c3a3,')), /at least one reply/);
  assert.match(error('x'.repeat(5000)), /longer than/);
  assert.match(error(kRow.replace('endgame', 'end<game>')), /a theme is not a word/);
});

test('a stream is read line by line across chunk boundaries, CRLF or LF', async () => {
  const text = 'one\r\ntwo\nthree';
  const bytes = new TextEncoder().encode(text);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
      controller.close();
    },
  });
  const lines: string[] = [];
  let counted = 0;
  for await (const line of streamLines(stream, (n) => (counted = n))) lines.push(line);
  assert.deepEqual(lines, ['one', 'two', 'three']);
  assert.equal(counted, bytes.length);
});

test('the store imports in batches, picks by rating and theme, and the rating moves with the result', async () => {
  const csv = readFileSync(join(webDir, 'puzzles', 'lichess-puzzles.csv'));
  const store = PuzzleStore.inMemory();
  const progress: number[] = [];
  const report = await store.importCsv(new Blob([csv, 'bad,row\n']).stream(), (_bytes, added) => progress.push(added));
  // The shipped set: every row good (a few thousand, across ratings).
  assert.ok(report.added >= 2000, `${report.added} puzzles`);
  assert.equal(report.bad, 1);
  assert.match(report.reasons[0]!, /^line \d+: a puzzle row has 9 or 10 fields/);
  assert.ok(progress.length >= 4, 'progress after each batch');
  assert.equal(await store.count(), report.added);
  const forks = await store.pick({ theme: 'fork', minRating: 1200, maxRating: 1600 }, 1500, () => 0.5);
  assert.ok(forks && forks.themes.includes('fork') && forks.rating >= 1200 && forks.rating <= 1600, JSON.stringify(forks));
  assert.equal(await store.pick({ theme: 'fork', minRating: 1600, maxRating: 1200 }, 1500), undefined);
  const before = await store.rating();
  const solved = await store.record(forks!, true);
  assert.ok(solved.after.rating > before.rating);
  const failed = await store.record(forks!, false);
  assert.ok(failed.after.rating < solved.after.rating);
  const history = await store.history();
  assert.deepEqual(history.map((a) => a.solved), [false, true]);
  // A puzzle tried is not picked again while others are left.
  const next = await store.pick({ theme: 'fork', minRating: 1200, maxRating: 1600 }, forks!.rating, () => 0.5);
  assert.notEqual(next?.id, forks!.id);
});

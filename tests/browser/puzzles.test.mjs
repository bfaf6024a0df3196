// SPDX-License-Identifier: GPL-3.0-or-later
// Puzzles in a real Chromium on the static page without engine files (the WASM-only site's case;
// puzzles need no engine): the shipped set indexed, a puzzle solved by real clicks (its solution
// read from the shipped CSV, not from the page) and the rating up, one failed by a legal wrong move
// (picked by the native engine) and the rating down, the history, Analyse; a user's CSV imported
// with a bad row refused. Imported by frontend.test.mjs.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, openPage, tid, withShot, clickMove, waitForTestHook, log, T } from './lib/browser.mjs';
import { NativeEngine } from './lib/native.mjs';

const NOENGINE_URL = process.env.AXON_NOENGINE_URL;
const AXON_BIN = process.env.AXON_BIN;
const skip = !NOENGINE_URL || !AXON_BIN ? 'AXON_NOENGINE_URL or AXON_BIN not set'
  : process.env.AXON_MODES && !process.env.AXON_MODES.split(',').includes('no-engine') ? 'left out by AXON_MODES' : false;

const here = dirname(fileURLToPath(import.meta.url));
const SHIPPED = resolve(here, '../../web/puzzles/lichess-puzzles.csv');
// The solutions, by puzzle id, from the file itself.
const solutions = new Map(readFileSync(SHIPPED, 'utf8').split('\n').slice(1).filter(Boolean).map((line) => {
  const [id, fen, moves] = line.split(',');
  return [id, { fen, moves: moves.split(' ') }];
}));

const state = (page) => tid(page, 'puzzle-status').getAttribute('data-state');
const rating = async (page) => Number(await tid(page, 'puzzle-rating').getAttribute('data-rating'));
const waitState = (page, wanted, timeout = T.ui) => page.waitForFunction((w) => w.includes(document.querySelector('[data-testid="puzzle-status"]').dataset.state), wanted, { timeout, polling: 50 });

async function currentPuzzle(page) {
  const id = await tid(page, 'puzzle-panel').getAttribute('data-puzzle-id');
  const solution = solutions.get(id);
  assert.ok(solution, `puzzle ${id} is one of the shipped set`);
  return { id, ...solution };
}

/** A move by clicks, through the promotion picker when it promotes. */
async function playUci(page, uci) {
  await clickMove(page, uci.slice(0, 2), uci.slice(2, 4));
  if (uci.length === 5) await tid(page, `promote-${uci[4]}`).click({ timeout: T.ui });
}

describe('puzzles (static page, no engine)', { skip }, () => {
  let browser, page, native;
  before(async () => {
    browser = await launch();
    page = await openPage(browser, NOENGINE_URL, 'puzzles');
    native = new NativeEngine(AXON_BIN);
    await native.init();
    await waitForTestHook(page);
  });
  after(async () => {
    if (native) await native.quit();
    if (browser) await browser.close();
  });

  test('a puzzle solved moves the rating up; one failed moves it down; history; Analyse', async () => {
    await withShot(page, 'puzzles', async () => {
      await tid(page, 'mode-puzzle').click({ timeout: T.ui });
      await waitState(page, ['your-move'], T.load);
      assert.match(await tid(page, 'puzzle-import-note').textContent(), /^\d{4} puzzles shipped with the app\.$/);
      const start = await rating(page);
      assert.equal(start, 1500);
      // Solved: every solver move of the solution, the opponent's replies played by the page.
      const first = await currentPuzzle(page);
      log('[puzzles] first', first);
      for (let i = 1; i < first.moves.length; i += 2) {
        await waitState(page, ['your-move']);
        const played = await page.evaluate(() => window.axonTest.mainlineUci());
        assert.deepEqual(played, first.moves.slice(0, i), 'the page played the opponent\'s moves of the solution');
        await playUci(page, first.moves[i]);
        // chessground reports a move a moment later: wait until the page has it.
        await page.waitForFunction((n) => window.axonTest.mainlineUci().length >= n, i + 1, { timeout: T.ui });
      }
      await waitState(page, ['solved']);
      await page.waitForFunction((r) => Number(document.querySelector('[data-testid="puzzle-rating"]').dataset.rating) !== r, start, { timeout: T.ui });
      const afterWin = await rating(page);
      assert.ok(afterWin > start, `rating after a solved puzzle: ${afterWin}`);
      // Failed: a legal move that is not the solution's (nor a mate).
      await tid(page, 'puzzle-next').click({ timeout: T.ui });
      await waitState(page, ['your-move'], T.load);
      const second = await currentPuzzle(page);
      const position = await native.replay(second.fen, second.moves.slice(0, 1));
      let wrong = null;
      for (const move of position.legal) {
        if (move === second.moves[1]) continue;
        const after = await native.replay(second.fen, [second.moves[0], move]);
        if (after.legal.length > 0) { wrong = move; break; }
      }
      assert.ok(wrong, 'a wrong legal move exists');
      log('[puzzles] second', second.id, 'wrong move', wrong);
      await playUci(page, wrong);
      await page.waitForFunction((r) => Number(document.querySelector('[data-testid="puzzle-rating"]').dataset.rating) < r, afterWin, { timeout: T.ui })
        .catch(async () => { throw new Error(`the rating did not go down: ${await rating(page)} (state ${await state(page)})`); });
      await waitState(page, ['your-move']);
      assert.deepEqual(await page.evaluate(() => window.axonTest.mainlineUci()), second.moves.slice(0, 1), 'the wrong move is taken back');
      const items = await tid(page, 'puzzle-history-item').evaluateAll((els) => els.map((e) => `${e.dataset.puzzle}:${e.dataset.solved}`));
      assert.deepEqual(items.slice(0, 2), [`${second.id}:false`, `${first.id}:true`]);
      // The right move after the failure still solves it, but the rating stays.
      const failedRating = await rating(page);
      await tid(page, 'puzzle-solution').click({ timeout: T.ui });
      await waitState(page, ['solution']);
      assert.equal(await rating(page), failedRating, 'the solution after a failure does not count again');
      await page.waitForFunction((n) => window.axonTest.mainlineUci().length === n, second.moves.length, { timeout: T.ui });
      // Analyse: the puzzle's line in Analysis.
      await tid(page, 'puzzle-analyse').click({ timeout: T.ui });
      assert.equal(await tid(page, 'mode-analysis').getAttribute('aria-selected'), 'true');
      assert.deepEqual(await page.evaluate(() => window.axonTest.mainlineUci()), second.moves);
      // A reload keeps the rating (IndexedDB).
      await page.reload({ waitUntil: 'load' });
      await waitForTestHook(page);
      await tid(page, 'mode-puzzle').click({ timeout: T.ui });
      await waitState(page, ['your-move'], T.load);
      assert.equal(await rating(page), failedRating, 'the rating after a reload');
    });
  });

  test('a puzzle CSV is imported with its bad rows refused', async () => {
    await withShot(page, 'puzzles-import', async () => {
      const good = readFileSync(SHIPPED, 'utf8').split('\n').slice(1, 4).map((l) => l.replace(/^(\w+),/, 'x$1,'));
      const csv = ['PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags', ...good, 'bad1,8/8/8/8/8/8/8/8 w - - 0 1,e2e4 e7e5,1500,80,90,10,mate,,', ''].join('\n');
      await tid(page, 'puzzle-file').setInputFiles({ name: 'mine.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.waitForFunction(() => document.querySelector('[data-testid="puzzle-import-note"]').dataset.state === 'done', null, { timeout: T.ui });
      assert.equal(await tid(page, 'puzzle-import-note').getAttribute('data-added'), '3');
      assert.equal(await tid(page, 'puzzle-import-note').getAttribute('data-bad'), '1');
      assert.match(await tid(page, 'puzzle-import-note').textContent(), /mine\.csv: 3 puzzles imported; 1 rows refused \(line 5: puzzle bad1: not a legal position/);
      assert.equal(await tid(page, 'puzzle-progress').isVisible(), true);
    });
  });
});

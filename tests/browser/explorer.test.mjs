// SPDX-License-Identifier: GPL-3.0-or-later
// The opening explorer in a real Chromium on the static page without engine files: a PGN
// database imported through the file input (streamed, with progress), the start position's moves
// with their games, White / draw / Black counts and average rating, a click on a move plays it and
// the next position's moves come; the library indexed too. Imported by frontend.test.mjs.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, tid, withShot, waitForTestHook, T } from './lib/browser.mjs';

const NOENGINE_URL = process.env.AXON_NOENGINE_URL;
const skip = !NOENGINE_URL ? 'AXON_NOENGINE_URL not set'
  : process.env.AXON_MODES && !process.env.AXON_MODES.split(',').includes('no-engine') ? 'left out by AXON_MODES' : false;

const DATABASE = [
  '[Event "x1"]\n[WhiteElo "2000"]\n[BlackElo "2200"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0',
  '[Event "x2"]\n[WhiteElo "1800"]\n[BlackElo "1800"]\n[Result "0-1"]\n\n1. e4 c5 0-1',
  '[Event "x3"]\n[Result "1/2-1/2"]\n\n1. e4 c5 2. Nf3 1/2-1/2',
  '[Event "x4"]\n[Result "1-0"]\n\n1. d4 d5 1-0',
  '[Event "x5"]\n[Variant "Antichess"]\n[Result "1-0"]\n\n1. e3 b5 1-0',
].join('\n\n') + '\n';

const rows = (page) => tid(page, 'explorer-move').evaluateAll((els) => els.map((e) =>
  `${e.dataset.uci} ${e.dataset.games} ${e.dataset.white}/${e.dataset.draws}/${e.dataset.black} ${e.dataset.avgRating}`));

describe('opening explorer (static page, no engine)', { skip }, () => {
  let browser, page;
  before(async () => {
    browser = await launch();
    page = await openPage(browser, NOENGINE_URL, 'explorer');
    await waitForTestHook(page);
  });
  after(async () => { if (browser) await browser.close(); });

  test('an imported PGN database answers the start position; a click plays a move; the library is indexed', async () => {
    await withShot(page, 'explorer', async () => {
      await tid(page, 'mode-analysis').click({ timeout: T.ui });
      await tid(page, 'explorer-file').setInputFiles({ name: 'db.pgn', mimeType: 'application/x-chess-pgn', buffer: Buffer.from(DATABASE) });
      await page.waitForFunction(() => document.querySelector('[data-testid="explorer-note"]').dataset.state === 'done', null, { timeout: T.ui });
      assert.equal(await tid(page, 'explorer-note').textContent(), 'db.pgn: 4 games indexed, 1 of other variants left out.');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="explorer-move"]').length === 2, null, { timeout: T.ui });
      // e4: three games (1-0, 0-1, draw), ratings 2000 2200 1800 1800; d4: one win without ratings.
      assert.deepEqual(await rows(page), ['e2e4 3 1/1/1 1950', 'd2d4 1 1/0/0 ']);
      await page.locator('[data-testid="explorer-move"][data-uci="e2e4"]').click({ timeout: T.ui });
      await page.waitForFunction(() => window.axonTest.movesUci().join() === 'e2e4', null, { timeout: T.ui });
      await page.waitForFunction(() => document.querySelector('[data-testid="explorer-move"]')?.dataset.uci === 'c7c5', null, { timeout: T.ui });
      assert.deepEqual(await rows(page), ['c7c5 2 0/1/1 1800', 'e7e5 1 1/0/0 2100']);
      // The library: a game imported into it, then indexed, answers too.
      await tid(page, 'pgn-text').fill('[Event "lib"]\n[Result "1-0"]\n\n1. c4 e5 1-0', { timeout: T.ui });
      await tid(page, 'pgn-import').click({ timeout: T.ui });
      await page.waitForFunction(() => window.axonTest.mainlineUci().join() === 'c2c4,e7e5', null, { timeout: T.ui });
      await tid(page, 'nav-first').click({ timeout: T.ui });
      await tid(page, 'explorer-index-library').click({ timeout: T.ui });
      await page.waitForFunction(() => /^Library: \d+ games indexed\.$/.test(document.querySelector('[data-testid="explorer-note"]').textContent), null, { timeout: T.ui });
      await page.waitForFunction(() => document.querySelector('[data-testid="explorer-move"][data-uci="c2c4"]'), null, { timeout: T.ui });
      // The library holds two games: 1. e4 (played above by the click, unfinished) and 1. c4 (won).
      assert.deepEqual(await rows(page), ['e2e4 4 1/1/1 1950', 'c2c4 1 1/0/0 ', 'd2d4 1 1/0/0 ']);
      assert.equal(await tid(page, 'explorer-note').textContent(), 'Library: 2 games indexed.');
    });
  });
});

// SPDX-License-Identifier: GPL-3.0-or-later
// The board's looks and the phone layout in a real Chromium on the runner's `axon serve` page
// (the server engine, so the top bar has the engine select too): another piece set and board
// colours drawn and kept after a reload, coordinates off; at 390x844 the board, both clocks and
// Takeback / Draw / Resign inside the first screen. Imported by frontend.test.mjs.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, tid, withShot, waitForTestHook, waitForEngineState, log, T } from './lib/browser.mjs';

const SERVER_URL = process.env.AXON_SERVER_URL;
const skip = !SERVER_URL ? 'AXON_SERVER_URL not set'
  : process.env.AXON_MODES && !process.env.AXON_MODES.split(',').includes('server') ? 'left out by AXON_MODES' : false;

const pieceImage = (page) => page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="board"] piece.white.knight')).backgroundImage);
const boardImage = (page) => page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="board"] cg-board')).backgroundImage);

describe('looks and the phone layout (axon serve page)', { skip }, () => {
  let browser, context, page;
  before(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    page = await context.newPage();
    page.on('pageerror', (e) => log('[looks] pageerror', String(e)));
    await page.goto(`${SERVER_URL}?engine=server`, { waitUntil: 'load', timeout: T.load });
    await waitForTestHook(page);
    await waitForEngineState(page, ['ready']);
  });
  after(async () => { if (browser) await browser.close(); });

  test('at 390x844 the board, both clocks and the game buttons are on the first screen', async () => {
    await withShot(page, 'phone-layout', async () => {
      await tid(page, 'color-select').selectOption('white', { timeout: T.ui });
      await tid(page, 'new-game').click({ timeout: T.ui });
      await page.evaluate(() => window.scrollTo(0, 0));
      const boxes = await page.evaluate(() => Object.fromEntries(['board', 'clock-white', 'clock-black', 'takeback', 'offer-draw', 'resign'].map((id) => {
        const r = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
        return [id, { top: Math.round(r.top), bottom: Math.round(r.bottom), width: Math.round(r.width) }];
      })));
      log('[looks] phone boxes', boxes);
      for (const [id, box] of Object.entries(boxes)) {
        assert.ok(box.width > 0, `${id} is shown`);
        assert.ok(box.top >= 0 && box.bottom <= 844, `${id} lies within the first screen: ${JSON.stringify(box)}`);
      }
      assert.ok(boxes.board.width >= 300, `the board keeps its size: ${boxes.board.width} px`);
    });
  });

  test('another piece set and board colours are drawn, coordinates can be hidden, and a reload keeps them', async () => {
    await withShot(page, 'looks', async () => {
      const cburnett = await pieceImage(page);
      const brown = await boardImage(page);
      await tid(page, 'piece-set-select').selectOption('flat', { timeout: T.ui });
      await tid(page, 'board-theme-select').selectOption('green', { timeout: T.ui });
      await tid(page, 'coords-toggle').uncheck({ timeout: T.ui });
      const flat = await pieceImage(page);
      const green = await boardImage(page);
      assert.notEqual(flat, cburnett, 'the knight is drawn with the other set');
      assert.match(flat, /^url\("data:image\/svg\+xml/);
      assert.notEqual(green, brown, 'the board has other colours');
      assert.match(decodeURIComponent(green), /#769656/);
      assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="board"] coords')).display), 'none');
      await page.reload({ waitUntil: 'load' });
      await waitForTestHook(page);
      assert.equal(await pieceImage(page), flat, 'the set after a reload');
      assert.equal(await boardImage(page), green, 'the colours after a reload');
      assert.equal(await tid(page, 'coords-toggle').isChecked(), false);
      await tid(page, 'piece-set-select').selectOption('letters', { timeout: T.ui });
      assert.notEqual(await pieceImage(page), flat, 'a third set');
    });
  });
});

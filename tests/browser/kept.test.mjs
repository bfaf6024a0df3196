// SPDX-License-Identifier: GPL-3.0-or-later
// Nothing the user made is lost, in a real Chromium on the static page without engine files (no
// engine needed): arrows and circles drawn with the right button saved as [%cal]/[%csl], drawn
// from an import, kept when stepping away and back and after a reload; in a game against Axon a
// move on an earlier position answered (not ignored), Import PGN asking before it ends the game,
// and the unfinished game resumed from the library in Play with its clock. Imported by
// frontend.test.mjs, so scripts/browser-test.sh runs it.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, tid, withShot, clickMove, settleBoard, squareCentre, movesUci, waitForTestHook, T } from './lib/browser.mjs';

const NOENGINE_URL = process.env.AXON_NOENGINE_URL;
const skip = !NOENGINE_URL ? 'AXON_NOENGINE_URL not set'
  : process.env.AXON_MODES && !process.env.AXON_MODES.split(',').includes('no-engine') ? 'left out by AXON_MODES' : false;

const viewPly = (page) => page.evaluate(() => window.axonTest.viewPly());
const toastText = (page) => page.evaluate(() => document.getElementById('toast').textContent);
// Shapes chessground drew (user shapes; this page has no engine, so no analysis arrows).
const drawnShapes = (page) => page.locator('[data-testid="board"] svg.cg-shapes g[cgHash]').count();

async function importPgn(page, pgn) {
  await tid(page, 'pgn-text').fill(pgn, { timeout: T.ui });
  await page.evaluate(() => { document.getElementById('toast').textContent = ''; });
  await tid(page, 'pgn-import').click({ timeout: T.ui });
  await page.waitForFunction(() => document.getElementById('toast').textContent !== '', null, { timeout: T.ui });
}

async function rightDrag(page, from, to) {
  await settleBoard(page);
  const a = await squareCentre(page, from);
  const b = await squareCentre(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down({ button: 'right' });
  await page.mouse.move(b.x, b.y, { steps: 6 });
  await page.mouse.up({ button: 'right' });
}

describe('nothing lost: arrows, moves on earlier positions, imports mid-game, resuming (static page, no engine)', { skip }, () => {
  let browser, page;
  before(async () => {
    browser = await launch();
    page = await openPage(browser, NOENGINE_URL, 'kept');
    await waitForTestHook(page);
  });
  after(async () => { if (browser) await browser.close(); });

  test('arrows: imported ones drawn, drawn ones exported as [%cal]; kept when stepping away and back and after a reload', async () => {
    await withShot(page, 'kept-arrows', async () => {
      await tid(page, 'mode-analysis').click({ timeout: T.ui });
      await importPgn(page, '[Event "arrows"]\n\n1. e4 e5 2. Nf3 { attack [%csl Rf7] } *');
      assert.match(await toastText(page), /^Imported /);
      assert.equal(await viewPly(page), 3);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="board"] svg.cg-shapes g[cgHash]').length === 1, null, { timeout: T.ui })
        .catch(() => { throw new Error('the imported [%csl Rf7] is not drawn'); });
      await rightDrag(page, 'd2', 'd4');
      await page.waitForFunction(() => /\[%csl Rf7\] \[%cal Gd2d4\]/.test(window.axonTest.pgn()), null, { timeout: T.ui })
        .catch(async () => { throw new Error(`the arrow is not in the PGN: ${await page.evaluate(() => window.axonTest.pgn())}`); });
      assert.match(await page.evaluate(() => window.axonTest.pgn()), /2\. Nf3 \{ attack \[%csl Rf7\] \[%cal Gd2d4\] \}/, 'the comment keeps its text');
      assert.equal(await drawnShapes(page), 2);
      await tid(page, 'nav-prev').click({ timeout: T.ui });
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="board"] svg.cg-shapes g[cgHash]').length === 0, null, { timeout: T.ui });
      await tid(page, 'nav-next').click({ timeout: T.ui });
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="board"] svg.cg-shapes g[cgHash]').length === 2, null, { timeout: T.ui })
        .catch(() => { throw new Error('the shapes are gone after stepping away and back'); });
      await page.reload({ waitUntil: 'load' });
      await waitForTestHook(page);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="board"] svg.cg-shapes g[cgHash]').length === 2, null, { timeout: T.ui })
        .catch(() => { throw new Error('the shapes are gone after a reload'); });
    });
  });

  test('a game against Axon: a move on an earlier position is answered; Import PGN asks first; the game resumes from the library', async () => {
    await withShot(page, 'kept-resume', async () => {
      await tid(page, 'mode-play').click({ timeout: T.ui });
      await tid(page, 'color-select').selectOption('white', { timeout: T.ui });
      await tid(page, 'tc-select').selectOption('5+0', { timeout: T.ui });
      await tid(page, 'new-game').click({ timeout: T.ui });
      await page.waitForFunction(() => window.axonTest.movesUci().length === 0, null, { timeout: T.ui });
      await clickMove(page, 'e2', 'e4');
      await page.waitForFunction(() => window.axonTest.movesUci().length === 1, null, { timeout: T.ui });
      // Stepped back to the start, the user moves: told, and the board goes back to the game.
      await tid(page, 'nav-first').click({ timeout: T.ui });
      assert.equal(await viewPly(page), 0);
      await page.evaluate(() => { document.getElementById('toast').textContent = ''; });
      await clickMove(page, 'd2', 'd4');
      await page.waitForFunction(() => /You were viewing move 1\./.test(document.getElementById('toast').textContent), null, { timeout: T.ui })
        .catch(async () => { throw new Error(`no answer to the move on an earlier position; toast: ${await toastText(page)}`); });
      assert.equal(await viewPly(page), 1, 'back at the game\'s last move');
      assert.deepEqual(await movesUci(page), ['e2e4'], 'the game is unchanged');
      // Import PGN during the game: it asks, the game stays until the user confirms.
      await importPgn(page, '[Event "other"]\n\n1. d4 d5 *');
      assert.match(await toastText(page), /Your game against Axon is on/);
      assert.deepEqual(await movesUci(page), ['e2e4'], 'the import did not replace the game');
      await tid(page, 'toast-action').click({ timeout: T.ui });
      await page.waitForFunction(() => window.axonTest.mainlineUci().join() === 'd2d4,d7d5', null, { timeout: T.ui });
      // The game against Axon is in the library, unfinished: Open resumes it in Play with its clock.
      const item = page.locator('[data-testid="library-item"][data-resumable="true"]', { hasText: 'You – Axon' });
      await item.first().waitFor({ state: 'visible', timeout: T.ui });
      await item.first().locator('[data-testid="library-open"]').click({ timeout: T.ui });
      await page.waitForFunction(() => window.axonTest.mainlineUci().join() === 'e2e4', null, { timeout: T.ui });
      assert.equal(await tid(page, 'mode-play').getAttribute('aria-selected'), 'true', 'resumed in Play');
      assert.equal(await tid(page, 'resign').isDisabled(), false, 'the game goes on');
      const ms = Number(await tid(page, 'clock-black').getAttribute('data-ms'));
      assert.ok(ms > 290_000 && ms <= 300_000, `Black's clock: ${ms} ms`);
    });
  });
});

// SPDX-License-Identifier: GPL-3.0-or-later
// The board editor and Chess960 starts in a real Chromium on the static page without engine files
// (no engine needed): pieces dragged from the palette onto the editor's board by real mouse drags,
// an illegal position refused in words, a castling right refused until its rook stands there, the
// edited position played (castling in it by clicks on the main board); a Chess960 start by number
// (an out-of-range number refused). Imported by frontend.test.mjs.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, tid, withShot, clickMove, waitForTestHook, T } from './lib/browser.mjs';

const NOENGINE_URL = process.env.AXON_NOENGINE_URL;
const skip = !NOENGINE_URL ? 'AXON_NOENGINE_URL not set'
  : process.env.AXON_MODES && !process.env.AXON_MODES.split(',').includes('no-engine') ? 'left out by AXON_MODES' : false;

/** The centre of `square` on the editor's board (White at the bottom). */
async function editorSquare(page, square) {
  const box = await page.locator('[data-testid="editor-board"] cg-board').boundingBox();
  const file = square.charCodeAt(0) - 97, rank = square.charCodeAt(1) - 49;
  return { x: box.x + (file + 0.5) * box.width / 8, y: box.y + (7.5 - rank) * box.height / 8 };
}

/** Drags a piece (`wk`, `br`, ...) from the palette onto `square` with the mouse. */
async function dropPiece(page, piece, square) {
  const from = await page.locator(`[data-testid="editor-piece"][data-piece="${piece}"]`).boundingBox();
  const to = await editorSquare(page, square);
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

const editorFen = (page) => tid(page, 'editor-fen').inputValue();
const editorError = (page) => tid(page, 'editor-error').textContent();

describe('board editor and Chess960 (static page, no engine)', { skip }, () => {
  let browser, page;
  before(async () => {
    browser = await launch();
    page = await openPage(browser, NOENGINE_URL, 'editor');
    await waitForTestHook(page);
  });
  after(async () => { if (browser) await browser.close(); });

  test('pieces dragged on from the palette; illegal set-ups refused in words; the edited position played', async () => {
    await withShot(page, 'editor', async () => {
      await tid(page, 'editor-open').click({ timeout: T.ui });
      await tid(page, 'editor-clear').click({ timeout: T.ui });
      await tid(page, 'editor-board').scrollIntoViewIfNeeded();
      assert.match(await editorError(page), /Not a playable position: the board is empty/);
      await dropPiece(page, 'wk', 'e1');
      await page.waitForFunction(() => /each side needs exactly one king/.test(document.querySelector('[data-testid="editor-error"]').textContent), null, { timeout: T.ui });
      await dropPiece(page, 'bk', 'e8');
      await page.waitForFunction(() => document.querySelector('[data-testid="editor-fen"]').value === '4k3/8/8/8/8/8/8/4K3 w - - 0 1', null, { timeout: T.ui })
        .catch(async () => { throw new Error(`editor FEN after two drops: ${await editorFen(page)}; ${await editorError(page)}`); });
      assert.equal(await editorError(page), '');
      // A castling right needs its rook.
      await tid(page, 'editor-castle-K').check({ timeout: T.ui });
      assert.match(await editorError(page), /White cannot castle short: the king must stand on e1 and a rook on h1/);
      await page.evaluate(() => document.activeElement?.blur());
      await dropPiece(page, 'wr', 'h1');
      await page.waitForFunction(() => document.querySelector('[data-testid="editor-error"]').textContent === '', null, { timeout: T.ui });
      assert.equal(await editorFen(page), '4k3/8/8/8/8/8/8/4K2R w K - 0 1');
      // An en-passant square no pawn passed is refused.
      await tid(page, 'editor-ep').fill('d6', { timeout: T.ui });
      await tid(page, 'editor-ep').press('Tab');
      assert.match(await editorError(page), /en passant on d6 needs a black pawn on d5/);
      await tid(page, 'editor-ep').fill('', { timeout: T.ui });
      await tid(page, 'editor-ep').press('Tab');
      assert.equal(await editorError(page), '');
      // Played: the main board takes the position, and castling in it.
      await tid(page, 'color-select').selectOption('white', { timeout: T.ui });
      await tid(page, 'editor-play').click({ timeout: T.ui });
      await page.waitForFunction(() => window.axonTest.fen() === '4k3/8/8/8/8/8/8/4K2R w K - 0 1', null, { timeout: T.ui });
      assert.equal(await tid(page, 'mode-play').getAttribute('aria-selected'), 'true');
      await clickMove(page, 'e1', 'g1');
      await page.waitForFunction(() => window.axonTest.mainlineUci().join() === 'e1g1', null, { timeout: T.ui })
        .catch(async () => { throw new Error(`castling in the edited position: ${await page.evaluate(() => window.axonTest.mainlineUci())}`); });
      assert.match(await page.evaluate(() => window.axonTest.fen()), /^4k3\/8\/8\/8\/8\/8\/8\/5RK1 b - - 1 1$/);
    });
  });

  test('Chess960 by number: 0 is BBQNNRKR; a number out of range is refused', async () => {
    await withShot(page, 'chess960', async () => {
      await tid(page, 'start-select').selectOption('960-number', { timeout: T.ui });
      await tid(page, 'chess960-number').fill('960', { timeout: T.ui });
      await tid(page, 'new-game').click({ timeout: T.ui });
      assert.match(await tid(page, 'chess960-error').textContent(), /from 0 to 959, not 960/);
      await tid(page, 'chess960-number').fill('0', { timeout: T.ui });
      await tid(page, 'new-game').click({ timeout: T.ui });
      await page.waitForFunction(() => window.axonTest.fen().startsWith('bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq'), null, { timeout: T.ui });
      const pgn = await page.evaluate(() => window.axonTest.pgn());
      assert.match(pgn, /\[Variant "Chess960"\]/);
      assert.match(pgn, /\[FEN "bbqnnrkr\/pppppppp\/8\/8\/8\/8\/PPPPPPPP\/BBQNNRKR w KQkq - 0 1"\]/);
      await tid(page, 'start-select').selectOption('standard', { timeout: T.ui });
    });
  });
});

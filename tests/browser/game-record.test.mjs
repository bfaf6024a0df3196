// SPDX-License-Identifier: GPL-3.0-or-later
// The game record in a real Chromium: the move tree (variations by real clicks, promote, delete,
// comments and glyphs, keyboard through a variation), PGN import and export through the page's
// own buttons (the annotated fixture, then PGNs of ../shared/data/pgn/ when present). Run on
// the static page without engine files (no engine needed, nothing to wait for); imported by
// frontend.test.mjs, so scripts/browser-test.sh runs it with the no-engine mode.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, openPage, tid, withShot, clickMove, movesUci, waitForTestHook, log, T } from './lib/browser.mjs';
import { WsReferee } from './lib/ws-referee.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = resolve(here, '../../web/test/fixtures');
const SHARED_PGN = process.env.AXON_PGN_DIR ?? resolve(here, '../../../shared/data/pgn');
const NOENGINE_URL = process.env.AXON_NOENGINE_URL;
const SERVER_URL = process.env.AXON_SERVER_URL;
const skip = !NOENGINE_URL ? 'AXON_NOENGINE_URL not set'
  : process.env.AXON_MODES && !process.env.AXON_MODES.split(',').includes('no-engine') ? 'left out by AXON_MODES' : false;

const mainlineUci = (page) => page.evaluate(() => window.axonTest.mainlineUci());
const viewPly = (page) => page.evaluate(() => window.axonTest.viewPly());

/** Imports `pgn` through the PGN box and its button; resolves once the page's record changed. */
async function importThroughPage(page, pgn) {
  await tid(page, 'pgn-text').fill(pgn, { timeout: T.ui });
  await page.evaluate(() => { document.getElementById('toast').textContent = ''; });
  await tid(page, 'pgn-import').click({ timeout: T.ui });
  // The import says what it did (or why not) in the toast.
  await page.waitForFunction(() => document.getElementById('toast').textContent !== '', null, { timeout: T.ui });
  const said = await page.evaluate(() => document.getElementById('toast').textContent);
  assert.match(said, /^Imported /, 'the import toast');
}

/** The PGN the page's Export button writes into the PGN box. */
async function exportThroughPage(page) {
  await tid(page, 'pgn-text').fill('', { timeout: T.ui });
  await tid(page, 'pgn-export').click({ timeout: T.ui });
  await page.waitForFunction(() => document.querySelector('[data-testid="pgn-text"]').value.length > 0, null, { timeout: T.ui });
  return tid(page, 'pgn-text').inputValue();
}

async function clickMoveInList(page, uci, { variation = false } = {}) {
  const sel = `[data-testid="${variation ? 'variation-move' : 'move'}"][data-uci="${uci}"]`;
  await page.locator(sel).first().click({ timeout: T.ui });
  // Playwright scrolls the page to reach the list; the board's squares are found on screen.
  await page.evaluate(() => window.scrollTo(0, 0));
}

// Movetext tokens that count what a PGN carries: variations, comments, NAGs.
const counts = (pgn) => {
  const movetext = pgn.replace(/^\s*\[.*\]\s*$/gm, '');
  const outside = movetext.replace(/\{[^}]*\}/g, ' ');
  return {
    variations: (outside.match(/\(/g) ?? []).length,
    comments: (movetext.match(/\{/g) ?? []).length,
    nags: (outside.match(/\$\d+/g) ?? []).length + (outside.match(/(?<=[a-h1-8NBRQKO+#])[!?]{1,2}/g) ?? []).length,
  };
};

describe('game record: move tree and PGN through the page (static page, no engine)', { skip }, () => {
  let browser, page;
  before(async () => {
    browser = await launch();
    page = await openPage(browser, NOENGINE_URL, 'record');
    await waitForTestHook(page);
    await tid(page, 'mode-analysis').click({ timeout: T.ui });
  });
  after(async () => { if (browser) await browser.close(); });

  test('the annotated PGN is imported whole: headers, comments with [%clk]/[%eval], NAGs, variations, result', async () => {
    await withShot(page, 'record-import', async () => {
      const pgn = readFileSync(join(FIXTURES, 'annotated.pgn'), 'utf8');
      await importThroughPage(page, pgn);
      assert.equal(await tid(page, 'mode-analysis').getAttribute('aria-selected'), 'true');
      assert.equal((await mainlineUci(page)).length, 14);
      assert.equal(await tid(page, 'variation-move').count(), 4, 'variation moves 1... c5 2. Nf3 (2. c3) 2... d6');
      assert.equal(await tid(page, 'move-result').textContent(), '0-1');
      const comments = await tid(page, 'move-comment').allTextContents();
      assert.deepEqual(comments, ['A short game with everything a PGN can carry.', 'best by test', 'Sicilian'], 'comment text without [%clk]/[%eval]');
      assert.equal(await page.locator('[data-testid="move"][data-uci="e7e5"] .nag').getAttribute('data-glyph'), '!');
      assert.equal(await page.locator('.player-name[data-color="white"]').textContent(), 'Anna "The Rook" Ek');
      const exported = await exportThroughPage(page);
      log('[record] annotated export', exported);
      assert.equal(exported, [
        '[Event "Axon test: annotations"]', '[Site "?"]', '[Date "2024.05.01"]', '[Round "1"]',
        '[White "Anna \\"The Rook\\" Ek"]', '[Black "Bo Li"]', '[Result "0-1"]', '[Annotator "Axon tests"]',
        '[TimeControl "300+3"]', '',
        '{ A short game with everything a PGN can carry. } 1. e4 { best by test [%clk 0:05:00] [%eval 0.2] } e5 $1'
        + ' ( { Sicilian } 1... c5 2. Nf3 ( 2. c3 ) 2... d6 ) 2. Nf3 { [%clk 0:04:58] } Nc6 3. Bc4 Nd4 $5 4. Nxe5 $2'
        + ' 4... Qg5 5. Nxf7 $4 5... Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# { [%eval #-0] } 0-1', ''].join('\n'));
    });
  });

  test('a move from an earlier position makes a variation; navigation by clicks and keys; promote; delete', async () => {
    await withShot(page, 'record-variation', async () => {
      const main = await mainlineUci(page);
      await clickMoveInList(page, 'e7e5'); // ply 2, White to move
      assert.equal(await viewPly(page), 2);
      await clickMove(page, 'b1', 'c3');
      await page.waitForFunction(() => window.axonTest.movesUci().length === 3, null, { timeout: T.ui });
      assert.deepEqual(await movesUci(page), ['e2e4', 'e7e5', 'b1c3'], 'the viewed line is the new variation');
      assert.deepEqual(await mainlineUci(page), main, 'the main line is untouched');
      const nc3 = page.locator('[data-testid="variation-move"][data-uci="b1c3"]');
      assert.equal(await nc3.getAttribute('aria-current'), 'step', 'the new move is the current one in the list');
      // Keys walk the viewed line: back to e5, forward into the variation again.
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction(() => window.axonTest.viewPly() === 2, null, { timeout: T.ui });
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => window.axonTest.viewPly() === 3, null, { timeout: T.ui });
      assert.deepEqual(await movesUci(page), ['e2e4', 'e7e5', 'b1c3']);
      // A move in the variation continues it.
      await clickMove(page, 'g8', 'f6');
      await page.waitForFunction(() => window.axonTest.movesUci().length === 4, null, { timeout: T.ui });
      assert.deepEqual(await mainlineUci(page), main);
      // A click on a main-line move views the main line again.
      await clickMoveInList(page, 'b8c6');
      assert.deepEqual(await movesUci(page), main);
      await page.keyboard.press('End');
      await page.waitForFunction((n) => window.axonTest.viewPly() === n, main.length, { timeout: T.ui });
      // Promote the variation: it becomes the main line; the old main line its variation.
      await clickMoveInList(page, 'g8f6', { variation: true });
      await tid(page, 'promote-variation').click({ timeout: T.ui });
      assert.deepEqual(await mainlineUci(page), ['e2e4', 'e7e5', 'b1c3', 'g8f6']);
      let pgn = await exportThroughPage(page);
      assert.match(pgn, / e5 \$1 \( \{ Sicilian \} 1\.\.\. c5 .*\) 2\. Nc3 \( 2\. Nf3 \{ \[%clk 0:04:58\] \} Nc6 .* Nf3# \{ \[%eval #-0\] \} \) 2\.\.\. Nf6 0-1/);
      // Delete from here (the viewed Nf6, then Nc3): the old main line comes back.
      await tid(page, 'delete-move').click({ timeout: T.ui });
      assert.equal(await viewPly(page), 3, 'deleting a move views the one before it');
      await tid(page, 'delete-move').click({ timeout: T.ui });
      assert.deepEqual(await mainlineUci(page), main);
      assert.equal(await tid(page, 'variation-move').count(), 4);
    });
  });

  test('a comment and glyphs written on the page are exported; export, import, export is stable', async () => {
    await withShot(page, 'record-annotate', async () => {
      await clickMoveInList(page, 'f1c4'); // 3. Bc4
      await tid(page, 'comment-input').fill('the Italian', { timeout: T.ui });
      await tid(page, 'comment-input').press('Tab');
      await tid(page, 'move-glyph').selectOption('5', { timeout: T.ui });
      await tid(page, 'position-glyph').selectOption('14', { timeout: T.ui });
      // On 2. Nf3, whose comment carries a clock: the text is added, the clock kept.
      await clickMoveInList(page, 'g1f3');
      await tid(page, 'comment-input').fill('develops', { timeout: T.ui });
      await tid(page, 'comment-input').press('Tab');
      const pgn = await exportThroughPage(page);
      assert.match(pgn, / 2\. Nf3 \{ develops \[%clk 0:04:58\] \} Nc6 3\. Bc4 \$5 \$14 \{ the Italian \} 3\.\.\. Nd4 /);
      assert.ok((await tid(page, 'move-comment').allTextContents()).includes('the Italian'));
      await importThroughPage(page, pgn);
      assert.equal(await exportThroughPage(page), pgn, 'the exported PGN read back and written again');
    });
  });

  const sharedFiles = ['robustness/chess-library/variations.pgn', 'robustness/pgn-extract/test-splitvariants.pgn',
    'robustness/pgn-extract/test-allownullmoves.pgn', 'robustness/chess-library/comment_before_moves.pgn',
    'robustness/python-chess/uci-moves.pgn', 'lichess_eval_sample.pgn'];
  test('PGNs of ../shared/data/pgn/ round-trip through Import and Export', { skip: existsSync(SHARED_PGN) ? false : `no ${SHARED_PGN}` }, async () => {
    await withShot(page, 'record-shared', async () => {
      const ws = SERVER_URL ? await WsReferee.open(SERVER_URL, browser) : null;
      try {
        for (const name of sharedFiles) {
          // The first game of each file (the import box reads one game).
          const text = readFileSync(join(SHARED_PGN, name), 'utf8').replace(/^\uFEFF/, '');
          const first = text.split(/\n\s*\n(?=\[)/)[0];
          await importThroughPage(page, first);
          const once = await exportThroughPage(page);
          await importThroughPage(page, once);
          const twice = await exportThroughPage(page);
          assert.equal(twice, once, `${name}: export of the re-imported export`);
          const [a, b] = [counts(first), counts(once)];
          log(`[record] ${name}: source ${JSON.stringify(a)}, export ${JSON.stringify(b)}`);
          assert.equal(b.variations, a.variations, `${name}: variations`);
          assert.equal(b.comments, a.comments, `${name}: comments`);
          assert.equal(b.nags, a.nags, `${name}: NAGs`);
          for (const tag of first.match(/^\[\w+ "[^"]*"\]$/gm) ?? [])
            if (!/^\[(Result|FEN) /.test(tag)) assert.ok(once.includes(tag), `${name}: ${tag} kept`);
          // The main line, read by axon serve's own PGN reader, is the same game (null moves aside).
          if (ws && !/ -- /.test(first)) assert.deepEqual(await ws.pgnToUci(once), await ws.pgnToUci(first), `${name}: main line`);
        }
      } finally { if (ws) await ws.close(); }
    });
  });

  test('no uncaught exceptions in the page', () => {
    assert.deepEqual(page.axonErrors, []);
  });
});

// SPDX-License-Identifier: GPL-3.0-or-later
// Review that teaches and the clock against Axon, in a real Chromium on one page of the runner's
// `axon serve` (server engine): a reviewed game's better move and line (checked legal by the
// native chess core), played as a variation, previous/next mistake by buttons and keys, accuracy;
// opening names by position (a transposition) in analysis and in the library; a readable FEN
// error; a custom time control, tenths under ten seconds, a limited-strength Axon that is not
// instant, and its search hidden during the game unless the player asks. Imported by
// frontend.test.mjs, so scripts/browser-test.sh runs it (with the server mode).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, tid, withShot, clickMove, movesUci, waitForTestHook, waitForEngineState, waitForPlies, choose, log, T } from './lib/browser.mjs';
import { NativeEngine, START_FEN, sameFen } from './lib/native.mjs';
import { WsReferee } from './lib/ws-referee.mjs';

const SERVER_URL = process.env.AXON_SERVER_URL;
const AXON_BIN = process.env.AXON_BIN;
const skip = !SERVER_URL || !AXON_BIN ? 'AXON_SERVER_URL or AXON_BIN not set'
  : process.env.AXON_MODES && !process.env.AXON_MODES.split(',').includes('server') ? 'left out by AXON_MODES' : false;

const mainlineUci = (page) => page.evaluate(() => window.axonTest.mainlineUci());
const viewPly = (page) => page.evaluate(() => window.axonTest.viewPly());
const text = (page, id) => tid(page, id).textContent();

async function importPgn(page, pgn) {
  await tid(page, 'pgn-text').fill(pgn, { timeout: T.ui });
  await page.evaluate(() => { document.getElementById('toast').textContent = ''; });
  await tid(page, 'pgn-import').click({ timeout: T.ui });
  await page.waitForFunction(() => /^Imported /.test(document.getElementById('toast').textContent), null, { timeout: T.ui });
}

// The scholar's mate: 3...Nf6?? allows 4. Qxf7#, which any search of 3... finds.
const SCHOLAR = '[Event "review test"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n';
const SCHOLAR_UCI = ['e2e4', 'e7e5', 'd1h5', 'b8c6', 'f1c4', 'g8f6', 'h5f7'];

describe('review, openings and the clock (axon serve page)', { skip }, () => {
  let browser, page, native, referee;
  before(async () => {
    browser = await launch();
    page = await openPage(browser, `${SERVER_URL}?engine=server`, 'review');
    native = new NativeEngine(AXON_BIN);
    await native.init();
    referee = await WsReferee.open(SERVER_URL, browser);
    await waitForTestHook(page);
    await waitForEngineState(page, ['ready']);
  });
  after(async () => {
    if (referee) await referee.close();
    if (native) await native.quit();
    if (browser) await browser.close();
  });

  test('review: the better move and its line, played as a variation; previous/next mistake by buttons and keys; accuracy', async () => {
    await withShot(page, 'review-better-move', async () => {
      await importPgn(page, SCHOLAR);
      assert.deepEqual(await mainlineUci(page), SCHOLAR_UCI);
      const t0 = Date.now();
      await tid(page, 'review-button').click({ timeout: T.ui });
      await page.waitForFunction(() => document.querySelector('[data-testid="review-summary"]')?.dataset.state === 'done', null, { timeout: T.engine });
      log(`[review] review of ${SCHOLAR_UCI.length} plies took ${Date.now() - t0} ms`);
      // 3...Nf6?? is a blunder; which other moves are marked is the engine's call.
      const marks = await page.locator('[data-testid="move"]:has([data-testid="review-mark"])').evaluateAll((els) =>
        els.map((e) => ({ ply: Number(e.dataset.ply), kind: e.querySelector('[data-testid="review-mark"]').dataset.kind })));
      log('[review] marks', marks);
      assert.deepEqual(marks.find((m) => m.ply === 6), { ply: 6, kind: 'blunder' }, '3...Nf6 is marked a blunder');
      const accuracy = await tid(page, 'review-accuracy').evaluateAll((els) => els.map((e) => ({ color: e.dataset.color, value: Number(e.dataset.value), text: e.textContent })));
      log('[review] accuracy', accuracy);
      assert.deepEqual(accuracy.map((a) => a.color), ['white', 'black']);
      for (const a of accuracy) assert.ok(a.value >= 0 && a.value <= 100 && /^\d+% accuracy$/.test(a.text), JSON.stringify(a));
      assert.ok(accuracy[1].value < accuracy[0].value, 'Black, who blundered into mate, is less accurate than White');

      // Next / previous mistake: from the start the buttons walk the marked moves in order, the keys too.
      await tid(page, 'nav-first').click({ timeout: T.ui });
      const plies = marks.map((m) => m.ply);
      for (const ply of plies) {
        await tid(page, 'review-next-mistake').click({ timeout: T.ui });
        assert.equal(await viewPly(page), ply, 'Next mistake');
      }
      assert.equal(await tid(page, 'review-next-mistake').isDisabled(), true, 'no mistake after the last');
      await page.keyboard.press('Home');
      await page.keyboard.press('n');
      assert.equal(await viewPly(page), plies[0], 'key N');
      await page.keyboard.press('End');
      await page.keyboard.press('p');
      assert.equal(await viewPly(page), plies.at(-1), 'key P');
      if (plies.length > 1) {
        await tid(page, 'review-prev-mistake').click({ timeout: T.ui });
        assert.equal(await viewPly(page), plies.at(-2), 'Previous mistake');
      }

      // On the blunder: the verdict and the engine's better move, legal and not the move played.
      await page.locator('[data-testid="move"][data-ply="6"]').click({ timeout: T.ui });
      const advice = tid(page, 'review-advice');
      await advice.waitFor({ state: 'visible', timeout: T.ui });
      assert.equal(await advice.getAttribute('data-kind'), 'blunder');
      assert.match(await advice.textContent(), /3\.\.\. Nf6\?\? is a blunder/);
      const best = await tid(page, 'review-best-move').getAttribute('data-uci');
      const lineText = await text(page, 'review-best-line');
      log(`[review] better than 3...Nf6: ${best}, line ${lineText}`);
      assert.notEqual(best, 'g8f6');
      assert.match(lineText, /^3\.\.\. /, 'the line starts at Black\'s third move');
      const sans = lineText.split(/\s+/).filter((t) => !/^\d+\.(\.\.)?$/.test(t)).map((t) => t.replace(/^\d+\.(\.\.)?/, ''));
      const before = await native.replay(START_FEN, SCHOLAR_UCI.slice(0, 5));
      const legal = await referee.sanLine(before.fen, sans);
      assert.ok(legal.ok, `the better line ${lineText} is not legal after 3. Bc4: ${legal.error}`);
      assert.equal(legal.uci[0], best, 'the line starts with the better move');
      // The better move does not allow mate in one (Qxf7#).
      const after = await native.replay(START_FEN, [...SCHOLAR_UCI.slice(0, 5), best, 'h5f7']);
      assert.ok(!after.ok || after.legal.length > 0, `${best} still allows Qxf7#`);

      // Show line: the better line becomes a variation beside 3...Nf6, and the board shows its first move.
      await tid(page, 'review-play-best').click({ timeout: T.ui });
      await page.waitForFunction((b) => window.axonTest.movesUci()[5] === b, best, { timeout: T.ui });
      assert.equal(await viewPly(page), 6);
      assert.deepEqual((await movesUci(page)).slice(0, legal.uci.length + 5), [...SCHOLAR_UCI.slice(0, 5), ...legal.uci], 'the viewed line is the better line');
      assert.deepEqual(await mainlineUci(page), SCHOLAR_UCI, 'the game keeps its moves');
      assert.equal(await page.locator(`[data-testid="variation-move"][data-uci="${best}"]`).count(), 1, 'the better move is a variation in the move list');
      assert.ok(sameFen(await page.evaluate(() => window.axonTest.fen()), (await native.replay(START_FEN, [...SCHOLAR_UCI.slice(0, 5), ...legal.uci])).fen));
      await page.keyboard.press('ArrowRight');
      assert.equal(await viewPly(page), 7, 'the arrow keys step through the line');
      const pgn = await page.evaluate(() => window.axonTest.pgn());
      // (each reviewed move carries its [%eval] comment)
      const comment = '(?:\\{ [^}]* \\} )?';
      assert.match(pgn, new RegExp(`3\\. Bc4 ${comment}Nf6 ${comment}\\( 3\\.\\.\\. ${sans[0].replace(/[+]/g, '\\+')} `), 'the variation is in the PGN');
    });
  });

  test('nothing reviewed is lost: [%eval] exported and read back; summary and marks after a reload and from the library', async () => {
    await withShot(page, 'review-kept', async () => {
      const marksOf = () => page.locator('[data-testid="move"]:has([data-testid="review-mark"])').evaluateAll((els) =>
        els.map((e) => `${e.dataset.ply}:${e.querySelector('[data-testid="review-mark"]').dataset.kind}`));
      const accuracyOf = () => tid(page, 'review-accuracy').evaluateAll((els) => els.map((e) => e.dataset.value));
      const marks = await marksOf();
      const accuracy = await accuracyOf();
      assert.ok(marks.includes('6:blunder'), `marks before: ${marks}`);
      const exported = await page.evaluate(() => window.axonTest.pgn());
      // Every reviewed main-line move up to the variation carries the review's score.
      const mainPart = (pgn) => pgn.split('\n\n')[1].split(' ( ')[0];
      const evals = mainPart(exported).match(/\[%eval [^\]]+\]/g) ?? [];
      log('[review] exported main line', mainPart(exported));
      assert.equal(evals.length, 6, `[%eval] on 1. e4 .. 3... Nf6: ${mainPart(exported)}`);
      await page.reload({ waitUntil: 'load' });
      await waitForTestHook(page);
      await page.waitForFunction(() => document.querySelector('[data-testid="review-summary"]')?.dataset.state === 'done', null, { timeout: T.ui });
      assert.deepEqual(await marksOf(), marks, 'marks after a reload');
      assert.deepEqual(await accuracyOf(), accuracy, 'accuracy after a reload');
      // The reviewed game from the library (another game on the board first): marks and summary with it.
      await importPgn(page, '1. d4 d5 *');
      assert.equal(await page.evaluate(() => document.querySelector('[data-testid="review-summary"]').dataset.state ?? ''), '', 'a new game: no review summary');
      await page.locator('[data-testid="library-item"]', { hasText: 'A – B' }).first().locator('[data-testid="library-open"]').click({ timeout: T.ui });
      await page.waitForFunction(() => document.querySelector('[data-testid="review-summary"]')?.dataset.state === 'done', null, { timeout: T.ui });
      assert.deepEqual(await marksOf(), marks, 'marks of the game opened from the library');
      assert.deepEqual(await accuracyOf(), accuracy, 'accuracy of the game opened from the library');
      // The export imported again: the scores come back from its [%eval] comments (eval graph drawn).
      await importPgn(page, exported.replace('[Event "review test"]', '[Event "review test, again"]'));
      assert.equal(mainPart(await page.evaluate(() => window.axonTest.pgn())), mainPart(exported), 'the scores are read back and written again');
      assert.equal(await tid(page, 'eval-graph').evaluate((e) => e.classList.contains('empty')), false, 'the eval graph draws the imported scores');
    });
  });

  test('opening names by position: a transposition in analysis, the viewed move, the library', async () => {
    await withShot(page, 'openings', async () => {
      // The English that becomes a Nimzo-Indian, and a second game that goes to the library.
      await importPgn(page, '[Event "opening test"]\n[White "C"]\n[Black "D"]\n\n1. c4 Nf6 2. Nc3 e6 3. d4 Bb4 *\n\n[Event "second"]\n[White "E"]\n[Black "F"]\n\n1. e4 c5 2. Nf3 *\n');
      const name = tid(page, 'opening-name');
      await page.waitForFunction(() => document.querySelector('[data-testid="opening-name"]')?.textContent === 'E20 Nimzo-Indian Defense', null, { timeout: T.ui })
        .catch(async () => { throw new Error(`opening shown: ${await name.textContent()}`); });
      assert.equal(await name.getAttribute('data-eco'), 'E20');
      await page.locator('[data-testid="move"][data-ply="2"]').click({ timeout: T.ui });
      assert.match(await name.textContent(), /^A1\d English Opening/, 'after 1. c4 Nf6 the line is still an English');
      await page.keyboard.press('Home');
      assert.equal(await name.isVisible(), false, 'no name for the start position');
      // The library keeps the main line's opening, for the game on the board and the one imported beside it.
      const item = (title) => page.locator('[data-testid="library-item"]', { hasText: title }).locator('[data-testid="library-opening"]');
      await item('C – D').waitFor({ state: 'visible', timeout: T.ui });
      assert.equal(await item('C – D').textContent(), 'E20 Nimzo-Indian Defense');
      assert.equal(await item('E – F').textContent(), 'B27 Sicilian Defense');
    });
  });

  test('a bad FEN is refused in words, without chessops\' error codes', async () => {
    await withShot(page, 'fen-error', async () => {
      await tid(page, 'mode-analysis').click({ timeout: T.ui });
      for (const [fen, words] of [
        ['rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', /the board must be 8 ranks/],
        ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x', /more after the move number/],
        ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1', /exactly one king/],
      ]) {
        await page.evaluate(() => { document.getElementById('toast').textContent = ''; });
        await tid(page, 'fen-input').fill(fen, { timeout: T.ui });
        await tid(page, 'fen-load').click({ timeout: T.ui });
        await page.waitForFunction(() => document.getElementById('toast').textContent !== '', null, { timeout: T.ui });
        const said = await page.evaluate(() => document.getElementById('toast').textContent);
        log(`[review] FEN ${fen}: ${said}`);
        assert.match(said, /^Cannot load: /);
        assert.match(said, words);
        assert.doesNotMatch(said, /ERR_/);
      }
    });
  });

  test('play: a custom clock, tenths under ten seconds, Axon takes a human time, its search hidden unless asked', async () => {
    await withShot(page, 'play-clock', async () => {
      await tid(page, 'mode-play').click({ timeout: T.ui });
      await choose(page, 'color-select', 'white');
      if (await tid(page, 'full-strength').isChecked()) await tid(page, 'full-strength').uncheck({ timeout: T.ui });
      // Custom time control: a bad one is refused with a reason, 0.25 + 0 (15 s) is taken.
      await choose(page, 'tc-select', 'custom');
      await tid(page, 'tc-custom').waitFor({ state: 'visible', timeout: T.ui });
      await tid(page, 'tc-minutes').fill('0.1', { timeout: T.ui });
      await tid(page, 'tc-increment').fill('0', { timeout: T.ui });
      await tid(page, 'tc-custom-apply').click({ timeout: T.ui });
      assert.match(await text(page, 'tc-custom-error'), /At least 15 seconds/);
      assert.equal(await tid(page, 'tc-minutes').getAttribute('aria-invalid'), 'true');
      await tid(page, 'tc-minutes').fill('0.25', { timeout: T.ui });
      await tid(page, 'tc-custom-apply').click({ timeout: T.ui });
      await tid(page, 'tc-custom').waitFor({ state: 'hidden', timeout: T.ui });
      assert.equal(await tid(page, 'tc-select').inputValue(), '0.25+0');
      await tid(page, 'new-game').click({ timeout: T.ui });
      await page.waitForFunction(() => window.axonTest.movesUci().length === 0, null, { timeout: T.ui });
      assert.equal(await text(page, 'clock-white'), '0:15');
      // Axon's search is hidden in the game: the dashboard writes nothing while it thinks.
      const dashboard = tid(page, 'dashboard');
      assert.equal(await tid(page, 'show-engine-eval').isChecked(), false);
      assert.equal(await dashboard.getAttribute('data-concealed'), 'true');
      assert.equal(await tid(page, 'dash-concealed').isVisible(), true);
      await clickMove(page, 'e2', 'e4');
      await waitForPlies(page, 1, T.ui);
      const moves = await waitForPlies(page, 2);
      assert.ok((await native.replay(START_FEN, moves)).ok, `the reply ${moves[1]} is legal`);
      assert.equal(await text(page, 'dash-score'), '–', 'no score shown during the game');
      assert.equal(await text(page, 'dash-pv'), '', 'no line shown during the game');
      // Not instant: the limited-strength reply waited its human time (at least 0.4 s, at most half the clock).
      const [reply] = await page.evaluate(() => window.axonTest.engineMoves());
      log('[review] limited-strength reply', reply);
      assert.ok(reply.thinkMs >= 400 && reply.thinkMs <= 7500, `planned think time ${reply.thinkMs} ms`);
      assert.ok(reply.ms >= reply.thinkMs - 5, `replied after ${reply.ms} ms, planned ${reply.thinkMs} ms`);
      // Asked for, the search shows (its latest line); unticked, it hides again; the choice is remembered.
      await tid(page, 'show-engine-eval').check({ timeout: T.ui });
      assert.equal(await dashboard.getAttribute('data-concealed'), 'false');
      await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="dash-score"]').textContent), null, { timeout: T.ui });
      assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('axon.settings.v1')).showEngineEval), true);
      await tid(page, 'show-engine-eval').uncheck({ timeout: T.ui });
      assert.equal(await dashboard.getAttribute('data-concealed'), 'true');
      assert.equal(await text(page, 'dash-score'), '–');
      assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('axon.settings.v1')).showEngineEval), false);
      // The user's clock runs from 15 s; under 10 s it shows tenths, which count down.
      const clock = tid(page, 'clock-white');
      await page.waitForFunction(() => /^0:0\d\.\d$/.test(document.querySelector('[data-testid="clock-white"]').textContent), null, { timeout: 8000, polling: 50 });
      const first = await clock.evaluate((e) => ({ text: e.textContent, ms: Number(e.dataset.ms) }));
      assert.equal(first.text, `0:0${Math.floor(Math.ceil(first.ms / 100) / 10)}.${Math.ceil(first.ms / 100) % 10}`, `text ${first.text} for ${first.ms} ms`);
      await page.waitForFunction((was) => {
        const e = document.querySelector('[data-testid="clock-white"]');
        return /^0:0\d\.\d$/.test(e.textContent) && e.textContent !== was;
      }, first.text, { timeout: 1000, polling: 20 });
      const next = await clock.textContent();
      log(`[review] clock ${first.text} (${first.ms} ms) then ${next}`);
      assert.ok(Number(next.slice(2)) < Number(first.text.slice(2)), `${first.text} then ${next}`);
      assert.equal(await tid(page, 'clock-black').textContent().then((t) => /^0:1[0-5]$/.test(t)), true, 'Axon\'s clock, above ten seconds, has no tenths');
      await tid(page, 'resign').click({ timeout: T.ui });
      await tid(page, 'resign').click({ timeout: T.ui });
      await page.waitForFunction(() => /Resigned/.test(document.querySelector('[data-testid="status-banner"]').textContent), null, { timeout: T.ui });
    });
  });

  test('no uncaught exceptions in the page', () => {
    assert.deepEqual(page.axonErrors, []);
  });
});

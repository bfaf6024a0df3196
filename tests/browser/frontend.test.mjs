// SPDX-License-Identifier: GPL-3.0-or-later
// The web front end in a real Chromium, once per way it can be served: by `axon serve` (server
// engine), by a plain static server (WASM engine, single-threaded build) and by a static server
// sending COOP/COEP (WASM engine, threaded build). A short game by real clicks and drags with
// every engine reply checked by the native engine, promotion through the picker, game-over
// banners from FEN, PGN export, analysis PV. scripts/browser-test.sh sets the URLs.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, openPage, tid, screenshot, withShot, clickMove, dragMove, settleBoard, squareCentre, movesUci, pageFen,
  waitForTestHook, waitForPlies, waitForEngineState, choose, optionValues, loadFen, banner,
  waitForBanner, log, T,
} from './lib/browser.mjs';
import { NativeEngine, START_FEN, sameFen } from './lib/native.mjs';
import { WsReferee } from './lib/ws-referee.mjs';
// The move tree, PGN, storage and reconnection tests (once, not per mode).
import './game-record.test.mjs';
// Review, opening names, the clock and the opponent (once, on the axon serve page).
import './review-clock.test.mjs';
// Deep analysis: past the server's cap, live progress, sorted lines, Go deeper, Hash and Threads
// (an axon serve of its own), and live progress in the threaded WASM build.
import './deep-analysis.test.mjs';
// Arrows saved and drawn, moves on earlier positions, imports mid-game, resuming from the library.
import './kept.test.mjs';
// The board editor (an edited position played) and Chess960 starts.
import './editor.test.mjs';
// Piece sets, board colours, coordinates, and the phone layout.
import './looks.test.mjs';
// Puzzles: solved and failed with the rating, a CSV import.
import './puzzles.test.mjs';
// The opening explorer: a PGN database and the library indexed, a query, a click.
import './explorer.test.mjs';

const AXON_BIN = process.env.AXON_BIN;
const SERVER_URL = process.env.AXON_SERVER_URL; // axon serve, also the SAN referee
const USER_MOVES = Number(process.env.AXON_GAME_MOVES || 4);

const MODES = [
  { name: 'server', url: SERVER_URL && `${SERVER_URL}?engine=server`, engine: 'server', build: 'native', color: 'white' },
  { name: 'wasm-st', url: process.env.AXON_STATIC_URL, engine: 'wasm', build: 'st', color: 'black' },
  { name: 'wasm-mt', url: process.env.AXON_COI_URL, engine: 'wasm', build: 'mt', color: 'white' },
];

// Opening moves tried in this order; the first legal one is played (the engine's replies vary).
const PREFERRED = {
  white: ['e2e4', 'g1f3', 'd2d4', 'b1c3', 'f1e2', 'e1g1', 'c2c3', 'h2h3', 'a2a3'],
  black: ['e7e5', 'g8f6', 'd7d5', 'b8c6', 'f8e7', 'e8g8', 'c7c6', 'h7h6', 'a7a6'],
};

const SAN_RE = /^(O-O(-O)?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](x[a-h])?[1-8](=[QRBN])?)[+#]?$/;
const stripSan = (s) => s.trim().replace(/[!?]+$/, '');

let native = null;
async function referee() {
  if (!native) {
    assert.ok(AXON_BIN, 'AXON_BIN (the native axon binary, the legality referee) is not set');
    native = new NativeEngine(AXON_BIN);
    await native.init();
  }
  return native;
}
after(async () => { if (native) await native.quit(); });

// Checks a whole move list from `startFen` with the native engine; returns the final position.
async function assertLegalLine(startFen, moves, what) {
  const r = await (await referee()).replay(startFen, moves);
  assert.ok(r.ok, `${what}: native engine refuses the move list ${moves.join(' ')}: ${r.error}`);
  return r;
}

function parseTc(v) {
  const m = /^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(v);
  return m ? { value: v, baseMs: Number(m[1]) * 60000, incMs: Number(m[2]) * 1000 } : null;
}

async function moveListDom(page) {
  return tid(page, 'move').evaluateAll((els) => els
    .map((e) => ({ ply: Number(e.getAttribute('data-ply')), uci: e.getAttribute('data-uci'), san: e.textContent.trim() }))
    .sort((a, b) => a.ply - b.ply));
}

// The static site without its engine files: the page must say so, not wait forever.
const noEngineSkip = !process.env.AXON_NOENGINE_URL ? 'AXON_NOENGINE_URL not set'
  : process.env.AXON_MODES && !process.env.AXON_MODES.split(',').includes('no-engine') ? 'left out by AXON_MODES' : false;
describe('front end, static page without the engine files', { skip: noEngineSkip }, () => {
  let browser, page;
  before(async () => {
    browser = await launch();
    page = await openPage(browser, process.env.AXON_NOENGINE_URL, 'no-engine');
  });
  after(async () => { if (browser) await browser.close(); });

  test('the engine status turns to error; the board still takes moves in analysis', async () => {
    await withShot(page, 'no-engine', async () => {
      await waitForTestHook(page);
      await waitForEngineState(page, ['error', 'ready']);
      const st = tid(page, 'engine-status');
      assert.equal(await st.getAttribute('data-state'), 'error', 'engine-status data-state with no engine files');
      await tid(page, 'mode-analysis').click({ timeout: T.ui });
      await loadFen(page, START_FEN);
      await clickMove(page, 'e2', 'e4');
      await waitForPlies(page, 1, T.ui);
      assert.deepEqual(await movesUci(page), ['e2e4']);
    });
  });
});

const ONLY = process.env.AXON_MODES ? process.env.AXON_MODES.split(',') : null;
for (const mode of MODES) if (ONLY && !ONLY.includes(mode.name)) mode.url = undefined;

for (const mode of MODES) {
  describe(`front end, ${mode.name}`, { skip: mode.url ? false : `no URL for ${mode.name} (not served by the runner, or left out by AXON_MODES)` }, () => {
    let browser, page;
    const game = { played: false, moves: [], tc: null };
    const shot = (name) => `${mode.name}-${name}`;

    before(async () => {
      browser = await launch();
      page = await openPage(browser, mode.url, mode.name);
      log(`[${mode.name}] opened ${mode.url}`);
    });
    after(async () => { if (browser) await browser.close(); });

    test('loads; the engine status names the expected engine and build and becomes ready', async () => {
      await withShot(page, shot('loaded'), async () => {
        await waitForTestHook(page);
        await tid(page, 'board').waitFor({ state: 'visible', timeout: T.load });
        await waitForEngineState(page, ['ready']);
        const st = tid(page, 'engine-status');
        assert.equal(await st.getAttribute('data-engine'), mode.engine, 'engine-status data-engine');
        assert.equal(await st.getAttribute('data-build'), mode.build, 'engine-status data-build');
        if (mode.build === 'mt') assert.equal(await page.evaluate(() => self.crossOriginIsolated), true, 'page is cross-origin isolated');
        assert.equal((await banner(page)).visible, false, 'no status banner before a game');
      });
    });

    test(`plays a short game as ${mode.color} by clicks and drags; every engine reply is legal and in time`, async () => {
      await withShot(page, shot('game'), async () => {
        await tid(page, 'mode-play').click({ timeout: T.ui });
        await choose(page, 'color-select', mode.color);
        const tcs = (await optionValues(page, 'tc-select')).map(parseTc).filter(Boolean);
        assert.ok(tcs.length > 0, 'tc-select offers no m+s time control');
        const tc = tcs.sort((a, b) => a.baseMs + 40 * a.incMs - (b.baseMs + 40 * b.incMs))[0];
        game.tc = tc;
        await choose(page, 'tc-select', tc.value);
        // Full strength: the engine manages its clock rather than a weakened quick search.
        const full = tid(page, 'full-strength');
        if ((await full.count()) > 0) await full.check({ timeout: T.ui });
        else {
          // The contract's other form: the slider's top end means full strength.
          await tid(page, 'elo-slider').evaluate((e) => {
            e.value = e.max;
            e.dispatchEvent(new Event('input', { bubbles: true }));
            e.dispatchEvent(new Event('change', { bubbles: true }));
          }, null, { timeout: T.ui });
        }
        await tid(page, 'new-game').click({ timeout: T.ui });
        const board = tid(page, 'board');
        await page.waitForFunction((c) => document.querySelector('[data-testid="board"]')?.getAttribute('data-orientation') === c,
          mode.color, { timeout: T.ui });
        // New game: start position, or the engine's first move when the user has black.
        await page.waitForFunction((f) => window.axonTest.movesUci().length <= 1
          && (window.axonTest.movesUci().length === 1 || window.axonTest.fen() === f), START_FEN, { timeout: T.ui });
        let moves = mode.color === 'black' ? await waitForPlies(page, 1) : await movesUci(page);
        if (mode.color === 'white') assert.deepEqual(moves, [], 'a new game as white starts with no moves');
        log(`[${mode.name}] time control ${tc.value}`);

        const observed = [];
        for (let i = 0; i < USER_MOVES; i++) {
          const pos = await assertLegalLine(START_FEN, moves, 'before the user move');
          if (pos.legal.length === 0 || (await banner(page)).visible) break; // game over early
          assert.ok(sameFen(await pageFen(page), pos.fen), `page FEN ${await pageFen(page)} differs from native ${pos.fen}`);
          assert.equal(await board.getAttribute('data-fen').then((f) => f && sameFen(f, pos.fen)), true, 'board data-fen is the position');
          const mv = PREFERRED[mode.color].find((m) => pos.legal.includes(m)) ?? pos.legal.find((m) => m.length === 4);
          const how = i % 2 === 0 ? 'click' : 'drag';
          const len = moves.length;
          const t0 = Date.now();
          await (how === 'click' ? clickMove : dragMove)(page, mv.slice(0, 2), mv.slice(2, 4));
          moves = await waitForPlies(page, len + 1, T.ui).catch(() => {
            throw new Error(`the user move ${mv} by ${how} was not taken (moves ${moves.join(' ')})`);
          });
          assert.equal(moves[len], mv, `user move by ${how}`);
          log(`[${mode.name}] user ${how} ${mv}`);
          const after = await assertLegalLine(START_FEN, moves.slice(0, len + 1), 'after the user move');
          if (after.legal.length === 0) break;
          moves = await waitForPlies(page, len + 2);
          // An upper bound of the reply's latency, measured by the test independently of the page's
          // own engineMoves().ms: from before the user's mouse move to the reply seen in the page.
          observed.push(Date.now() - t0);
          assert.equal(moves.length, len + 2, `one engine reply to ${mv}, got ${moves.slice(len + 1).join(' ')}`);
          const reply = moves[len + 1];
          const checked = await assertLegalLine(START_FEN, moves, `engine reply ${reply}`);
          await page.waitForFunction((want) => {
            const f = window.axonTest.fen().trim().split(/\s+/);
            return f[0] === want[0] && f[1] === want[1];
          }, checked.fen.split(' '), { timeout: T.ui }).catch(() => {});
          assert.ok(sameFen(await pageFen(page), checked.fen), `page FEN after ${reply}: ${await pageFen(page)}, native ${checked.fen}`);
          assert.equal(await board.getAttribute('data-last-move'), reply, 'board data-last-move after the engine reply');
          log(`[${mode.name}] engine ${reply}`);
        }
        game.moves = moves;
        game.played = true;
        assert.ok(moves.length >= 2 * Math.min(USER_MOVES, 2), `too short a game: ${moves.join(' ')}`);

        // Engine replies: each recorded, legal from its recorded position, and in time.
        const em = await page.evaluate(() => window.axonTest.engineMoves());
        log(`[${mode.name}] engine moves`, em);
        const enginePlies = moves.map((m, i) => ({ m, i })).filter(({ i }) => (i % 2 === 0) === (mode.color === 'black'));
        assert.equal(em.length, enginePlies.length, 'engineMoves() has one entry per engine move');
        let total = 0;
        for (let k = 0; k < em.length; k++) {
          const { m, i } = enginePlies[k];
          assert.equal(em[k].uci, m, `engineMoves()[${k}].uci`);
          const before = await assertLegalLine(START_FEN, moves.slice(0, i), 'fenBefore');
          assert.ok(sameFen(em[k].fenBefore, before.fen), `engineMoves()[${k}].fenBefore ${em[k].fenBefore}, native ${before.fen}`);
          assert.ok(Number.isFinite(em[k].ms) && em[k].ms >= 0, `engineMoves()[${k}].ms is ${em[k].ms}`);
          total += em[k].ms;
          // The clock the engine had for this move: base + increments of its earlier moves.
          assert.ok(total <= tc.baseMs + k * tc.incMs, `engine used ${total} ms by its move ${k + 1}: over the ${tc.value} time control`);
        }
        const slackMs = 250 * observed.length;
        const observedTotal = observed.reduce((a, b) => a + b, 0);
        assert.ok(observedTotal <= tc.baseMs + observed.length * tc.incMs + slackMs,
          `the replies took ${observedTotal} ms as the test saw them: over the ${tc.value} time control`);
        const b = await banner(page);
        assert.ok(!b.visible || !/Time/.test(b.text), `the game ended on time: ${b.text}`);
        const engineClock = tid(page, mode.color === 'white' ? 'clock-black' : 'clock-white');
        const ms = Number(await engineClock.getAttribute('data-ms'));
        assert.ok(ms > 0, `engine clock data-ms is ${ms}`);
        // The engine's clock was charged at least about the time it thought (the page measures
        // from its request, the clock from the turn's start: some tens of ms apart per move).
        const clockBound = tc.baseMs + em.length * tc.incMs - (total / 2 - 100);
        assert.ok(ms <= clockBound, `engine clock shows ${ms} ms after thinking ${total} ms: more than ${clockBound}`);
        log(`[${mode.name}] game ${moves.join(' ')}; engine ms (page) ${em.map((e) => e.ms).join(',')};`
          + ` user move to reply seen by the test ${observed.join(',')}; engine clock ${ms}`);
      });
    });

    test('PGN export equals the moves played', async () => {
      assert.ok(game.played, 'no game was played (the game test failed)');
      await withShot(page, shot('pgn'), async () => {
        assert.deepEqual(await movesUci(page), game.moves, 'the move list is still the game');
        const dom = await moveListDom(page);
        assert.deepEqual(dom.map((d) => d.ply), game.moves.map((_, i) => i + 1), 'move-list data-ply');
        assert.deepEqual(dom.map((d) => d.uci), game.moves, 'move-list data-uci');
        await tid(page, 'pgn-export').click({ timeout: T.ui });
        const text = tid(page, 'pgn-text');
        await page.waitForFunction(() => /\d\./.test(document.querySelector('[data-testid="pgn-text"]')?.value ?? ''), null, { timeout: T.ui });
        const pgn = await text.inputValue();
        log(`[${mode.name}] PGN`, pgn);
        const movetext = pgn.replace(/^\s*\[.*\]\s*$/gm, ' ').replace(/\{[^}]*\}/g, ' ').replace(/;[^\n]*/g, ' ');
        const sans = movetext.split(/\s+/).map((t) => t.replace(/^\d+\.(\.\.)?/, '')).filter((t) => t && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t) && !/^\$\d+$/.test(t));
        assert.deepEqual(sans.map(stripSan), dom.map((d) => stripSan(d.san)), 'PGN SAN equals the move list SAN');
        if (SERVER_URL) {
          const ws = await WsReferee.open(SERVER_URL, browser);
          try {
            assert.deepEqual(await ws.pgnToUci(pgn), game.moves, 'the PGN read by axon serve is the game played');
          } finally { await ws.close(); }
        }
        assert.match(pgn, /\[Result "/, 'PGN has a Result tag');
      });
    });

    test('takeback undoes the engine reply and the user move; resign ends the game', async () => {
      assert.ok(game.played, 'no game was played (the game test failed)');
      await withShot(page, shot('takeback-resign'), async () => {
        const n = game.moves.length;
        await tid(page, 'takeback').click({ timeout: T.ui });
        await page.waitForFunction((k) => window.axonTest.movesUci().length === k, n - 2, { timeout: T.ui });
        assert.deepEqual(await movesUci(page), game.moves.slice(0, n - 2));
        const pos = await assertLegalLine(START_FEN, game.moves.slice(0, n - 2), 'after takeback');
        assert.ok(sameFen(await pageFen(page), pos.fen), `page FEN after takeback ${await pageFen(page)}, native ${pos.fen}`);
        assert.equal((await banner(page)).visible, false, 'no banner after a takeback');
        // Resign asks first: one click arms it (no banner yet), the second resigns.
        await tid(page, 'resign').click({ timeout: T.ui });
        assert.equal(await tid(page, 'resign').getAttribute('data-confirm'), 'true', 'the first click asks for confirmation');
        assert.equal((await banner(page)).visible, false, 'one click does not resign');
        await tid(page, 'resign').click({ timeout: T.ui });
        const b = await waitForBanner(page, 'Resigned');
        assert.equal(b.result, mode.color === 'white' ? '0-1' : '1-0', `result after ${mode.color} resigns`);
      });
    });

    test('promotion through the picker (underpromotion to a knight, by drag)', async () => {
      await withShot(page, shot('promotion'), async () => {
        await tid(page, 'mode-analysis').click({ timeout: T.ui });
        const fen = '8/4P1k1/8/8/8/8/8/4K3 w - - 0 1';
        await loadFen(page, fen);
        await dragMove(page, 'e7', 'e8');
        const picker = tid(page, 'promotion-picker');
        await picker.waitFor({ state: 'visible', timeout: T.ui });
        await screenshot(page, shot('promotion-picker'));
        assert.deepEqual(await movesUci(page).then((m) => m.length), 0, 'no move is made before a piece is picked');
        await tid(page, 'promote-n').click({ timeout: T.ui });
        await waitForPlies(page, 1, T.ui);
        assert.deepEqual((await movesUci(page)).slice(0, 1), ['e7e8n']);
        await picker.waitFor({ state: 'hidden', timeout: T.ui });
        const expected = await assertLegalLine(fen, ['e7e8n'], 'promotion');
        assert.ok(sameFen(await pageFen(page), expected.fen) || (await pageFen(page)).startsWith('4N3/6k1/'),
          `page FEN after e8=N ${await pageFen(page)}, native ${expected.fen}`);
        assert.equal(await tid(page, 'board').getAttribute('data-last-move'), 'e7e8n');
        const dom = await moveListDom(page);
        assert.equal(stripSan(dom[0].san).replace(/^\d+\.\s*/, ''), 'e8=N+', 'SAN of the underpromotion');
      });
    });

    test('checkmate from FEN shows the Checkmate banner, 1-0', async () => {
      await withShot(page, shot('checkmate-fen'), async () => {
        await tid(page, 'mode-analysis').click({ timeout: T.ui });
        await loadFen(page, '7k/6Q1/6K1/8/8/8/8/8 b - - 0 1');
        const b = await waitForBanner(page, 'Checkmate');
        assert.equal(b.result, '1-0');
      });
    });

    test('stalemate from FEN shows the Stalemate banner, 1/2-1/2', async () => {
      await withShot(page, shot('stalemate-fen'), async () => {
        await tid(page, 'mode-analysis').click({ timeout: T.ui });
        await loadFen(page, '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1');
        const b = await waitForBanner(page, 'Stalemate');
        assert.equal(b.result, '1/2-1/2');
        assert.ok(!/Checkmate/.test(b.text), `banner says ${b.text}`);
      });
    });

    test('bare kings from FEN show the Insufficient material banner, 1/2-1/2', async () => {
      await withShot(page, shot('insufficient-fen'), async () => {
        await tid(page, 'mode-analysis').click({ timeout: T.ui });
        await loadFen(page, '8/8/8/4k3/8/8/8/4K3 w - - 0 1');
        const b = await waitForBanner(page, 'Insufficient material');
        assert.equal(b.result, '1/2-1/2');
      });
    });

    test('a mating move by click ends the game with the Checkmate banner; a fresh FEN hides it', async () => {
      await withShot(page, shot('checkmate-move'), async () => {
        await tid(page, 'mode-analysis').click({ timeout: T.ui });
        await loadFen(page, '7k/5Q2/6K1/8/8/8/8/8 w - - 0 1');
        assert.equal((await banner(page)).visible, false, 'no banner in a live position');
        await clickMove(page, 'f7', 'g7');
        await waitForPlies(page, 1, T.ui);
        const b = await waitForBanner(page, 'Checkmate');
        assert.equal(b.result, '1-0');
        await loadFen(page, START_FEN);
        await page.waitForFunction(() => {
          const e = document.querySelector('[data-testid="status-banner"]');
          return !e || e.getBoundingClientRect().height === 0 || getComputedStyle(e).visibility === 'hidden';
        }, null, { timeout: T.ui });
      });
    });

    test('analysis shows a legal PV, an eval and a depth', async () => {
      await withShot(page, shot('analysis'), async () => {
        await tid(page, 'mode-analysis').click({ timeout: T.ui });
        const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
        await loadFen(page, fen);
        await page.waitForFunction(() => {
          const l = document.querySelector('[data-testid="pv-line"][data-multipv="1"]') ?? document.querySelector('[data-testid="pv-line"]');
          const d = Number(document.querySelector('[data-testid="dash-depth"]')?.textContent.match(/\d+/)?.[0] ?? 0);
          return l && /[a-h][1-8]/.test(l.textContent) && d >= 3;
        }, null, { timeout: T.engine, polling: 100 });
        // The moves alone when the line has a part for them (the score is beside them, unspaced).
        const text = await page.evaluate(() => {
          const l = document.querySelector('[data-testid="pv-line"][data-multipv="1"]') ?? document.querySelector('[data-testid="pv-line"]');
          return (l.querySelector('.pv-moves') ?? l).textContent;
        });
        log(`[${mode.name}] PV`, text);
        const tokens = text.split(/\s+/).map((t) => t.replace(/^\d+\.(\.\.)?/, '')).filter(Boolean);
        const start = tokens.findIndex((t) => SAN_RE.test(t));
        assert.ok(start >= 0, `no SAN move in the PV text ${JSON.stringify(text)}`);
        const sans = [];
        for (const t of tokens.slice(start)) { if (!SAN_RE.test(t)) break; sans.push(t); }
        if (SERVER_URL) {
          const ws = await WsReferee.open(SERVER_URL, browser);
          try {
            const r = await ws.sanLine(fen, sans);
            assert.ok(r.ok, `PV ${sans.join(' ')} is not legal from the position: ${r.error}`);
          } finally { await ws.close(); }
        }
        const score = await tid(page, 'eval-bar').getAttribute('data-score');
        assert.match(score ?? '', /^-?(\d+|M\d+)$/, `eval-bar data-score ${score}`);
      });
    });

    test('analysis follows a move made while the engine is searching', async () => {
      await withShot(page, shot('analysis-move'), async () => {
        await tid(page, 'mode-analysis').click({ timeout: T.ui });
        const pvText = () => page.evaluate(() => {
          const l = document.querySelector('[data-testid="pv-line"][data-multipv="1"]') ?? document.querySelector('[data-testid="pv-line"]');
          return l ? (l.querySelector('.pv-moves') ?? l).textContent : '';
        });
        const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
        await loadFen(page, fen);
        await page.waitForFunction(() => /[a-h][1-8]/.test(document.querySelector('[data-testid="pv-line"]')?.textContent ?? ''), null, { timeout: T.engine });
        const before = await pvText();
        // The search of the first position is still running (analysis is unbounded or long).
        await clickMove(page, 'f1', 'c4');
        await waitForPlies(page, 1, T.ui);
        const next = await assertLegalLine(fen, ['f1c4'], 'analysis move');
        await page.waitForFunction((old) => {
          const l = document.querySelector('[data-testid="pv-line"][data-multipv="1"]') ?? document.querySelector('[data-testid="pv-line"]');
          const t = l ? (l.querySelector('.pv-moves') ?? l).textContent : '';
          return /[a-h][1-8]/.test(t) && t !== old;
        }, before, { timeout: T.engine, polling: 100 });
        const text = await pvText();
        const sans = text.split(/\s+/).map((t) => t.replace(/^\d+\.(\.\.)?/, '')).filter((t) => SAN_RE.test(t));
        log(`[${mode.name}] PV before ${before}; after Bc4 ${text}`);
        assert.ok(sans.length > 0, `no SAN in the PV ${JSON.stringify(text)}`);
        if (SERVER_URL) {
          const ws = await WsReferee.open(SERVER_URL, browser);
          try {
            const r = await ws.sanLine(next.fen, sans);
            assert.ok(r.ok, `the PV shown after Bc4 (${sans.join(' ')}) is not legal after Bc4: ${r.error}`);
          } finally { await ws.close(); }
        }
      });
    });

    test('takeback while the engine thinks stops it; the next game gets its replies', async () => {
      await withShot(page, shot('takeback-thinking'), async () => {
        await tid(page, 'mode-play').click({ timeout: T.ui });
        await choose(page, 'color-select', 'white');
        const tcs = (await optionValues(page, 'tc-select')).map(parseTc).filter(Boolean)
          .sort((a, b) => a.baseMs + 40 * a.incMs - (b.baseMs + 40 * b.incMs));
        const full = tid(page, 'full-strength');
        const hasFull = (await full.count()) > 0;
        // A long time control at full strength: the engine thinks long enough to be caught.
        await choose(page, 'tc-select', tcs[tcs.length - 1].value);
        if (hasFull) await full.check({ timeout: T.ui });
        await tid(page, 'new-game').click({ timeout: T.ui });
        await page.waitForFunction((f) => window.axonTest.fen() === f, START_FEN, { timeout: T.ui });
        await clickMove(page, 'e2', 'e4');
        await waitForPlies(page, 1, T.ui);
        await waitForEngineState(page, ['thinking'], T.ui);
        const plies = (await movesUci(page)).length;
        assert.equal(plies, 1, 'the engine replied before the test could take back: it did not think');
        await tid(page, 'takeback').click({ timeout: T.ui });
        await page.waitForFunction(() => window.axonTest.movesUci().length === 0, null, { timeout: T.ui });
        await waitForEngineState(page, ['ready'], T.engine);
        // The stopped search must not play its move afterwards.
        assert.deepEqual(await movesUci(page), [], 'a move appeared after the takeback');
        await choose(page, 'tc-select', tcs[0].value);
        if (hasFull) await full.uncheck({ timeout: T.ui });
        await tid(page, 'new-game').click({ timeout: T.ui });
        await page.waitForFunction((f) => window.axonTest.fen() === f && window.axonTest.movesUci().length === 0, START_FEN, { timeout: T.ui });
        await dragMove(page, 'd2', 'd4');
        const moves = await waitForPlies(page, 2);
        assert.equal(moves[0], 'd2d4');
        await assertLegalLine(START_FEN, moves, 'reply after a stopped search');
        assert.equal(moves.length, 2, `moves ${moves.join(' ')}`);
      });
    });

    // One mode is enough: this is the page's layout, not its engine.
    if (mode === MODES.find((m) => m.url)) {
      test('a click right after switching play -> analysis lands on the square under the pointer', async () => {
        await withShot(page, shot('mode-switch-click'), async () => {
          await tid(page, 'mode-play').click({ timeout: T.ui });
          await choose(page, 'color-select', 'white');
          await tid(page, 'new-game').click({ timeout: T.ui });
          await page.waitForFunction((f) => window.axonTest.fen() === f && window.axonTest.movesUci().length === 0, START_FEN, { timeout: T.ui });
          await page.evaluate(() => window.scrollTo(0, 0));
          await settleBoard(page);
          const before = await tid(page, 'board').locator('cg-board').boundingBox();
          await tid(page, 'mode-analysis').click({ timeout: T.ui });
          const afterBox = await tid(page, 'board').locator('cg-board').boundingBox();
          log(`[${mode.name}] board box in play ${JSON.stringify(before)}, in analysis ${JSON.stringify(afterBox)}`);
          // A user who does not scroll: no bounds refresh by the test.
          await clickMove(page, 'e2', 'e4', { refreshBounds: false });
          await waitForPlies(page, 1, T.ui).catch(() => {
            throw new Error(`e2-e4 by clicks was not taken after the mode switch: the board moved from x=${before.x},y=${before.y}`
              + ` to x=${afterBox.x},y=${afterBox.y} and chessground still maps clicks with its old bounds`
              + ' (fix: clear chessground\'s bounds, e.g. api.redrawAll() or state.dom.bounds.clear(), after a layout change)');
          });
          assert.deepEqual(await movesUci(page), ['e2e4']);
        });
      });
    }

    if (mode.name === 'server') {
      test('engine switch on the axon serve page: server, then the WASM engine (mt: the page is isolated), then server', async () => {
        const p2 = await openPage(browser, SERVER_URL, 'server-switch');
        try {
          await withShot(p2, shot('engine-switch'), async () => {
            await waitForTestHook(p2);
            await waitForEngineState(p2, ['ready']);
            const st = tid(p2, 'engine-status');
            assert.equal(await st.getAttribute('data-engine'), 'server', 'default engine on the axon serve page');
            await choose(p2, 'engine-select', 'wasm');
            await p2.waitForFunction(() => document.querySelector('[data-testid="engine-status"]')?.getAttribute('data-engine') === 'wasm', null, { timeout: T.ui });
            await waitForEngineState(p2, ['ready']);
            assert.equal(await st.getAttribute('data-build'), 'mt', 'axon serve sends COOP/COEP, so the threaded build runs');
            await tid(p2, 'mode-analysis').click({ timeout: T.ui });
            await loadFen(p2, '7k/5Q2/6K1/8/8/8/8/8 w - - 0 1');
            await p2.waitForFunction(() => /M1/.test(document.querySelector('[data-testid="eval-bar"]')?.getAttribute('data-score') ?? ''), null, { timeout: T.engine });
            await choose(p2, 'engine-select', 'server');
            await p2.waitForFunction(() => document.querySelector('[data-testid="engine-status"]')?.getAttribute('data-engine') === 'server', null, { timeout: T.ui });
            await waitForEngineState(p2, ['ready', 'thinking']);
          });
          assert.deepEqual(p2.axonErrors, [], 'uncaught exceptions');
        } finally { await p2.context().close(); }
      });

      test('PGN import, then move-list clicks, arrow keys and flip show the right positions', async () => {
        const pgn = '[Event "t"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n';
        const p4 = await openPage(browser, `${SERVER_URL}?engine=server`, 'server-import');
        try {
          await withShot(p4, shot('pgn-import'), async () => {
            await waitForTestHook(p4);
            await tid(p4, 'pgn-text').fill(pgn, { timeout: T.ui });
            await tid(p4, 'pgn-import').click({ timeout: T.ui });
            await p4.waitForFunction(() => window.axonTest.movesUci().length === 10, null, { timeout: T.ui });
            const ws = await WsReferee.open(SERVER_URL, browser);
            let uci;
            try { uci = await ws.pgnToUci(pgn); } finally { await ws.close(); }
            assert.deepEqual(await movesUci(p4), uci, 'imported moves');
            const fenAt = async (k) => (await assertLegalLine(START_FEN, uci.slice(0, k), `ply ${k}`)).fen;
            const boardAt = async (k, how) => {
              const want = await fenAt(k);
              await p4.waitForFunction((w) => document.querySelector('[data-testid="board"]')?.getAttribute('data-fen')?.split(' ')[0] === w.split(' ')[0], want, { timeout: T.ui })
                .catch(() => { throw new Error(`after ${how} the board does not show ply ${k}`); });
              const f = await tid(p4, 'board').getAttribute('data-fen');
              assert.ok(sameFen(f, want), `after ${how}: board ${f}, native ${want}`);
            };
            await boardAt(10, 'the import');
            await tid(p4, 'move').nth(3).click({ timeout: T.ui }); // ply 4, 2...Nc6
            await boardAt(4, 'a click on the 4th move');
            await p4.keyboard.press('ArrowRight');
            await boardAt(5, 'ArrowRight');
            await p4.keyboard.press('ArrowLeft');
            await p4.keyboard.press('ArrowLeft');
            await boardAt(3, 'ArrowLeft twice');
            const o = await tid(p4, 'board').getAttribute('data-orientation');
            await tid(p4, 'flip').click({ timeout: T.ui });
            await p4.waitForFunction((was) => document.querySelector('[data-testid="board"]')?.getAttribute('data-orientation') !== was, o, { timeout: T.ui });
            // From ply 3 (Black to move after 2. Nf3) a move by clicks on the flipped board starts a variation there.
            await clickMove(p4, 'g8', 'f6');
            await p4.waitForFunction(() => window.axonTest.movesUci().length === 4, null, { timeout: T.ui });
            assert.deepEqual(await movesUci(p4), [...uci.slice(0, 3), 'g8f6'], 'the viewed line is the new variation');
            assert.deepEqual(await p4.evaluate(() => window.axonTest.mainlineUci()), uci, 'the main line keeps all its moves');
            assert.equal(await tid(p4, 'variation-move').getAttribute('data-uci'), 'g8f6');
          });
          assert.deepEqual(p4.axonErrors, [], 'uncaught exceptions');
        } finally { await p4.context().close(); }
      });

      test('a #fen= link opens the position in analysis', async () => {
        const fen = '8/4P1k1/8/8/8/8/8/4K3 w - - 0 1';
        const p3 = await openPage(browser, `${SERVER_URL}#fen=${encodeURIComponent(fen)}`, 'server-link');
        try {
          await withShot(p3, shot('fen-link'), async () => {
            await waitForTestHook(p3);
            await p3.waitForFunction((f) => window.axonTest.fen() === f, fen, { timeout: T.ui });
            assert.equal(await tid(p3, 'mode-analysis').getAttribute('aria-selected'), 'true', 'analysis tab selected');
            assert.deepEqual(await movesUci(p3), []);
          });
        } finally { await p3.context().close(); }
      });
    }

    test('tablebase panel: the server\'s tables judge every move of a KRvK ending and a click plays one; the in-browser engine says tables need the server', async () => {
      await withShot(page, shot('tablebase'), async () => {
        await tid(page, 'mode-analysis').click({ timeout: T.ui });
        await loadFen(page, '8/8/8/4k3/7R/8/8/K7 w - - 0 1');
        const panel = tid(page, 'tablebase-panel');
        if (mode.engine === 'wasm') {
          await page.waitForFunction(() => document.querySelector('[data-testid="tablebase-panel"]')?.dataset.state === 'unavailable', null, { timeout: T.engine });
          assert.match(await panel.textContent(), /need the server/);
          return;
        }
        await page.waitForFunction(() => document.querySelector('[data-testid="tablebase-panel"]')?.dataset.state === 'ready', null, { timeout: T.engine });
        assert.match(await tid(page, 'tablebase-result').textContent(), /^Tablebase: White wins \(DTZ \d+\)$/);
        const moves = await page.evaluate(() => [...document.querySelectorAll('[data-testid="tablebase-panel"] .tablebase-move')].map((b) => ({ uci: b.dataset.uci, wdl: b.dataset.wdl })));
        assert.equal(moves.length, 17, JSON.stringify(moves));
        assert.equal(moves[0].wdl, 'win');
        assert.deepEqual(moves.filter((m) => m.wdl === 'draw').map((m) => m.uci).sort(), ['h4d4', 'h4e4', 'h4f4']);
        // The eval bar shows a result, not centipawns: the tables' win, or the mate the search found.
        await page.waitForFunction(() => /TB win|#\d+/.test(document.querySelector('[data-testid="eval-bar"]')?.textContent ?? ''), null, { timeout: T.engine });
        // A click plays the move; the panel follows the new position (Black to move, lost).
        await page.locator(`[data-testid="tablebase-panel"] .tablebase-move[data-uci="${moves[0].uci}"]`).click({ timeout: T.ui });
        await page.waitForFunction((u) => window.axonTest.movesUci().at(-1) === u, moves[0].uci, { timeout: T.ui });
        await page.waitForFunction(() => /^Tablebase: White wins/.test(document.querySelector('[data-testid="tablebase-result"]')?.textContent ?? '') && document.querySelector('[data-testid="tablebase-panel"]')?.dataset.wdl === 'loss', null, { timeout: T.engine });
        // Outside the tables (more than seven pieces): no panel.
        await loadFen(page, START_FEN);
        await page.waitForFunction(() => document.querySelector('[data-testid="tablebase-panel"]')?.hidden === true, null, { timeout: T.ui });
      });
    });

    if (mode.name === 'server') {
      test("heat map: each piece's contribution in analysis (the native engine's numbers), the value on hover, hidden in play", async () => {
        const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
        const toggle = tid(page, 'heatmap-toggle');
        try {
          await withShot(page, shot('heatmap'), async () => {
            await tid(page, 'mode-analysis').click({ timeout: T.ui });
            await loadFen(page, fen);
            await toggle.check({ timeout: T.ui });
            await page.waitForFunction(() => {
              const o = document.querySelector('[data-testid="heatmap"]');
              return o?.dataset.state === 'ready' && o.dataset.fen === document.querySelector('[data-testid="board"]')?.dataset.fen;
            }, null, { timeout: T.engine, polling: 50 });
            const cells = await page.locator('[data-testid="heatmap"] .heatmap-cell').evaluateAll((els) =>
              els.map((e) => ({ square: e.dataset.square, cp: Number(e.dataset.cp), fill: getComputedStyle(e).backgroundColor })));
            const out = await (await referee()).exchange([`position fen ${fen}`, 'eval pieces'], (l) => l.startsWith('info string pieces'));
            const tokens = out[out.length - 1].split(' ').slice(5);
            const expected = [];
            for (let i = 0; i + 2 < tokens.length; i += 3) expected.push({ square: tokens[i], cp: Number(tokens[i + 2]) });
            assert.equal(expected.length, 30, `eval pieces: ${out[out.length - 1]}`);
            assert.deepEqual(cells.map(({ square, cp }) => ({ square, cp })), expected, 'the overlay shows the native engine\'s numbers');
            const at = (sq) => cells.find((c) => c.square === sq);
            assert.ok(at('d1').cp > 0 && at('d8').cp < 0, 'queens: d1 helps White, d8 helps Black');
            assert.notEqual(at('d1').fill, at('d8').fill, 'signed colours');
            // The value on hover, over the knight on f3 (the overlay takes no clicks).
            await settleBoard(page);
            const f3 = await squareCentre(page, 'f3');
            await page.mouse.move(f3.x, f3.y);
            const tip = tid(page, 'heatmap-tip');
            await tip.waitFor({ state: 'visible', timeout: T.ui });
            assert.equal(await tip.getAttribute('data-square'), 'f3');
            const text = await tip.textContent();
            const cp = at('f3').cp;
            assert.equal(text, `White knight f3: ${cp > 0 ? '+' : cp < 0 ? '\u2212' : ''}${Math.abs(cp)} cp${cp > 0 ? ', helps White' : cp < 0 ? ', helps Black' : ''}`);
            await screenshot(page, shot('heatmap-hover'));
            await page.mouse.move(0, 0);
            await tip.waitFor({ state: 'hidden', timeout: T.ui });
            // Play hides it.
            await tid(page, 'mode-play').click({ timeout: T.ui });
            await page.waitForFunction(() => document.querySelector('[data-testid="heatmap"]')?.dataset.state === 'off', null, { timeout: T.ui });
            assert.equal(await tid(page, 'heatmap').isVisible(), false, 'the heat map is hidden in play');
          });
        } finally {
          // The choice is remembered: later tests (and runs) start with it off.
          await tid(page, 'mode-analysis').click({ timeout: T.ui });
          await toggle.uncheck({ timeout: T.ui });
        }
      });
    }

    test('no uncaught exceptions in the page', () => {
      assert.deepEqual(page.axonErrors, []);
    });
  });
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Analysis as deep as the user wants (issue 19), in a real Chromium: on a page of an `axon serve`
// of its own whose cap (--max-think-ms) is short, the local analysis runs past it, the status row
// is updated by the server's progress several times a second between completed depths, the MultiPV
// lines are always sorted for the side to move with distinct first moves, Stop then Go deeper
// reaches a greater depth, and Hash and Threads picked on the page are taken by the server (and
// set again after a reload; more than its hash budget refused in words); then the in-browser engine (threaded build) shows live progress too.
// Imported by frontend.test.mjs, so scripts/browser-test.sh runs it (server and wasm-mt modes).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServe as startAxonServe, stopServe } from './lib/axon-serve.mjs';
import { launch, openPage, tid, withShot, waitForTestHook, waitForEngineState, choose, loadFen, log, T } from './lib/browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const AXON_BIN = process.env.AXON_BIN;
const WEB_DIST = process.env.AXON_WEB_DIST ?? resolve(here, '../../web/dist');
const wanted = (mode) => !process.env.AXON_MODES || process.env.AXON_MODES.split(',').includes(mode);
const serverSkip = !AXON_BIN ? 'AXON_BIN not set' : wanted('server') ? false : 'left out by AXON_MODES';
const wasmSkip = !process.env.AXON_COI_URL ? 'AXON_COI_URL not set (no threaded WASM build)' : wanted('wasm-mt') ? false : 'left out by AXON_MODES';

/** The server's cap on every search: analysis on the local page must run past it. */
const CAP_MS = 2000;
/** After 4. ... Nf6 5. O-O of the Ruy Lopez: Black to move, so "sorted" means best for Black first. */
const RUY_FEN = 'r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 5';

/**
 * Starts `axon serve` with a short cap and room for a bigger hash and a second thread: four
 * sessions of 16 MiB are guaranteed 64 MiB of the 214 MiB hash budget, which leaves 150 MiB for
 * larger tables (Hash 64 twice, for the page and its reload while the old session closes, but
 * never 256 although --max-hash allows it).
 */
function startServe() {
  return startAxonServe(AXON_BIN, ['--port', '0', '--web-root', WEB_DIST, '--max-sessions', '4', '--hash', '16', '--max-hash', '256',
    '--total-hash', '214', '--threads', '1', '--max-threads', '2', '--max-think-ms', String(CAP_MS)]);
}

/**
 * Reads the analysis panel in the page every 50 ms for `ms`: the status row's data (state, nodes,
 * progress updates), the depth shown and the lines (first move, White's score, depth, bound).
 */
function sampleAnalysis(page, ms) {
  return page.evaluate(async (duration) => {
    const samples = [];
    const start = performance.now();
    while (performance.now() - start < duration) {
      const status = document.querySelector('[data-testid="analysis-status"]');
      samples.push({
        t: Math.round(performance.now() - start),
        state: status.dataset.state,
        nodes: Number(status.dataset.nodes ?? 0),
        text: status.textContent,
        shown: document.querySelector('[data-testid="analysis-depth"]').textContent,
        lines: [...document.querySelectorAll('[data-testid="pv-line"]')].map((l) => ({
          uci: l.dataset.uci, score: l.dataset.score, depth: Number(l.dataset.depth), bound: l.dataset.bound,
        })),
      });
      await new Promise((r) => setTimeout(r, 50));
    }
    return samples;
  }, ms);
}

/** A line's score for the side to move, as one number that orders them (mates beyond centipawns). */
function moverRank(score, turn) {
  const mate = /^(-?)M(\d+)$/.exec(score);
  const white = mate ? (mate[1] ? -1e6 + Number(mate[2]) : 1e6 - Number(mate[2])) : Number(score);
  return turn === 'white' ? white : -white;
}

/** Every sample's lines: sorted best first for the side to move, each first move once. */
function assertLinesSortedAndDistinct(samples, turn, what) {
  let checked = 0;
  for (const s of samples) {
    if (s.lines.length === 0) continue;
    checked++;
    const moves = s.lines.map((l) => l.uci);
    assert.equal(new Set(moves).size, moves.length, `${what}: two lines start with the same move at ${s.t} ms: ${moves.join(' ')}`);
    const ranks = s.lines.map((l) => moverRank(l.score, turn));
    for (let i = 1; i < ranks.length; i++)
      assert.ok(ranks[i] <= ranks[i - 1], `${what}: lines not sorted for ${turn} at ${s.t} ms: ${JSON.stringify(s.lines)}`);
  }
  assert.ok(checked > 0, `${what}: no lines seen`);
}

/** The deepest depth of the lines shown (the label reads `depth 23` or `depth 23–24`). */
const shownDepth = (page) => page.evaluate(() => Math.max(0, ...[...document.querySelectorAll('[data-testid="pv-line"]')].map((l) => Number(l.dataset.depth))));
const analysisState = (page) => tid(page, 'analysis-status').getAttribute('data-state');

/**
 * Live progress: the node count changes at least `perSecond` times a second over the samples
 * after the first second, and at least three times while one depth stays on screen (progress
 * between completed depths, not only with them).
 */
function assertLiveProgress(samples, perSecond, what) {
  const late = samples.filter((s) => s.t >= 1000 && s.nodes > 0);
  const seconds = (late.at(-1).t - late[0].t) / 1000;
  const changes = late.filter((s, i) => i > 0 && s.nodes !== late[i - 1].nodes).length;
  log(`[${what}] ${changes} node-count changes in ${seconds.toFixed(1)} s; last status ${late.at(-1).text}`);
  assert.ok(changes >= perSecond * seconds, `${what}: the nodes counter changed ${changes} times in ${seconds.toFixed(1)} s (want ${perSecond}/s)`);
  let best = 0;
  for (let i = 0; i < samples.length;) {
    let j = i;
    const counts = new Set();
    while (j < samples.length && samples[j].shown === samples[i].shown) counts.add(samples[j++].nodes);
    if (samples[i].shown) best = Math.max(best, counts.size);
    i = j;
  }
  assert.ok(best >= 3, `${what}: the nodes counter changed fewer than 3 times while one depth was shown (${best})`);
}

describe('deep analysis on the local axon serve', { skip: serverSkip }, () => {
  let browser, page, server;
  before(async () => {
    server = await startServe();
    browser = await launch();
    page = await openPage(browser, `${server.url}?engine=server`, 'deep-analysis');
    await waitForTestHook(page);
    await waitForEngineState(page, ['ready']);
  });
  after(async () => {
    if (browser) await browser.close();
    await stopServe(server);
  });

  test(`analysis runs past the server's ${CAP_MS / 1000} s cap with live progress; MultiPV 3 lines sorted, distinct first moves`, async () => {
    await withShot(page, 'deep-analysis-live', async () => {
      await tid(page, 'mode-analysis').click({ timeout: T.ui });
      await choose(page, 'multipv-select', '3');
      await loadFen(page, RUY_FEN);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="pv-line"]').length === 3, null, { timeout: T.engine });
      assert.equal(await tid(page, 'analysis-note').textContent(), 'Runs until you stop it');
      const samples = await sampleAnalysis(page, CAP_MS + 2500);
      const last = samples.at(-1);
      const atCap = samples.find((s) => s.t >= CAP_MS + 300);
      assert.equal(last.state, 'running', `still running ${last.t} ms after the lines came (the server caps searches at ${CAP_MS} ms)`);
      assert.ok(last.nodes > atCap.nodes, `nodes still increase past the cap: ${atCap.nodes} at ${atCap.t} ms, ${last.nodes} at ${last.t} ms`);
      assert.equal(await tid(page, 'analysis-stop').isVisible(), true, 'Stop is offered while it runs');
      assertLiveProgress(samples, 3, 'server');
      assertLinesSortedAndDistinct(samples, 'black', 'server');
      assert.ok(samples.every((s) => s.lines.length === 0 || s.lines.length === 3), 'three lines whenever lines are shown');
      assert.match(last.text, /^depth \d+\/\d+ · [\d.]+[kMG]? nodes · [\d,]+ kN\/s · hash \d+% · (\d+\/\d+ \S+ · )?\d+\.\d s$/, `status row ${last.text}`);
    });
  });

  test('Stop, then Go deeper: the lines stay and the search reaches a greater depth', async () => {
    await withShot(page, 'deep-analysis-deeper', async () => {
      await tid(page, 'analysis-stop').click({ timeout: T.ui });
      await page.waitForFunction(() => document.querySelector('[data-testid="analysis-status"]').dataset.state === 'stopped', null, { timeout: T.ui });
      const depth = await shownDepth(page);
      assert.ok(depth >= 10, `a useful depth before the stop (${depth})`);
      assert.match(await tid(page, 'analysis-note').textContent(), new RegExp(`^Stopped at depth ${depth}$`));
      assert.equal(await tid(page, 'analysis-stop').isVisible(), false);
      const nodesStopped = Number(await tid(page, 'analysis-status').getAttribute('data-nodes'));
      await tid(page, 'analysis-deeper').click({ timeout: T.ui });
      assert.equal(await analysisState(page), 'running');
      assert.equal(await page.locator('[data-testid="pv-line"]').count(), 3, 'the lines stay while the search catches up');
      assert.ok((await shownDepth(page)) >= depth, 'no shallower depth is shown meanwhile');
      const t0 = Date.now();
      await page.waitForFunction((d) => Math.max(...[...document.querySelectorAll('[data-testid="pv-line"]')].map((l) => Number(l.dataset.depth))) > d,
        depth, { timeout: T.engine, polling: 50 });
      const deeper = await shownDepth(page);
      log(`[deep-analysis] stopped at depth ${depth} (${nodesStopped} nodes); Go deeper showed depth ${deeper} after ${Date.now() - t0} ms`);
      assertLinesSortedAndDistinct(await sampleAnalysis(page, 200), 'black', 'after Go deeper');
    });
  });

  test('Hash and Threads: the server takes the values picked (not past its budget), the analysis goes on, a reload sets them again', async () => {
    await withShot(page, 'deep-analysis-options', async () => {
      const hash = tid(page, 'engine-hash');
      const threads = tid(page, 'engine-threads');
      const hashValues = await hash.locator('option').evaluateAll((os) => os.map((o) => o.value));
      assert.ok(hashValues.includes('64') && hashValues.includes('256') && !hashValues.includes('512'), `Hash choices within --max-hash 256: ${hashValues}`);
      assert.deepEqual(await threads.locator('option').evaluateAll((os) => os.map((o) => o.value)), ['1', '2'], 'Threads 1..--max-threads');
      for (const [id, value] of [['engine-hash', '64'], ['engine-threads', '2']]) {
        await choose(page, id, value);
        await page.waitForFunction(([i, v]) => {
          const s = document.querySelector(`[data-testid="${i}"]`);
          return s.dataset.state === 'applied' && s.dataset.applied === v && s.value === v;
        }, [id, value], { timeout: T.ui });
      }
      assert.equal(await tid(page, 'engine-options-error').textContent(), '');
      // More than the server's hash budget: refused in words, the select back at the value in use.
      await choose(page, 'engine-hash', '256');
      await page.waitForFunction(() => document.querySelector('[data-testid="engine-hash"]').dataset.state === 'error', null, { timeout: T.ui });
      const refusal = await tid(page, 'engine-options-error').textContent();
      log(`[deep-analysis] Hash 256: ${refusal}`);
      assert.match(refusal, /^Could not set Hash to 256 MB: .*hash budget/);
      assert.doesNotMatch(refusal, /setOption|ERR_|\{/, 'no protocol words in the message');
      assert.equal(await tid(page, 'engine-hash').inputValue(), '64');
      assert.equal(await tid(page, 'engine-hash').getAttribute('data-applied'), '64');
      // The analysis started again on the same position with the new settings.
      await page.waitForFunction(() => {
        const s = document.querySelector('[data-testid="analysis-status"]');
        return s.dataset.state === 'running' && Number(s.dataset.nodes) > 0;
      }, null, { timeout: T.engine });
      const samples = await sampleAnalysis(page, 1500);
      assert.ok(samples.at(-1).nodes > samples.find((s) => s.nodes > 0).nodes, 'nodes increase with the new hash and threads');
      assertLinesSortedAndDistinct(samples, 'black', 'after the options');
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('axon.settings.v1')));
      assert.deepEqual([stored.engineHash, stored.engineThreads], [{ server: 64 }, { server: 2 }], 'remembered in the settings');
      // A reload is a new server session (its defaults): the page sets its values again.
      await page.reload({ waitUntil: 'load' });
      await waitForTestHook(page);
      await page.waitForFunction(() => document.querySelector('[data-testid="engine-hash"]').dataset.applied === '64'
        && document.querySelector('[data-testid="engine-threads"]').dataset.applied === '2', null, { timeout: T.engine });
      await page.waitForFunction(() => document.querySelector('[data-testid="analysis-status"]').dataset.state === 'running', null, { timeout: T.engine });
    });
  });

  test('no uncaught exceptions in the page', () => {
    assert.deepEqual(page.axonErrors, []);
  });
});

describe('deep analysis with the in-browser engine (threaded build)', { skip: wasmSkip }, () => {
  let browser, page;
  before(async () => {
    browser = await launch();
    page = await openPage(browser, `${process.env.AXON_COI_URL}?engine=wasm`, 'deep-analysis-wasm');
    await waitForTestHook(page);
    await waitForEngineState(page, ['ready']);
  });
  after(async () => { if (browser) await browser.close(); });

  test('live progress from the worker several times a second; Stop and Go deeper', async () => {
    await withShot(page, 'deep-analysis-wasm-mt', async () => {
      assert.equal(await tid(page, 'engine-status').getAttribute('data-build'), 'mt');
      await tid(page, 'mode-analysis').click({ timeout: T.ui });
      await choose(page, 'multipv-select', '3');
      await loadFen(page, RUY_FEN);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="pv-line"]').length === 3, null, { timeout: T.engine });
      assert.equal(await tid(page, 'analysis-note').textContent(), 'Runs until you stop it');
      const samples = await sampleAnalysis(page, 3500);
      assert.equal(samples.at(-1).state, 'running');
      assertLiveProgress(samples, 2, 'wasm-mt');
      assertLinesSortedAndDistinct(samples, 'black', 'wasm-mt');
      await tid(page, 'analysis-stop').click({ timeout: T.ui });
      await page.waitForFunction(() => document.querySelector('[data-testid="analysis-status"]').dataset.state === 'stopped', null, { timeout: T.ui });
      const depth = await shownDepth(page);
      await tid(page, 'analysis-deeper').click({ timeout: T.ui });
      await page.waitForFunction((d) => Math.max(...[...document.querySelectorAll('[data-testid="pv-line"]')].map((l) => Number(l.dataset.depth))) > d,
        depth, { timeout: T.engine, polling: 50 });
      log(`[deep-analysis-wasm] stopped at depth ${depth}, Go deeper reached ${await shownDepth(page)}`);
    });
  });

  test('no uncaught exceptions in the page', () => {
    assert.deepEqual(page.axonErrors, []);
  });
});

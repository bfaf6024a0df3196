// SPDX-License-Identifier: GPL-3.0-or-later
// Launching Debian's chromium through playwright-core, and the page-side helpers every test
// uses: squares found geometrically on the `board` element, real clicks and drags, waits on
// DOM state (never fixed sleeps), screenshots into the artefacts folder.
import { chromium } from 'playwright-core';
import { mkdirSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';

export const ARTIFACTS = process.env.AXON_ARTIFACTS || join(process.cwd(), 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

// Bounds for waits: generous so a loaded 2-core machine does not fail them, bounded so a
// broken page fails in reasonable time.
export const T = {
  load: Number(process.env.AXON_T_LOAD || 60000),
  engine: Number(process.env.AXON_T_ENGINE || 45000),
  ui: Number(process.env.AXON_T_UI || 10000),
};

export function log(...args) {
  const line = args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
  appendFileSync(join(ARTIFACTS, 'browser-test.log'), line + '\n');
}

export async function launch(extraArgs = []) {
  const args = ['--enable-features=SharedArrayBuffer', ...extraArgs];
  if (process.getuid && process.getuid() === 0) args.push('--no-sandbox');
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args,
  });
}

// A new page whose console errors and uncaught exceptions are logged and collected.
export async function openPage(browser, url, name) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.axonErrors = [];
  page.on('pageerror', (e) => { page.axonErrors.push(String(e)); log(`[${name}] pageerror`, String(e)); });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') log(`[${name}] console.${m.type()}`, m.text());
  });
  await page.goto(url, { waitUntil: 'load', timeout: T.load });
  return page;
}

export const tid = (page, id) => page.locator(`[data-testid="${id}"]`);

export async function screenshot(page, name) {
  const path = join(ARTIFACTS, `${name}.png`);
  try {
    await page.screenshot({ path, fullPage: true, timeout: T.ui });
  } catch (e) {
    log('screenshot failed', name, String(e));
  }
  return path;
}

// Runs `fn`; on failure saves a screenshot named after the test, then rethrows.
export async function withShot(page, name, fn) {
  try {
    const r = await fn();
    await screenshot(page, name);
    return r;
  } catch (e) {
    await screenshot(page, `${name}-FAILED`);
    throw e;
  }
}

// The element whose box is the 8x8 board: chessground's cg-board inside the `board` element
// when there is one (the wrapper may include coordinates), else the element itself.
async function boardBox(page) {
  const board = tid(page, 'board');
  const inner = board.locator('cg-board');
  const el = (await inner.count()) > 0 ? inner.first() : board;
  const box = await el.boundingBox();
  if (!box) throw new Error('board has no bounding box (not visible?)');
  const orientation = await board.getAttribute('data-orientation');
  if (orientation !== 'white' && orientation !== 'black') {
    throw new Error(`board data-orientation is ${JSON.stringify(orientation)}, expected white|black`);
  }
  return { box, orientation };
}

export async function squareCentre(page, square) {
  const { box, orientation } = await boardBox(page);
  const file = square.charCodeAt(0) - 97, rank = square.charCodeAt(1) - 49;
  const size = box.width / 8;
  const col = orientation === 'white' ? file : 7 - file;
  const row = orientation === 'white' ? 7 - rank : rank;
  return { x: box.x + (col + 0.5) * size, y: box.y + (row + 0.5) * (box.height / 8) };
}

// Before a move by mouse: waits two frames (pending scroll events are delivered), has chessground
// drop its cached board bounds (see below) and waits until no piece is animating or fading (a
// press on a square whose piece is being replaced can pick up the old element).
// chessground caches the board's bounding box and refreshes it only on scroll, window resize or
// a change of the board's size, so a layout shift that moves the board without resizing it
// (the front end's play/analysis switch moves it sideways) leaves clicks landing on the wrong
// squares. `{ refreshBounds: false }` skips the refresh; the test that checks
// the front end for this uses it.
export async function settleBoard(page, { refreshBounds = true } = {}) {
  // A board partly scrolled out of the window (Playwright scrolls to each control it clicks,
  // such as Load FEN under the board) is brought back: real clicks land only on what is shown.
  await page.evaluate(() => {
    const r = document.querySelector('[data-testid="board"]')?.getBoundingClientRect();
    if (r && (r.top < 0 || r.bottom > window.innerHeight)) window.scrollBy(0, r.top - 8);
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  if (refreshBounds) await page.evaluate(() => document.dispatchEvent(new Event('scroll')));
  await page.waitForFunction(() => !document.querySelector(
    '[data-testid="board"] cg-board piece.anim, [data-testid="board"] cg-board piece.fading'), null, { timeout: T.ui, polling: 'raf' });
}

export async function clickMove(page, from, to, settle = {}) {
  await settleBoard(page, settle);
  const a = await squareCentre(page, from);
  await page.mouse.click(a.x, a.y);
  const b = await squareCentre(page, to);
  await page.mouse.click(b.x, b.y);
}

export async function dragMove(page, from, to, settle = {}) {
  await settleBoard(page, settle);
  const a = await squareCentre(page, from);
  const b = await squareCentre(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

export const movesUci = (page) => page.evaluate(() => window.axonTest.movesUci());
export const pageFen = (page) => page.evaluate(() => window.axonTest.fen());

export async function waitForTestHook(page) {
  await page.waitForFunction(() => typeof window.axonTest === 'object' && window.axonTest !== null
    && typeof window.axonTest.movesUci === 'function', null, { timeout: T.load });
}

export async function waitForPlies(page, n, timeout = T.engine) {
  await page.waitForFunction((k) => window.axonTest.movesUci().length >= k, n, { timeout, polling: 50 });
  return movesUci(page);
}

export async function waitForEngineState(page, states, timeout = T.load) {
  const el = tid(page, 'engine-status');
  await el.waitFor({ state: 'attached', timeout });
  await page.waitForFunction(([sts]) => {
    const e = document.querySelector('[data-testid="engine-status"]');
    return e && sts.includes(e.getAttribute('data-state'));
  }, [states], { timeout, polling: 100 });
  return el.getAttribute('data-state');
}

// Selects an option of a <select> by value once it is visible (playwright's selectOption
// dispatches the input/change events a user's choice does; a native dropdown cannot be clicked
// in headless mode).
export async function choose(page, id, value) {
  const sel = tid(page, id);
  await sel.waitFor({ state: 'visible', timeout: T.ui });
  await sel.selectOption(value, { timeout: T.ui });
}

export async function optionValues(page, id) {
  return tid(page, id).locator('option').evaluateAll((os) => os.map((o) => o.value));
}

// Loads a FEN through the FEN box and its button (confirming when a game against Axon is on);
// resolves once the board shows it.
export async function loadFen(page, fen) {
  await tid(page, 'fen-input').fill(fen, { timeout: T.ui });
  await page.evaluate(() => { document.getElementById('toast').textContent = ''; });
  await tid(page, 'fen-load').click({ timeout: T.ui });
  const board = fen.split(' ')[0];
  // During a game against Axon the page asks first (a toast with "Load it anyway"): confirmed.
  await page.waitForFunction((b) => window.axonTest.fen().split(' ')[0] === b
    || /Your game against Axon is on/.test(document.getElementById('toast').textContent), board, { timeout: T.ui, polling: 50 });
  if (await page.evaluate(() => /Your game against Axon is on/.test(document.getElementById('toast').textContent))) {
    await tid(page, 'toast-action').click({ timeout: T.ui });
  }
  await page.waitForFunction((b) => window.axonTest.fen().split(' ')[0] === b, board, { timeout: T.ui, polling: 50 });
}

// Banner state: { visible, text, result }.
export async function banner(page) {
  const b = tid(page, 'status-banner');
  if ((await b.count()) === 0) return { visible: false, text: '', result: null };
  return { visible: await b.isVisible(), text: (await b.textContent()) ?? '', result: await b.getAttribute('data-result') };
}

export async function waitForBanner(page, word, timeout = T.ui) {
  await page.waitForFunction((w) => {
    const b = document.querySelector('[data-testid="status-banner"]');
    if (!b) return false;
    const r = b.getBoundingClientRect(), st = getComputedStyle(b);
    return r.width > 0 && r.height > 0 && st.visibility !== 'hidden' && st.display !== 'none'
      && b.textContent.includes(w);
  }, word, { timeout, polling: 50 });
  return banner(page);
}

// SPDX-License-Identifier: GPL-3.0-or-later
// In-browser nps of the WASM engine against the native engine, measured in the same run:
// `go nodes N` on a few fixed positions by the native `axon` (1 thread), by the worker's st build
// (page not cross-origin isolated) and, when an isolated URL is given, by its mt build (1 thread,
// then AXON_NPS_THREADS threads against native at as many). Also the memory the worker adds
// (renderer RSS, and performance.measureUserAgentSpecificMemory where the page is isolated).
// Env: AXON_BIN, AXON_STATIC_URL (plain), AXON_COI_URL (COOP/COEP), both serving the harness
// at /__harness/; AXON_NPS_NODES (default 400000), AXON_NPS_THREADS (default 2).
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { launch } from './lib/browser.mjs';
import { NativeEngine, lastSearchInfo } from './lib/native.mjs';

const NODES = Number(process.env.AXON_NPS_NODES || 400000);
const THREADS = Number(process.env.AXON_NPS_THREADS || 2);
const POSITIONS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
];

function total(results) {
  const nodes = results.reduce((s, r) => s + r.nodes, 0), ms = results.reduce((s, r) => s + r.time, 0);
  return { nodes, ms, nps: ms > 0 ? Math.round((nodes * 1000) / ms) : 0 };
}

async function nativeRun(threads) {
  const e = new NativeEngine(process.env.AXON_BIN);
  await e.init();
  await e.setOption('Hash', 16);
  await e.setOption('Threads', threads);
  const results = [];
  for (const fen of POSITIONS) {
    await e.exchange(['ucinewgame', 'isready'], (l) => l === 'readyok');
    results.push(await e.searchNodes(fen, NODES));
  }
  await e.quit();
  return total(results);
}

// RSS (KiB) of our chromium's renderer processes: descendants of this node process.
function rendererRssKiB() {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  const mine = (pid) => { for (let p = pid; p > 1; p = parent.get(p) ?? 0) if (p === process.pid) return true; return false; };
  let kib = 0;
  for (const pid of parent.keys()) {
    if (!mine(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      kib += Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);
    } catch { /* gone */ }
  }
  return kib;
}

async function wasmRun(browser, baseUrl, threadsList) {
  const page = await browser.newPage();
  await page.goto(new URL('__harness/nps.html', baseUrl).href, { waitUntil: 'load' });
  const isolated = await page.evaluate(() => self.crossOriginIsolated);
  const rssBefore = rendererRssKiB();
  const h = (fn, ...a) => page.evaluate(fn, a);
  await h(() => window.axonHarness.start('/engine/axon-engine-worker.js'));
  await h(() => window.axonHarness.send('uci'));
  const uciLines = await h(([ms]) => window.axonHarness.waitFor('^uciok', ms), 120000);
  const buildLine = uciLines.find((l) => l.startsWith('info string axon-wasm')) ?? '(no axon-wasm build line)';
  const runs = [];
  for (const threads of threadsList) {
    await h(() => window.axonHarness.send('setoption name Hash value 16'));
    if (/build=mt/.test(buildLine)) await h(([t]) => window.axonHarness.send(`setoption name Threads value ${t}`), threads);
    const results = [];
    for (const fen of POSITIONS) {
      await h(() => window.axonHarness.send('ucinewgame'));
      await h(() => window.axonHarness.send('isready'));
      await h(() => window.axonHarness.waitFor('^readyok', 60000));
      await h(([f]) => window.axonHarness.send(`position fen ${f}`), fen);
      await h(([n]) => window.axonHarness.send(`go nodes ${n}`), NODES);
      const lines = await h(() => window.axonHarness.waitFor('^bestmove', 300000));
      const r = lastSearchInfo(lines);
      if (!r.nodes || !r.time) throw new Error(`no nodes/time in the worker's info lines: ${lines.slice(-3).join(' | ')}`);
      results.push(r);
    }
    runs.push({ threads, ...total(results) });
  }
  const rssAfter = rendererRssKiB();
  let uaMemory = null;
  if (isolated) {
    uaMemory = await page.evaluate(() => Promise.race([
      performance.measureUserAgentSpecificMemory().then((m) => m.bytes),
      new Promise((r) => setTimeout(() => r(null), 30000)),
    ])).catch(() => null);
  }
  await h(() => window.axonHarness.stop());
  await page.close();
  return { isolated, buildLine, runs, rssBefore, rssAfter, uaMemory };
}

const fmt = (n) => n.toLocaleString('en-US');
const mib = (kib) => (kib / 1024).toFixed(0);

const browser = await launch();
try {
  console.log(`wasm-browser-nps: go nodes ${NODES} on ${POSITIONS.length} positions, Hash 16; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const native1a = await nativeRun(1);
  const st = process.env.AXON_STATIC_URL ? await wasmRun(browser, process.env.AXON_STATIC_URL, [1]) : null;
  const mt = process.env.AXON_COI_URL ? await wasmRun(browser, process.env.AXON_COI_URL, [1, THREADS]) : null;
  const native1b = await nativeRun(1);
  const nativeN = mt ? await nativeRun(THREADS) : null;
  const native1 = Math.round((native1a.nps + native1b.nps) / 2);
  console.log(`native 1 thread: ${fmt(native1a.nps)} and ${fmt(native1b.nps)} nps (before and after the browser runs), mean ${fmt(native1)}`);
  const rows = [];
  for (const [name, w] of [['st', st], ['mt', mt]]) {
    if (!w) continue;
    console.log(`${name}: page crossOriginIsolated=${w.isolated}; ${w.buildLine}; renderer RSS ${mib(w.rssBefore)} MiB before the worker, ${mib(w.rssAfter)} MiB after the searches`
      + (w.uaMemory ? `; measureUserAgentSpecificMemory ${mib(w.uaMemory / 1024)} MiB` : ''));
    for (const r of w.runs) {
      const ref = r.threads === 1 ? native1 : nativeN.nps;
      const ratio = r.nps / ref;
      rows.push(`${name} ${r.threads}t ${ratio.toFixed(2)}`);
      console.log(`  ${name} build, ${r.threads} thread(s): ${fmt(r.nodes)} nodes in ${r.ms} ms = ${fmt(r.nps)} nps; native at ${r.threads} thread(s) ${fmt(ref)} nps; ratio ${ratio.toFixed(3)}`);
    }
  }
  console.log(`wasm-browser-nps: ratio to native: ${rows.join(', ') || 'no wasm build measured'}`);
} finally {
  await browser.close();
}

// SPDX-License-Identifier: GPL-3.0-or-later
// In-browser nps of the WASM engine against the native engine, measured in the same run:
// `go nodes N` on a few fixed positions by the native `axon` (1 thread), by the worker's st build
// (page not cross-origin isolated) and, when an isolated URL is given, by its mt build (1 thread,
// then AXON_NPS_THREADS threads against native at as many). Also the memory the worker adds
// (renderer RSS, and performance.measureUserAgentSpecificMemory where the page is isolated).
// Wall-clock nps suffers from other load on the machine; nodes per CPU second (the engine
// process's, the renderer's) much less, so both are printed.
// Env: AXON_BIN, AXON_STATIC_URL (plain), AXON_COI_URL (COOP/COEP), both serving the harness
// at /__harness/; AXON_NPS_NODES (default 1000000), AXON_NPS_THREADS (default 2),
// AXON_NPS_ROUNDS (default 3; the rounds are interleaved, best and median reported).
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { launch } from './lib/browser.mjs';
import { NativeEngine, lastSearchInfo } from './lib/native.mjs';

const NODES = Number(process.env.AXON_NPS_NODES || 1000000);
const THREADS = Number(process.env.AXON_NPS_THREADS || 2);
const POSITIONS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
];

function total(results, cpu = null) {
  const positions = results.map((r) => `${r.nodes}/${r.bestmove}`);
  const nodes = results.reduce((s, r) => s + r.nodes, 0), ms = results.reduce((s, r) => s + r.time, 0);
  // CPU time covers the whole search, up to the node limit, while the last info line comes
  // before its end: nodes per CPU second count the limit's nodes.
  return { nodes, ms, nps: ms > 0 ? Math.round((nodes * 1000) / ms) : 0, positions,
    cpuNps: cpu > 0 ? Math.round((NODES * results.length * 1000) / cpu) : 0 };
}

class NativeSession {
  async open() {
    this.e = new NativeEngine(process.env.AXON_BIN);
    await this.e.init();
    await this.e.setOption('Hash', 16);
    return this;
  }
  async run(threads) {
    await this.e.setOption('Threads', threads);
    const results = [];
    let cpu = 0;
    for (const fen of POSITIONS) {
      await this.e.exchange(['ucinewgame', 'isready'], (l) => l === 'readyok');
      const c0 = cpuMs([this.e.proc.pid]);
      results.push(await this.e.searchNodes(fen, NODES));
      cpu += cpuMs([this.e.proc.pid]) - c0;
    }
    return total(results, cpu);
  }
  close() { return this.e.quit(); }
}

function parentMap() {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  return parent;
}
const childrenOf = (pid) => [...parentMap()].filter(([, pp]) => pp === pid).map(([p]) => p);

// CPU time (ms, user + system) of processes: /proc/PID/stat fields 14 and 15, in clock ticks.
const TICK_MS = 10; // CLK_TCK is 100 on Linux
function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
      ticks += Number(rest[11]) + Number(rest[12]);
    } catch { /* gone */ }
  }
  return ticks * TICK_MS;
}

function rendererPids(browserPid) {
  const parent = parentMap();
  const under = (pid) => { for (let p = pid; p > 1; p = parent.get(p) ?? 0) if (p === browserPid) return true; return false; };
  return [...parent.keys()].filter((pid) => {
    if (!under(pid)) return false;
    try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer'); } catch { return false; }
  });
}

// RSS (KiB) of the renderer processes under one chromium (the page and its workers live there).
function rendererRssKiB(browserPid) {
  const parent = parentMap();
  const under = (pid) => { for (let p = pid; p > 1; p = parent.get(p) ?? 0) if (p === browserPid) return true; return false; };
  let kib = 0;
  for (const pid of parent.keys()) {
    if (!under(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      kib += Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);
    } catch { /* gone */ }
  }
  return kib;
}

// One harness page with one engine worker, kept for every round.
class WasmSession {
  // A chromium of its own, so that its renderer's memory is this build's alone.
  async open(baseUrl) {
    const before = new Set(childrenOf(process.pid));
    // measureUserAgentSpecificMemory otherwise waits for a garbage collection that may be
    // 20 s away; this flag makes it measure at once.
    this.browser = await launch(['--enable-blink-features=ForceEagerMeasureMemory']);
    this.browserPid = childrenOf(process.pid).find((p) => !before.has(p)) ?? -1;
    const page = await this.browser.newPage();
    this.page = page;
    await page.goto(new URL('__harness/nps.html', baseUrl).href, { waitUntil: 'load' });
    this.isolated = await page.evaluate(() => self.crossOriginIsolated);
    this.rssBefore = rendererRssKiB(this.browserPid);
    await this.h(() => window.axonHarness.start('/engine/axon-engine-worker.js'));
    await this.h(() => window.axonHarness.send('uci'));
    const uciLines = await this.h(([ms]) => window.axonHarness.waitFor('^uciok', ms), 120000);
    this.buildLine = uciLines.find((l) => l.startsWith('info string axon-wasm')) ?? '(no axon-wasm build line)';
    await this.h(() => window.axonHarness.send('setoption name Hash value 16'));
    return this;
  }
  h(fn, ...a) { return this.page.evaluate(fn, a); }
  async run(threads) {
    if (/build=mt/.test(this.buildLine)) await this.h(([t]) => window.axonHarness.send(`setoption name Threads value ${t}`), threads);
    else if (threads !== 1) throw new Error('the st build has one thread');
    const results = [];
    let cpu = 0;
    for (const fen of POSITIONS) {
      await this.h(() => window.axonHarness.send('ucinewgame'));
      await this.h(() => window.axonHarness.send('isready'));
      await this.h(() => window.axonHarness.waitFor('^readyok', 60000));
      await this.h(([f]) => window.axonHarness.send(`position fen ${f}`), fen);
      // The renderer's CPU time, all its threads: the worker, the pthreads, and a little of the
      // page itself (idle but for the round trips of this loop).
      const pids = rendererPids(this.browserPid);
      const c0 = cpuMs(pids);
      await this.h(([n]) => window.axonHarness.send(`go nodes ${n}`), NODES);
      const lines = await this.h(() => window.axonHarness.waitFor('^bestmove', 300000));
      cpu += cpuMs(pids) - c0;
      const r = lastSearchInfo(lines);
      if (!r.nodes || !r.time) throw new Error(`no nodes/time in the worker's info lines: ${lines.slice(-3).join(' | ')}`);
      results.push(r);
    }
    return total(results, cpu);
  }
  async memory() {
    this.rssAfter = rendererRssKiB(this.browserPid);
    this.uaMemory = null;
    if (this.isolated) {
      this.uaMemory = await this.page.evaluate(() => Promise.race([
        performance.measureUserAgentSpecificMemory().then((m) => m.bytes),
        new Promise((r) => setTimeout(() => r(null), 10000)),
      ])).catch((e) => `failed: ${String(e).split('\n')[0]}`);
    }
  }
  async close() {
    await this.h(() => window.axonHarness.stop());
    await this.browser.close();
  }
}

const fmt = (n) => n.toLocaleString('en-US');
const mib = (kib) => (kib / 1024).toFixed(0);

const ROUNDS = Number(process.env.AXON_NPS_ROUNDS || 3);
const best = (runs) => runs.reduce((a, b) => (b.nps > a.nps ? b : a));
const median = (runs, key = 'nps') => { const v = runs.map((r) => r[key]).sort((a, b) => a - b); return v[Math.floor((v.length - 1) / 2)]; };

const sessions = [];
try {
  console.log(`wasm-browser-nps: go nodes ${NODES} on ${POSITIONS.length} positions, Hash 16, ${ROUNDS} interleaved rounds (best and median per engine);`
    + ` load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const native = await new NativeSession().open();
  sessions.push(native);
  const configs = [{ name: 'native', threads: 1, s: native, runs: [] }];
  if (process.env.AXON_STATIC_URL) {
    const st = await new WasmSession().open(process.env.AXON_STATIC_URL);
    sessions.push(st);
    configs.push({ name: 'st', threads: 1, s: st, runs: [] });
  }
  if (process.env.AXON_COI_URL) {
    const mt = await new WasmSession().open(process.env.AXON_COI_URL);
    sessions.push(mt);
    configs.push({ name: 'mt', threads: 1, s: mt, runs: [] });
    if (THREADS > 1) {
      configs.push({ name: 'mt', threads: THREADS, s: mt, runs: [] });
      configs.push({ name: 'native', threads: THREADS, s: native, runs: [] });
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of configs) c.runs.push(await c.s.run(c.threads));
  }
  const nativeAt = (t) => configs.find((c) => c.name === 'native' && c.threads === t);
  const rows = [];
  for (const c of configs) {
    const b = best(c.runs), m = median(c.runs), ref = nativeAt(c.threads);
    const mc = median(c.runs, 'cpuNps');
    let line = `${c.name} ${c.threads} thread(s): best ${fmt(b.nps)} nps, median ${fmt(m)} nps (rounds: ${c.runs.map((r) => fmt(r.nps)).join(', ')});`
      + ` per CPU second: median ${fmt(mc)} nodes`;
    if (c.name !== 'native') {
      const ratio = b.nps / best(ref.runs).nps, ratioMedian = m / median(ref.runs), ratioCpu = mc / median(ref.runs, 'cpuNps');
      line += `; ratio to native ${c.threads} thread(s): ${ratio.toFixed(3)} best/best, ${ratioMedian.toFixed(3)} median/median, ${ratioCpu.toFixed(3)} by CPU time`;
      rows.push(`${c.name} ${c.threads}t ${ratio.toFixed(2)} (CPU time ${ratioCpu.toFixed(2)})`);
    }
    console.log(line);
    if (c.threads === 1) {
      const same = c.runs[0].positions.join(' ') === nativeAt(1).runs[0].positions.join(' ');
      console.log(`    last info nodes/bestmove per position: ${c.runs[0].positions.join(' ')}${c.name === 'native' ? '' : same ? ' (the same as native)' : ' (DIFFERENT from native)'}`);
    }
  }
  for (const w of sessions.filter((x) => x instanceof WasmSession)) {
    await w.memory();
    console.log(`${/build=mt/.test(w.buildLine) ? 'mt' : 'st'} page: crossOriginIsolated=${w.isolated}; ${w.buildLine}; renderer RSS ${mib(w.rssBefore)} MiB before the worker,`
      + ` ${mib(w.rssAfter)} MiB after the searches` + (typeof w.uaMemory === 'number' ? `; measureUserAgentSpecificMemory ${mib(w.uaMemory / 1024)} MiB`
        : w.isolated ? `; measureUserAgentSpecificMemory ${w.uaMemory ?? 'timed out'}` : ''));
  }
  console.log(`wasm-browser-nps: best-of-${ROUNDS} nps ratio to native (and median nodes per CPU second): ${rows.join(', ') || 'no wasm build measured'}`);
} finally {
  for (const x of sessions) await x.close().catch(() => {});
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Runs `bench [DEPTH]` in one build of the in-browser engine under node (bench/wasm-nps.sh) and
// prints its closing line and the module's linear memory, after a first ordinary search (what a
// page's engine holds: default 16 MiB hash) and after bench (which adds a searcher and hash of
// its own), and the process's CPU time during bench (on a shared machine the wall-clock nps
// measures the share of a core more than the speed):
// "NODES nodes NPS nps memory SEARCH_BYTES BENCH_BYTES cpu MS".
//
// Usage: node --no-experimental-fetch bench/lib/wasm-bench.cjs ENGINE_DIR st|mt [DEPTH]
'use strict';

const { loadEngine } = require('../../tests/wasm/wasm-uci.cjs');

const [engineDir, build, depth] = process.argv.slice(2);
(async () => {
    const engine = await loadEngine(engineDir, build, 1);
    engine.send('position startpos');
    engine.send('go depth 12');
    await engine.waitFor(/^bestmove /, 0, 600000);
    // Linear memory: hash, histories, stacks and the heap as grown.
    const searchMemory = engine.module.HEAPU8.length;
    const from = engine.lines.length;
    const cpuBefore = process.cpuUsage();
    engine.send(depth ? `bench ${depth}` : 'bench');
    const i = await engine.waitFor(/^\d+ nodes \d+ nps$/, from, 1800000);
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
    console.log(`${engine.lines[i]} memory ${searchMemory} ${engine.module.HEAPU8.length} cpu ${cpuMs}`);
    process.exit(0);
})().catch((error) => {
    console.error(error.stack || String(error));
    process.exit(1);
});

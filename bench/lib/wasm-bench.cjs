// SPDX-License-Identifier: GPL-3.0-or-later
// Runs `bench [DEPTH]` in one build of the in-browser engine under node (bench/wasm-nps.sh) and
// prints its closing line and the module's memory: "NODES nodes NPS nps memory BYTES".
//
// Usage: node --no-experimental-fetch bench/lib/wasm-bench.cjs ENGINE_DIR st|mt [DEPTH]
'use strict';

const { loadEngine } = require('../../tests/wasm/wasm-uci.cjs');

const [engineDir, build, depth] = process.argv.slice(2);
(async () => {
    const engine = await loadEngine(engineDir, build, 1);
    engine.send(depth ? `bench ${depth}` : 'bench');
    const i = await engine.waitFor(/^\d+ nodes \d+ nps$/, 0, 1800000);
    // The linear memory after the search: hash, histories, stacks and the heap as grown.
    const memory = engine.module.HEAPU8.length;
    console.log(`${engine.lines[i]} memory ${memory}`);
    process.exit(0);
})().catch((error) => {
    console.error(error.stack || String(error));
    process.exit(1);
});

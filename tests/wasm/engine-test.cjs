// SPDX-License-Identifier: GPL-3.0-or-later
// Node test of the in-browser engine (scripts/test-wasm-engine.sh): bench signature, fixed-node
// searches, perft divides and `eval pieces` equal to the native engine's, the UCI handshake, malformed input answered with
// `info string error` while the engine keeps working, and each build's search behaviour (st: no
// unbounded search; mt: stop and isready during a search, helper threads).
//
// Usage: node --no-experimental-fetch tests/wasm/engine-test.cjs ENGINE_DIR st|mt NATIVE_AXON BENCH_NODES
'use strict';

const { spawnSync } = require('child_process');
const { loadEngine } = require('./wasm-uci.cjs');

const [engineDir, build, nativeAxon, benchNodes] = process.argv.slice(2);
if (!engineDir || !['st', 'mt'].includes(build) || !nativeAxon || !/^\d+$/.test(benchNodes || '')) {
    console.error('usage: engine-test.cjs ENGINE_DIR st|mt NATIVE_AXON BENCH_NODES');
    process.exit(2);
}

let failures = 0;
function check(ok, what, detail = '') {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${build}: ${what}${ok || !detail ? '' : '\n' + detail}`);
    if (!ok) ++failures;
}

// Positions for the fixed-node comparison: start, middlegames, an endgame, Chess960, moves.
const kSearchNodes = 40000;
const kPositions = [
    'position startpos',
    'position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
    'position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10',
    'position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
    'position startpos moves e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3',
];
const kChess960 = 'position fen qbb1rnkr/ppp3pp/4n3/3ppp2/1P3PP1/8/P1PPPN1P/QBB1RNKR w HEhe - 0 9';

// The search lines that must agree: scores, depths, nodes, PVs; time and nps differ.
function searchTranscript(lines) {
    return lines
        .filter((l) => /^info depth \d+ seldepth/.test(l) || l.startsWith('bestmove'))
        .map((l) => l.replace(/ nps \d+/, '').replace(/ time \d+/, ''));
}

function fixedNodeScript(position, chess960) {
    return ['ucinewgame', `setoption name UCI_Chess960 value ${chess960}`, position, `go nodes ${kSearchNodes}`];
}

async function compareSearches(engine) {
    const all = kPositions.map((p) => [p, false]).concat([[kChess960, true]]);
    for (const [position, chess960] of all) {
        const script = fixedNodeScript(position, chess960);
        const native = spawnSync(nativeAxon, [], { input: script.join('\n') + '\n', encoding: 'utf8' });
        const expected = searchTranscript(native.stdout.split('\n'));
        const from = engine.lines.length;
        script.forEach((c) => engine.send(c));
        const end = await engine.waitFor(/^bestmove /, from);
        const got = searchTranscript(engine.lines.slice(from, end + 1));
        const same = expected.length > 1 && JSON.stringify(got) === JSON.stringify(expected);
        check(same, `go nodes ${kSearchNodes} equals native: ${position.slice(0, 60)} -> ${got[got.length - 1]}`,
            `native:\n${expected.join('\n')}\nwasm:\n${got.join('\n')}`);
    }
}

// `go perft` through the engine module: the divide and total must be the native engine's.
async function comparePerft(engine) {
    const cases = [
        ['position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 4, false],
        ['position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 5, false],
        [kChess960, 4, true],
    ];
    for (const [position, depth, chess960] of cases) {
        const script = [`setoption name UCI_Chess960 value ${chess960}`, position, `go perft ${depth}`];
        const native = spawnSync(nativeAxon, [], { input: script.join('\n') + '\n', encoding: 'utf8' });
        const expected = native.stdout.split('\n').filter((l) => l !== '');
        const from = engine.lines.length;
        script.forEach((c) => engine.send(c));
        const end = await engine.waitFor(/^Nodes searched: /, from);
        const got = engine.lines.slice(from, end + 1);
        check(expected.length > 2 && JSON.stringify(got) === JSON.stringify(expected),
            `perft ${depth} equals native: ${position.slice(0, 50)} -> ${got[got.length - 1]}`,
            `native:\n${expected.join('\n')}\nwasm:\n${got.join('\n')}`);
    }
    engine.send('setoption name UCI_Chess960 value false');
}

// `eval pieces` (the analysis heat map): the same line as the native engine's, number for number.
async function comparePieces(engine) {
    const positions = kPositions.concat([
        'position fen 4k3/8/8/8/1b6/8/3N4/4K3 b - - 0 1',
        'position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3',
    ]);
    for (const position of positions) {
        const native = spawnSync(nativeAxon, [], { input: `${position}\neval pieces\n`, encoding: 'utf8' });
        const expected = native.stdout.split('\n').filter((l) => l.startsWith('info string pieces'));
        const from = engine.lines.length;
        engine.send(position);
        engine.send('eval pieces');
        const at = await engine.waitFor(/^info string pieces /, from);
        const got = engine.lines[at];
        check(expected.length === 1 && got === expected[0] && /^info string pieces base -?\d+( [a-h][1-8] [PNBRQpnbrq] -?\d+)+$/.test(got),
            `eval pieces equals native: ${position.slice(0, 50)} -> ${got.slice(0, 60)}`,
            `native: ${expected.join(' | ')}\nwasm:   ${got}`);
    }
}

async function handshake(engine) {
    const from = engine.lines.length;
    engine.send('uci');
    const ok = await engine.waitFor(/^uciok$/, from);
    const lines = engine.lines.slice(from, ok + 1);
    const threads = build === 'st' ? 1 : 2;
    check(lines[lines.length - 2] === `info string axon-wasm build=${build} threads=${threads}`,
        'uci names the build before uciok', lines.join('\n'));
    check(lines.some((l) => /^option name Hash type spin default 16 min 1 max 256$/.test(l)),
        'Hash defaults to 16 MiB and is capped at 256', lines.join('\n'));
    check(lines.some((l) => l === `option name Threads type spin default 1 min 1 max ${threads}`),
        `Threads max is ${threads}`, lines.join('\n'));
    const ready = engine.lines.length;
    engine.send('isready');
    await engine.waitFor(/^readyok$/, ready);
}

async function bench(engine) {
    const from = engine.lines.length;
    engine.send('bench');
    const i = await engine.waitFor(/^\d+ nodes \d+ nps$/, from, 600000);
    const nodes = engine.lines[i].split(' ')[0];
    check(nodes === benchNodes, `bench signature ${nodes} equals native ${benchNodes} (${engine.lines[i]})`);
}

// Each bad command must be answered with an error, and leave the engine working.
async function malformed(engine) {
    const bad = [
        'frobnicate',
        'position',
        'position fen not/a/fen w - - 0 1',
        'position startpos moves e2e4 e7e5 e1e3',
        'position sideways',
        'go depth x',
        'go nodes -5',
        'go movetime',
        'go sideways',
        'setoption name Hash value 100000',
        'setoption name Threads value 999',
        'setoption name No Such Option value 1',
        'setoption Hash 16',
        'bench 0',
        'eval piece',
        'x'.repeat(5000),
    ];
    engine.send('position startpos moves e2e4');
    for (const command of bad) {
        const from = engine.lines.length;
        engine.send(command);
        engine.send('isready');
        const ready = await engine.waitFor(/^readyok$/, from);
        const answer = engine.lines.slice(from, ready);
        check(answer.length === 1 && answer[0].startsWith('info string error: '),
            `'${command.slice(0, 40)}' -> ${answer.join(' | ').slice(0, 100)}`);
    }
    // A bad `position` leaves the previous one in place, and the engine still searches.
    const from = engine.lines.length;
    engine.send('d');
    const fen = await engine.waitFor(/^Fen: /, from);
    check(engine.lines[fen] === 'Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
        'the position survives bad commands', engine.lines[fen]);
    const go = engine.lines.length;
    engine.send('go depth 5');
    const best = await engine.waitFor(/^bestmove /, go);
    check(/^bestmove [a-h][1-8][a-h][1-8]/.test(engine.lines[best]), `then searches: ${engine.lines[best]}`);
}

// st: nothing can stop a running search, so unbounded ones are bounded and said so.
async function singleThreaded(engine) {
    for (const command of ['go infinite depth 3', 'go ponder depth 3']) {
        const from = engine.lines.length;
        engine.send('position startpos');
        engine.send(command);
        const best = await engine.waitFor(/^bestmove /, from);
        const lines = engine.lines.slice(from, best + 1);
        check(lines[0].startsWith('info string go ') && lines.some((l) => / depth 3 .* pv /.test(l)),
            `'${command}' is bounded, says so and reports`, lines.join('\n'));
    }
}

// mt: the search runs on its own thread, so isready and stop are answered during it.
async function multiThreaded(engine) {
    engine.send('setoption name Threads value 2');
    engine.send('position startpos');
    const from = engine.lines.length;
    engine.send('go infinite');
    await engine.waitFor(/^info depth 6 /, from);
    engine.send('isready');
    const ready = await engine.waitFor(/^readyok$/, from);
    check(!engine.lines.slice(from, ready).some((l) => l.startsWith('bestmove')), 'isready answered during go infinite');
    // The heat map's request is answered during the search too (the page asks while it analyses).
    engine.send('eval pieces');
    const pieces = await engine.waitFor(/^info string pieces /, from);
    check(!engine.lines.slice(from, pieces).some((l) => l.startsWith('bestmove')), 'eval pieces answered during go infinite');
    engine.send('stop');
    const best = await engine.waitFor(/^bestmove /, from, 10000);
    check(best > ready, `stop ends go infinite with 2 threads: ${engine.lines[best]}`);
    const depth = engine.lines.length;
    engine.send('go depth 9');
    const second = await engine.waitFor(/^bestmove /, depth);
    check(second > depth, `a second 2-thread search: ${engine.lines[second]}`);
    engine.send('setoption name Threads value 1');
}

(async () => {
    const engine = await loadEngine(engineDir, build, build === 'st' ? 1 : 2);
    await handshake(engine);
    await compareSearches(engine);
    await comparePerft(engine);
    await comparePieces(engine);
    await malformed(engine);
    if (build === 'st') await singleThreaded(engine);
    else await multiThreaded(engine);
    await bench(engine);
    engine.send('quit');
    console.log(`${build}: ${failures ? failures + ' FAILED' : 'all passed'}`);
    // The mt build's pthread workers would keep node alive.
    process.exit(failures ? 1 : 0);
})().catch((error) => {
    console.error(`FAIL ${build}: ${error.stack || error}`);
    process.exit(1);
});

// SPDX-License-Identifier: GPL-3.0-or-later
// Drives the in-browser engine's module (axon-st.js / axon-mt.js) under node as
// web/engine/axon-engine-worker.js does in a browser: UCI lines in through axon_command, output
// lines collected from Module.onLine. Used by the node tests and bench/wasm-nps.sh.
'use strict';

const path = require('path');

// Loads BUILD ('st' or 'mt') from ENGINE_DIR; maxThreads caps the Threads option (mt).
async function loadEngine(engineDir, build, maxThreads = 1) {
    const factory = require(path.resolve(engineDir, `axon-${build}.js`));
    const lines = [];
    let waiters = [];
    const onLine = (line) => {
        lines.push(line);
        waiters = waiters.filter((w) => !w.check());
    };
    const module = await factory({
        onLine,
        print: (text) => onLine('info string stdout: ' + text),
        printErr: (text) => onLine('info string stderr: ' + text),
    });
    module.ccall('axon_init', 'number', ['number'], [maxThreads]);

    return {
        build,
        lines,
        module,
        // Runs (st) or queues (mt) one command; st returns 1 after quit.
        send(command) {
            return module.ccall('axon_command', 'number', ['string'], [command]);
        },
        // Resolves with the index of the first line at or after `from` that matches `test` (a
        // RegExp or a function); rejects after timeoutMs.
        waitFor(test, from = 0, timeoutMs = 300000) {
            const matches = typeof test === 'function' ? test : (line) => test.test(line);
            return new Promise((resolve, reject) => {
                const waiter = {
                    check() {
                        for (let i = from; i < lines.length; ++i) {
                            if (matches(lines[i])) {
                                clearTimeout(waiter.timer);
                                resolve(i);
                                return true;
                            }
                        }
                        return false;
                    },
                };
                if (waiter.check()) return;
                waiter.timer = setTimeout(() => {
                    waiters = waiters.filter((w) => w !== waiter);
                    reject(new Error(`timed out after ${timeoutMs} ms waiting for ${test} in the ${build} engine; ` +
                        `last lines:\n${lines.slice(-10).join('\n')}`));
                }, timeoutMs);
                waiters.push(waiter);
            });
        },
    };
}

module.exports = { loadEngine };

// SPDX-License-Identifier: GPL-3.0-or-later
// The in-browser engine's Web Worker (classic, not a module): loads the threaded build (axon-mt)
// when the page is cross-origin isolated, else the single-threaded one (axon-st), and speaks UCI
// with the page: one command per message in, one output line per message out
// (docs/wasm-engine.md). The files it loads lie beside it.
'use strict';

// SharedArrayBuffer, which pthreads need, exists only in cross-origin isolated pages
// (COOP same-origin + COEP require-corp).
const threaded = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
const build = threaded ? 'mt' : 'st';
// More threads than cores only slow each other down; 32 bounds the worker pool on big machines.
const kMaxThreads = 32;
const maxThreads = threaded ? Math.max(1, Math.min(navigator.hardwareConcurrency || 1, kMaxThreads)) : 1;
const here = (file) => new URL(file, self.location.href).href;

let engine = null; // the emscripten module once loaded
let failed = false;
const pending = []; // commands that arrived while it loaded

function send(line) {
    self.postMessage(line);
}

function run(command) {
    if (failed) {
        send('info string error: the engine is not running (start a new worker)');
        return;
    }
    if (!engine) {
        pending.push(command);
        return;
    }
    let quit = false;
    try {
        quit = engine.ccall('axon_command', 'number', ['string'], [command]) === 1;
    } catch (error) {
        // An abort (out of memory) leaves the module unusable: the page must start a new worker.
        failed = true;
        send(`info string error: the engine stopped: ${error}`);
        return;
    }
    // mt: the command is queued for the UCI thread, which stops the search on `quit`; closing
    // the worker ends its threads as well.
    if (quit || command.trim() === 'quit') self.close();
}

self.onmessage = (event) => {
    // One command per message; a message with several lines is taken line by line.
    for (const line of String(event.data).split(/\r?\n/)) {
        if (line.trim() !== '') run(line);
    }
};

try {
    importScripts(here(threaded ? 'axon-mt.js' : 'axon-st.js'));
    const factory = threaded ? self.AxonEngineMt : self.AxonEngineSt;
    factory({
        onLine: send,
        locateFile: (file) => here(file),
        // The pthread workers load the main script again.
        mainScriptUrlOrBlob: here('axon-mt.js'),
        print: (text) => send('info string ' + text),
        printErr: (text) => send('info string ' + text),
    }).then(
        (module) => {
            engine = module;
            engine.ccall('axon_init', 'number', ['number'], [maxThreads]);
            for (const command of pending.splice(0)) run(command);
        },
        (error) => {
            failed = true;
            send(`info string error: the ${build} engine failed to load: ${error}`);
        },
    );
} catch (error) {
    failed = true;
    send(`info string error: the ${build} engine failed to load: ${error}`);
}

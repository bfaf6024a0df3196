// SPDX-License-Identifier: GPL-3.0-or-later
// window.axonHarness: start(workerUrl), send(cmd), waitFor(pattern, ms) -> lines since the last
// wait up to the first matching one. Driven from nps-bench.mjs through page.evaluate.
'use strict';
window.axonHarness = (() => {
  let worker = null;
  let lines = [];
  let waiter = null;
  const out = document.getElementById('out');
  function onLine(line) {
    lines.push(line);
    if (!line.startsWith('info depth') || line.includes(' pv ')) out.textContent += line + '\n';
    if (waiter && waiter.re.test(line)) {
      const w = waiter;
      waiter = null;
      w.resolve(lines.splice(0));
    }
  }
  return {
    start(url) {
      worker = new Worker(url);
      worker.onmessage = (e) => String(e.data).split('\n').filter(Boolean).forEach(onLine);
      worker.onerror = (e) => onLine(`info string harness: worker error ${e.message}`);
    },
    send(cmd) { worker.postMessage(cmd); },
    waitFor(pattern, ms) {
      return new Promise((resolve, reject) => {
        const re = new RegExp(pattern);
        const i = lines.findIndex((l) => re.test(l));
        if (i >= 0) { resolve(lines.splice(0, i + 1)); return; }
        const t = setTimeout(() => { waiter = null; reject(new Error(`no line matching ${pattern} in ${ms} ms; got ${lines.slice(-5).join(' | ')}`)); }, ms);
        waiter = { re, resolve: (l) => { clearTimeout(t); resolve(l); } };
      });
    },
    stop() { if (worker) worker.terminate(); worker = null; },
  };
})();

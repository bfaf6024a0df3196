// SPDX-License-Identifier: GPL-3.0-or-later
// `axon serve`'s WebSocket API as a referee for SAN: it parses a PGN or a SAN move list with
// the native chess core, so the page's PGN export and PV text are checked by code other than
// the page's own. Uses node's WebSocket (node 22, or node 20.10+ with --experimental-websocket);
// on older node (Debian 12's node 18 has none) the socket lives in a blank page of the test's
// chromium on the server's origin instead.
export class WsReferee {
  static async open(httpUrl, browser = null, timeoutMs = 10000) {
    const wsUrl = httpUrl.replace(/^http/, 'ws').replace(/\/?$/, '/ws');
    const r = new WsReferee();
    if (typeof WebSocket !== 'undefined') r.transport = await nodeTransport(wsUrl, timeoutMs);
    else if (browser) r.transport = await pageTransport(browser, httpUrl, wsUrl, timeoutMs);
    else throw new Error('referee: no WebSocket in this node and no browser to open one in');
    // hello, then the initial state
    await r.transport.next(timeoutMs);
    await r.transport.next(timeoutMs);
    return r;
  }

  async request(msg) {
    return this.transport.request(msg);
  }

  // The mainline of a PGN as UCI moves, or throws with the server's error.
  async pgnToUci(pgn) {
    const r = await this.request({ type: 'position', pgn });
    if (r.type !== 'state') throw new Error(`referee: PGN refused: ${r.message}`);
    return r.moves.map((m) => m.uci);
  }

  // SAN moves from a FEN as { ok, uci, error }.
  async sanLine(fen, sans) {
    const r = await this.request({ type: 'position', fen, moves: sans });
    if (r.type !== 'state') return { ok: false, error: r.message, uci: [] };
    return { ok: true, uci: r.moves.map((m) => m.uci), fen: r.fen };
  }

  async close() { await this.transport.close(); }
}

async function nodeTransport(wsUrl, timeoutMs) {
  const queue = [], waiters = [];
  const ws = new WebSocket(wsUrl);
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    const w = waiters.shift();
    if (w) w(msg); else queue.push(msg);
  };
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('referee: WebSocket did not open')), timeoutMs);
    ws.onopen = () => { clearTimeout(t); resolve(); };
    ws.onerror = (e) => { clearTimeout(t); reject(new Error(`referee: WebSocket error ${e.message ?? ''}`)); };
  });
  const next = (ms = timeoutMs) => {
    if (queue.length) return Promise.resolve(queue.shift());
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('referee: no reply')), ms);
      waiters.push((m) => { clearTimeout(t); resolve(m); });
    });
  };
  return {
    next,
    request: (msg) => { ws.send(JSON.stringify(msg)); return next(); },
    close: async () => { try { ws.close(); } catch { /* already closed */ } },
  };
}

async function pageTransport(browser, httpUrl, wsUrl, timeoutMs) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Any page of the server's origin will do; a missing file keeps the front end out of it.
  await page.goto(new URL('__referee_blank__', httpUrl).href);
  await page.evaluate(([url, ms]) => new Promise((resolve, reject) => {
    const queue = [], waiters = [];
    const ws = new WebSocket(url);
    ws.onmessage = (ev) => { const w = waiters.shift(); if (w) w(ev.data); else queue.push(ev.data); };
    const t = setTimeout(() => reject(new Error('referee: WebSocket did not open')), ms);
    ws.onopen = () => { clearTimeout(t); resolve(); };
    ws.onerror = () => { clearTimeout(t); reject(new Error('referee: WebSocket error')); };
    window.referee = {
      next: (wait) => (queue.length ? Promise.resolve(queue.shift()) : new Promise((res, rej) => {
        const tt = setTimeout(() => rej(new Error('referee: no reply')), wait);
        waiters.push((d) => { clearTimeout(tt); res(d); });
      })),
      send: (text) => ws.send(text),
    };
  }), [wsUrl, timeoutMs]);
  const next = async (ms = timeoutMs) => JSON.parse(await page.evaluate((wait) => window.referee.next(wait), ms));
  return {
    next,
    request: async (msg) => { await page.evaluate((text) => window.referee.send(text), JSON.stringify(msg)); return next(); },
    close: () => context.close(),
  };
}

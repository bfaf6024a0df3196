// SPDX-License-Identifier: GPL-3.0-or-later
// `axon serve`'s WebSocket API as a referee for SAN: it parses a PGN or a SAN move list with
// the native chess core, so the page's PGN export and PV text are checked by code other than
// the page's own. Needs a global WebSocket (node 22, or node 20 with --experimental-websocket).
export class WsReferee {
  static async open(httpUrl, timeoutMs = 10000) {
    if (typeof WebSocket === 'undefined') throw new Error('no global WebSocket: run node with --experimental-websocket');
    const r = new WsReferee();
    r.queue = [];
    r.waiters = [];
    r.ws = new WebSocket(httpUrl.replace(/^http/, 'ws').replace(/\/?$/, '/ws'));
    r.ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      const w = r.waiters.shift();
      if (w) w(msg); else r.queue.push(msg);
    };
    await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('referee: WebSocket did not open')), timeoutMs);
      r.ws.onopen = () => { clearTimeout(t); resolve(); };
      r.ws.onerror = (e) => { clearTimeout(t); reject(new Error(`referee: WebSocket error ${e.message ?? ''}`)); };
    });
    // hello, then the initial state
    await r.next(timeoutMs);
    await r.next(timeoutMs);
    return r;
  }

  next(timeoutMs = 10000) {
    if (this.queue.length) return Promise.resolve(this.queue.shift());
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('referee: no reply')), timeoutMs);
      this.waiters.push((m) => { clearTimeout(t); resolve(m); });
    });
  }

  async request(msg) {
    this.ws.send(JSON.stringify(msg));
    return this.next();
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

  close() { try { this.ws.close(); } catch { /* already closed */ } }
}

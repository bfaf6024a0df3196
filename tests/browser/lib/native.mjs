// SPDX-License-Identifier: GPL-3.0-or-later
// The native engine as an independent referee: legality of a move list (UCI `position ...
// moves ...` refuses an illegal move with an `info string error`), the resulting FEN (`d`),
// the legal moves of a position (`go perft 1`), and fixed-node searches for the nps bench.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export class NativeEngine {
  constructor(binary) {
    this.proc = spawn(binary, [], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.waiters = [];
    this.lines = [];
    createInterface({ input: this.proc.stdout }).on('line', (line) => {
      this.lines.push(line);
      for (const w of [...this.waiters]) {
        if (w.match(line)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(this.lines.splice(0));
        }
      }
    });
    this.exited = new Promise((resolve) => this.proc.on('exit', resolve));
  }

  // Sends commands and resolves with every line printed up to the one that `match` accepts.
  async exchange(commands, match, timeoutMs = 60000) {
    this.lines = [];
    let timer;
    const done = new Promise((resolve, reject) => {
      this.waiters.push({ match, resolve });
      timer = setTimeout(() => reject(new Error(`native engine: no answer to ${commands.join(' | ')}`)), timeoutMs);
    });
    this.proc.stdin.write(commands.join('\n') + '\n');
    try {
      return await done;
    } finally {
      clearTimeout(timer);
    }
  }

  async init() {
    await this.exchange(['uci'], (l) => l === 'uciok');
    await this.exchange(['isready'], (l) => l === 'readyok');
  }

  // Replays `moves` from `fen`. Returns { ok, error, fen, legal } where `legal` lists the legal
  // moves of the final position (empty once the game is over).
  async replay(fen, moves) {
    const pos = `position fen ${fen}` + (moves.length ? ` moves ${moves.join(' ')}` : '');
    const out = await this.exchange([pos, 'd', 'go perft 1', 'isready'], (l) => l === 'readyok');
    const error = out.find((l) => l.startsWith('info string error'));
    const fenLine = out.find((l) => l.startsWith('Fen: '));
    const legal = out.filter((l) => /^[a-h][1-8][a-h][1-8][qrbn]?: \d+$/.test(l)).map((l) => l.split(':')[0]);
    return { ok: !error, error: error ?? null, fen: fenLine ? fenLine.slice(5).trim() : null, legal };
  }

  // `go nodes N` from `fen`; resolves with the last info line's numbers and the bestmove.
  async searchNodes(fen, nodes) {
    const out = await this.exchange([`position fen ${fen}`, `go nodes ${nodes}`], (l) => l.startsWith('bestmove'), 300000);
    return lastSearchInfo(out);
  }

  async setOption(name, value) {
    this.proc.stdin.write(`setoption name ${name} value ${value}\n`);
    await this.exchange(['isready'], (l) => l === 'readyok');
  }

  async quit() {
    this.proc.stdin.write('quit\n');
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 3000);
    await this.exited;
    clearTimeout(t);
  }
}

// The numbers of the last `info ... nodes ... nps ...` line of a search and its bestmove.
export function lastSearchInfo(lines) {
  let info = null;
  for (const l of lines) {
    if (!l.startsWith('info ') || !/ nodes \d+/.test(l)) continue;
    const num = (k) => { const m = l.match(new RegExp(` ${k} (\\d+)`)); return m ? Number(m[1]) : null; };
    info = { depth: num('depth'), nodes: num('nodes'), nps: num('nps'), time: num('time'), line: l };
  }
  const best = lines.find((l) => l.startsWith('bestmove'));
  return { ...info, bestmove: best ? best.split(/\s+/)[1] : null };
}

// FENs equal up to the en-passant field, where one side may omit a square no pawn can take on.
export function sameFen(a, b) {
  const fa = a.trim().split(/\s+/), fb = b.trim().split(/\s+/);
  if (fa.length !== 6 || fb.length !== 6) return false;
  for (const i of [0, 1, 2, 4, 5]) if (fa[i] !== fb[i]) return false;
  return fa[3] === fb[3] || fa[3] === '-' || fb[3] === '-';
}

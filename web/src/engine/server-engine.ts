// SPDX-License-Identifier: GPL-3.0-or-later
// ServerEngine: the native engine of `axon serve`, over its WebSocket JSON protocol (docs/server.md).

import {
  EngineBase,
  optionRangeError,
  type AnalysisLimits,
  type Engine,
  type EngineBuild,
  type EngineKind,
  type EngineOptionName,
  type PieceEval,
  type SearchHandle,
  type SearchInfo,
  type SearchProgress,
  type SearchRequest,
  type SearchResult,
  type SpinOption,
  type TablebaseAnswer,
  type TablebaseMove,
} from './engine';

export interface ServerMessage {
  type: string;
  id?: unknown;
  [field: string]: unknown;
}

interface ActiveSearch {
  id: number;
  onInfo?: (info: SearchInfo) => void;
  onProgress?: (progress: SearchProgress) => void;
  resolve: (result: SearchResult) => void;
  stopRequested: boolean;
  /** The cap `searching` announced (null: none, until stop); undefined until it came. */
  maxTimeMs?: number | null;
}

/** Waits before each reconnection attempt after the server went away, longer each time (then the last, again and again). */
export const kReconnectDelaysMs = [500, 1000, 2000, 4000, 8000, 15_000];
const kReconnectTimeoutMs = 2500;

/** Opens a socket to axon serve and waits for its hello; rejects after timeoutMs or on failure. */
function openSocket(url: string, timeoutMs: number): Promise<{ socket: WebSocket; hello: ServerMessage }> {
  return new Promise((resolve, reject) => {
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch (error) {
      reject(error);
      return;
    }
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error('no answer from ' + url));
    }, timeoutMs);
    const fail = (): void => {
      clearTimeout(timer);
      reject(new Error('cannot connect to ' + url));
    };
    socket.addEventListener('error', fail);
    socket.addEventListener('close', fail);
    socket.addEventListener('message', function onHello(event) {
      let message: ServerMessage;
      try {
        message = JSON.parse(String(event.data)) as ServerMessage;
      } catch {
        return;
      }
      if (message.type !== 'hello') return;
      clearTimeout(timer);
      socket.removeEventListener('message', onHello);
      socket.removeEventListener('error', fail);
      socket.removeEventListener('close', fail);
      resolve({ socket, hello: message });
    });
  });
}

/** The WebSocket address of the server that served this page. */
export function serverSocketUrl(): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws`;
}

export class ServerEngine extends EngineBase implements Engine {
  readonly kind: EngineKind = 'server';
  readonly build: EngineBuild = 'native';
  private m_socket!: WebSocket;
  private readonly m_url: string;
  /** Reconnection attempts since the connection was lost. */
  private m_attempt = 0;
  private m_retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the next attempt starts (ms since the epoch), or 0 while one is under way. */
  private m_retryAt = 0;
  private m_disposed = false;
  private m_nextId = 1;
  private m_replies = new Map<number, (message: ServerMessage) => void>();
  private m_active: ActiveSearch | null = null;
  /** Settles when the previous search has ended, so the next position/go is accepted. */
  private m_idle: Promise<unknown> = Promise.resolve();
  private m_cancelPrevious: (() => void) | null = null;
  private m_ready: Promise<void>;
  private m_limits: AnalysisLimits = { unlimited: false, maxThinkMs: null, hash: null, threads: null };
  /** Options the page set: a new session after a reconnection gets them again. */
  private m_chosenOptions = new Map<EngineOptionName, number>();

  /** Opens /ws; resolves once the server said hello, rejects after timeoutMs or on failure. */
  static async connect(url: string, timeoutMs: number): Promise<ServerEngine> {
    const { socket, hello } = await openSocket(url, timeoutMs);
    return new ServerEngine(url, socket, hello);
  }

  private constructor(url: string, socket: WebSocket, hello: ServerMessage) {
    super();
    this.m_url = url;
    this.attach(socket, hello);
    this.m_ready = Promise.resolve();
    this.setState('ready');
  }

  /** When the next reconnection attempt starts (ms since the epoch; 0: one is under way or none is needed). */
  get retryAt(): number {
    return this.m_retryAt;
  }

  /** While reconnecting: tries at once instead of waiting (the user picked this engine again). */
  reconnectNow(): void {
    if (this.m_state !== 'reconnecting' || this.m_retryAt === 0) return;
    void this.tryReconnect();
  }

  get analysisLimits(): AnalysisLimits {
    return this.m_limits;
  }

  private attach(socket: WebSocket, hello: ServerMessage): void {
    this.m_socket = socket;
    this.m_name = `${String(hello.engine ?? 'Axon')} (server)`;
    this.m_limits = limitsFromHello(hello);
    socket.addEventListener('message', (event) => {
      if (socket === this.m_socket) this.handle(JSON.parse(String(event.data)) as ServerMessage);
    });
    socket.addEventListener('close', () => {
      if (socket === this.m_socket) this.lost();
    });
  }

  /** The connection closed (a server restart, a network change): end what waited on it, then reconnect with backoff. */
  private lost(): void {
    if (this.m_disposed) {
      this.setState('error', 'the connection to the server was closed');
    } else this.scheduleReconnect();
    this.finishActive(null, null);
    // Requests waiting for a reply get an error, so that no search waits forever.
    for (const reply of this.m_replies.values()) reply({ type: 'error', message: 'connection closed' });
    this.m_replies.clear();
  }

  private scheduleReconnect(): void {
    const delay = kReconnectDelaysMs[Math.min(this.m_attempt, kReconnectDelaysMs.length - 1)]!;
    this.m_attempt++;
    this.m_retryAt = Date.now() + delay;
    clearTimeout(this.m_retryTimer);
    this.m_retryTimer = setTimeout(() => void this.tryReconnect(), delay);
    this.setState('reconnecting', 'the connection to the server was lost');
  }

  private async tryReconnect(): Promise<void> {
    clearTimeout(this.m_retryTimer);
    this.m_retryAt = 0;
    this.setState('reconnecting', 'the connection to the server was lost');
    try {
      const { socket, hello } = await openSocket(this.m_url, kReconnectTimeoutMs);
      if (this.m_disposed) {
        socket.close();
        return;
      }
      this.m_attempt = 0;
      this.attach(socket, hello);
      // A new session on the server: nothing of the old one is waited for, but it starts with
      // the server's default options, so the ones the page chose are set again first.
      this.m_idle = this.reapplyOptions().catch(() => undefined);
      this.setState('ready');
    } catch {
      if (!this.m_disposed) this.scheduleReconnect();
    }
  }

  ready(): Promise<void> {
    return this.m_ready;
  }

  search(request: SearchRequest): SearchHandle {
    this.m_cancelPrevious?.();
    let stopRequested = false;
    let activeId = -1;
    const previous = this.m_idle;
    const result = (async (): Promise<SearchResult> => {
      await previous;
      if (stopRequested || this.m_state === 'error' || this.m_state === 'reconnecting') return { bestmove: null, ponder: null, stopped: true };
      const state = await this.request({ type: 'position', fen: request.fen, moves: request.moves });
      if (state.type === 'error') throw new Error(String(state.message));
      if (stopRequested) return { bestmove: null, ponder: null, stopped: true };
      const id = this.m_nextId++;
      activeId = id;
      const go: Record<string, unknown> = { type: 'go', id, multipv: request.limits.multipv ?? 1 };
      const limits = request.limits;
      if (limits.movetime !== undefined) go.movetime = limits.movetime;
      else if (limits.clock) go.clock = limits.clock;
      if (limits.depth !== undefined) go.depth = limits.depth;
      if (limits.nodes !== undefined) go.nodes = limits.nodes;
      if (go.movetime === undefined && !go.clock && go.depth === undefined && go.nodes === undefined) go.infinite = true;
      if (limits.elo !== undefined) go.elo = limits.elo;
      return new Promise<SearchResult>((resolve) => {
        this.m_active = { id, onInfo: request.onInfo, onProgress: request.onProgress, resolve, stopRequested: false };
        this.setState('thinking');
        this.send(go);
      });
    })();
    const stop = (): void => {
      stopRequested = true;
      if (this.m_active && this.m_active.id === activeId && !this.m_active.stopRequested) {
        this.m_active.stopRequested = true;
        this.send({ type: 'stop' });
      }
    };
    this.m_cancelPrevious = stop;
    this.m_idle = result.catch(() => undefined);
    return { result, stop };
  }

  newGame(): void {
    const previous = this.m_idle;
    this.m_idle = previous.then(() => this.request({ type: 'newGame' })).catch(() => undefined);
  }

  /** The server's `evalPieces` request: answered at once, during a search too (docs/server.md). */
  async evalPieces(fen: string): Promise<PieceEval> {
    this.requireConnected();
    const reply = await this.request({ type: 'evalPieces', fen });
    if (reply.type !== 'pieces') throw new Error(String(reply.message ?? 'no answer from the server'));
    return toPieceEval(reply);
  }

  /** The server's `tablebase` request: answered at once, during a search too (docs/server.md). */
  async tablebase(fen: string): Promise<TablebaseAnswer> {
    this.requireConnected();
    const reply = await this.request({ type: 'tablebase', fen });
    if (reply.type !== 'tablebase') throw new Error(String(reply.message ?? 'no answer from the server'));
    return toTablebaseAnswer(reply);
  }

  /** Throws for a request the server cannot answer now (no connection, or a failed one). */
  private requireConnected(): void {
    if (this.m_state === 'error' || this.m_socket.readyState !== WebSocket.OPEN)
      throw new Error(this.m_error || 'the server engine is not connected');
  }

  /** `setOption` once the previous search has ended; the server checks its own budget too. */
  setOption(name: EngineOptionName, value: number): Promise<void> {
    const done = this.m_idle.then(async () => {
      const option = name === 'Hash' ? this.m_limits.hash : this.m_limits.threads;
      if (!option) throw new Error(`this server does not offer ${name}`);
      const outOfRange = optionRangeError(name, value, option);
      if (outOfRange) throw new Error(outOfRange);
      if (this.m_state === 'error' || this.m_state === 'reconnecting') throw new Error('the server engine is not connected');
      const reply = await this.request({ type: 'setOption', name, value: String(value) });
      if (reply.type !== 'option') throw new Error(readableServerError(reply.message));
      option.value = Number(reply.value ?? value);
      this.m_chosenOptions.set(name, option.value);
    });
    this.m_idle = done.catch(() => undefined);
    return done;
  }

  /** After a reconnection: the page's Hash and Threads again, each kept within the new session's range. */
  private async reapplyOptions(): Promise<void> {
    for (const [name, value] of this.m_chosenOptions) {
      const option = name === 'Hash' ? this.m_limits.hash : this.m_limits.threads;
      if (!option) continue;
      const wanted = Math.max(option.min, Math.min(option.max, value));
      if (wanted === option.value) continue;
      const reply = await this.request({ type: 'setOption', name, value: String(wanted) });
      if (reply.type === 'option') option.value = Number(reply.value ?? wanted);
    }
  }

  dispose(): void {
    this.m_disposed = true;
    clearTimeout(this.m_retryTimer);
    this.m_cancelPrevious?.();
    this.m_socket.close();
  }

  private send(message: Record<string, unknown>): void {
    if (this.m_socket.readyState === WebSocket.OPEN) this.m_socket.send(JSON.stringify(message));
  }

  private request(message: Record<string, unknown>): Promise<ServerMessage> {
    const id = this.m_nextId++;
    return new Promise((resolve) => {
      this.m_replies.set(id, resolve);
      this.send({ ...message, id });
    });
  }

  private handle(message: ServerMessage): void {
    const id = typeof message.id === 'number' ? message.id : -1;
    const active = this.m_active;
    if (active && id === active.id) {
      if (message.type === 'info') active.onInfo?.(toSearchInfo(message));
      else if (message.type === 'progress') active.onProgress?.(toSearchProgress(message));
      else if (message.type === 'searching') active.maxTimeMs = typeof message.maxTimeMs === 'number' ? message.maxTimeMs : null;
      else if (message.type === 'bestmove')
        this.finishActive((message.move as string | null) ?? null, (message.ponder as string | null) ?? null, message.yielded === true);
      else if (message.type === 'error') {
        console.warn('axon serve:', message.message);
        this.finishActive(null, null);
      }
      return;
    }
    const reply = this.m_replies.get(id);
    const replyTypes = ['state', 'error', 'option', 'pieces', 'tablebase'];
    if (reply && replyTypes.includes(message.type)) {
      this.m_replies.delete(id);
      reply(message);
    } else if (message.type === 'error') {
      console.warn('axon serve:', message.message);
    }
  }

  private finishActive(bestmove: string | null, ponder: string | null, yielded = false): void {
    const active = this.m_active;
    if (!active) return;
    this.m_active = null;
    if (this.m_state === 'thinking') this.setState('ready');
    active.resolve({ bestmove, ponder, stopped: active.stopRequested, maxTimeMs: active.maxTimeMs, yielded });
  }
}

/**
 * What hello says about analysis: `analysisUnlimited` (absent before the server had it: every
 * search capped), `maxThinkMs`, and the range and value of `Hash` and `Threads` in `options`.
 */
export function limitsFromHello(hello: Record<string, unknown>): AnalysisLimits {
  const options = Array.isArray(hello.options) ? (hello.options as Record<string, unknown>[]) : [];
  const spin = (name: string): SpinOption | null => {
    const option = options.find((o) => o.name === name);
    if (!option) return null;
    const min = Number(option.min);
    const max = Number(option.max);
    const value = Number(option.value ?? option.default);
    return Number.isFinite(min) && Number.isFinite(max) && Number.isFinite(value) ? { min, max, value } : null;
  };
  return {
    unlimited: hello.analysisUnlimited === true,
    maxThinkMs: typeof hello.maxThinkMs === 'number' ? hello.maxThinkMs : null,
    hash: spin('Hash'),
    threads: spin('Threads'),
  };
}

/** The server's error without its `setOption: ` prefix, which names the request the user did not type. */
function readableServerError(message: unknown): string {
  const text = String(message ?? 'no answer from the server');
  return text.replace(/^setOption:\s*/, '');
}
/** A `tablebase` reply as the page uses it; anything malformed reads as "not in the tables". */
export function toTablebaseAnswer(message: ServerMessage): TablebaseAnswer {
  const available = message.available === true;
  const inTables = message.inTables === true;
  const moves: TablebaseMove[] = [];
  if (inTables && Array.isArray(message.moves))
    for (const m of message.moves as Record<string, unknown>[])
      if (typeof m.uci === 'string' && typeof m.san === 'string' && typeof m.wdl === 'string')
        moves.push({ uci: m.uci, san: m.san, wdl: m.wdl, dtz: Number(m.dtz ?? 0) });
  return {
    available,
    inTables,
    wdl: inTables && typeof message.wdl === 'string' ? message.wdl : undefined,
    dtz: inTables ? Number(message.dtz ?? 0) : undefined,
    moves,
    note: available ? undefined : 'the server has no tablebases (axon serve --syzygy-path DIR)',
  };
}

function toSearchInfo(message: ServerMessage): SearchInfo {
  const score = (message.score ?? {}) as { cp?: number; mate?: number; tb?: boolean; bound?: string };
  const wdl = message.wdl as number[] | undefined;
  return {
    depth: Number(message.depth ?? 0),
    seldepth: Number(message.seldepth ?? 0),
    multipv: Number(message.multipv ?? 1),
    score: {
      cp: score.cp,
      mate: score.mate,
      tb: score.tb === true ? true : undefined,
      bound: score.bound === 'lower' ? 'lower' : score.bound === 'upper' ? 'upper' : 'exact',
    },
    nodes: Number(message.nodes ?? 0),
    nps: Number(message.nps ?? 0),
    hashfull: Number(message.hashfull ?? 0),
    wdl: wdl && wdl.length === 3 ? [wdl[0]!, wdl[1]!, wdl[2]!] : undefined,
    time: Number(message.time ?? 0),
    pv: (message.pv as string[] | undefined) ?? [],
  };
}

function toSearchProgress(message: ServerMessage): SearchProgress {
  const progress: SearchProgress = {
    depth: Number(message.depth ?? 0),
    seldepth: Number(message.seldepth ?? 0),
    nodes: Number(message.nodes ?? 0),
    nps: Number(message.nps ?? 0),
    hashfull: Number(message.hashfull ?? 0),
    time: Number(message.time ?? 0),
  };
  if (typeof message.currmove === 'string') progress.currmove = message.currmove;
  if (typeof message.currmovenumber === 'number') progress.currmovenumber = message.currmovenumber;
  return progress;
}

function toPieceEval(message: ServerMessage): PieceEval {
  const pieces = (message.pieces as { square?: unknown; piece?: unknown; cp?: unknown }[] | undefined) ?? [];
  return {
    base: Number(message.base ?? 0),
    pieces: pieces.map((p) => ({ square: String(p.square), piece: String(p.piece), cp: Number(p.cp) })),
  };
}

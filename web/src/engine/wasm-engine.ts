// SPDX-License-Identifier: GPL-3.0-or-later
// WasmEngine: Axon compiled to WebAssembly, in the Web Worker engine/axon-engine-worker.js speaking UCI.

import { needsChess960Castling } from './chess960-castling';
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
  type SearchLimits,
  type SearchProgress,
  type SearchRequest,
  type SearchResult,
  type SpinOption,
  type TablebaseAnswer,
} from './engine';
import { fenPieceList, parseBestMove, parseInfoLine, parsePiecesLine, parseProgressLine, parseSpinOption, pieceEvalList } from './uci-parse';

export const kWorkerUrl = 'engine/axon-engine-worker.js';
/** The single-threaded build cannot be stopped by message, so "infinite" becomes this long. */
const kStInfiniteMs = 60_000;
const kBootTimeoutMs = 30_000;
const kHashMiB = 32;
/** Search threads of the mt build: half the cores (the page and the OS need some), at most this. */
const kMaxSearchThreads = 4;
/**
 * How often the engine reports progress between lines (`Progress Interval`, ms): several times a
 * second for the live node count, rarely enough to cost nothing measurable.
 */
const kProgressIntervalMs = 250;

interface ActiveSearch {
  request: SearchRequest;
  onInfo?: (info: SearchInfo) => void;
  onProgress?: (progress: SearchProgress) => void;
  resolve: (result: SearchResult) => void;
  bestPvMove: string | null;
  stopRequested: boolean;
}

/** A command followed by `isready`: settles at `readyok`, rejected by an error line before it. */
interface ReadyWaiter {
  resolve: () => void;
  reject: (error: Error) => void;
  error?: string;
}

/** An `eval pieces` asked of the worker: posted once it is ready, answered in order. */
interface PiecesRequest {
  fen: string;
  resolve: (answer: PieceEval) => void;
  reject: (error: Error) => void;
  posted: boolean;
}

export class WasmEngine extends EngineBase implements Engine {
  readonly kind: EngineKind = 'wasm';
  private m_build: EngineBuild = 'st';
  private m_threads = 1;
  /** Threads and Hash as the user chose them (setOption); null: this engine's defaults. */
  private m_chosenThreads: number | null = null;
  private m_hashMiB = kHashMiB;
  private m_worker: Worker | null = null;
  private m_lineListener: ((line: string) => void) | null = null;
  private m_options = new Set<string>();
  /** The spin options' ranges, from the `uci` listing. */
  private m_spins = new Map<string, SpinOption>();
  private m_readyWaiters: ReadyWaiter[] = [];
  private m_sentOptions = new Map<string, string>();
  private m_active: ActiveSearch | null = null;
  private m_booting: Promise<void>;
  private m_idle: Promise<unknown> = Promise.resolve();
  private m_cancelPrevious: (() => void) | null = null;
  /** The current worker has answered `isready`: commands posted now reach a running engine. */
  private m_workerReady = false;
  private m_pieces: PiecesRequest[] = [];

  constructor(private readonly m_url: string = kWorkerUrl) {
    super();
    this.m_booting = this.boot();
    this.m_booting.catch(() => undefined);
  }

  get build(): EngineBuild {
    return this.m_build;
  }
  /** Search threads in use (1 in the st build). */
  get threads(): number {
    return this.m_threads;
  }

  /**
   * The mt build analyses until stopped; the st build runs "infinite" as kStInfiniteMs (it
   * reads no message while searching). Hash up to what the worker's 32-bit memory allows, as
   * its `option` line says (256 MiB); Threads up to the worker's pool (1 in st).
   */
  get analysisLimits(): AnalysisLimits {
    const hash = this.m_spins.get('Hash');
    const threads = this.m_spins.get('Threads');
    return {
      unlimited: this.m_build === 'mt',
      maxThinkMs: this.m_build === 'mt' ? null : kStInfiniteMs,
      hash: hash ? { ...hash, value: this.m_hashMiB } : null,
      threads: threads ? { ...threads, max: this.m_build === 'mt' ? threads.max : 1, value: this.m_threads } : null,
    };
  }

  /**
   * Sets Hash or Threads once the running search has ended (stop it first): kept for every later
   * worker (a restart after stop in st boots a fresh one with them) and sent to the current one.
   */
  setOption(name: EngineOptionName, value: number): Promise<void> {
    const done = this.m_idle
      .then(() => this.m_booting)
      .then(async () => {
        const option = name === 'Hash' ? this.analysisLimits.hash : this.analysisLimits.threads;
        if (!option) throw new Error(`the in-browser engine does not offer ${name}`);
        const outOfRange = optionRangeError(name, value, option);
        if (outOfRange) throw new Error(outOfRange);
        if (name === 'Hash') this.m_hashMiB = value;
        else {
          this.m_chosenThreads = value;
          this.m_threads = value;
        }
        await this.command(`setoption name ${name} value ${value}`);
      });
    this.m_idle = done.catch(() => undefined);
    return done;
  }

  ready(): Promise<void> {
    return this.m_booting;
  }

  search(request: SearchRequest): SearchHandle {
    this.m_cancelPrevious?.();
    let stopRequested = false;
    let mine: ActiveSearch | null = null;
    const previous = this.m_idle;
    const result = (async (): Promise<SearchResult> => {
      await previous;
      await this.m_booting;
      // The worker died after booting (a crash): start a fresh one.
      if (!this.m_worker) {
        this.m_booting = this.boot();
        await this.m_booting;
      }
      if (stopRequested) return { bestmove: null, ponder: null, stopped: true };
      this.configure(request.limits);
      this.sendOption('UCI_Chess960', needsChess960Castling(request.fen) ? 'true' : 'false');
      const moves = request.moves.length ? ` moves ${request.moves.join(' ')}` : '';
      this.post(`position fen ${request.fen}${moves}`);
      return new Promise<SearchResult>((resolve) => {
        mine = { request, onInfo: request.onInfo, onProgress: request.onProgress, resolve, bestPvMove: null, stopRequested: false };
        this.m_active = mine;
        this.setState('thinking');
        this.post(this.goCommand(request.limits));
      });
    })();
    const stop = (): void => {
      stopRequested = true;
      if (mine && this.m_active === mine && !mine.stopRequested) {
        mine.stopRequested = true;
        if (this.m_build === 'mt') this.post('stop');
        else this.stopByRestart();
      }
    };
    this.m_cancelPrevious = stop;
    this.m_idle = result.catch(() => undefined);
    return { result, stop };
  }

  newGame(): void {
    this.m_idle = this.m_idle.then(() => this.m_booting).then(() => this.post('ucinewgame')).catch(() => undefined);
  }

  /** The in-browser engine reads no tablebases: the server does (axon serve --syzygy-path). */
  tablebase(_fen: string): Promise<TablebaseAnswer> {
    return Promise.resolve({
      available: false,
      inTables: false,
      moves: [],
      note: 'tablebases need the server engine (axon serve --syzygy-path DIR)',
    });
  }

  /**
   * `position fen` + `eval pieces`, posted at once rather than after the running search: the mt
   * build's UCI thread answers during a search. The st build reads nothing until its search ends:
   * a bounded search (a game move, a review step) is waited for; an unbounded analysis (60 s in
   * st) is restarted in a new worker, which answers first (see restartAnalysis).
   */
  evalPieces(fen: string): Promise<PieceEval> {
    return new Promise<PieceEval>((resolve, reject) => {
      this.m_pieces.push({ fen, resolve, reject, posted: false });
      const active = this.m_active;
      if (this.m_build === 'st' && active && this.m_workerReady && isUnbounded(active.request.limits)) this.restartAnalysis(active);
      else this.postPieces();
    });
  }

  /**
   * st only: replaces the worker busy with an analysis by a fresh one, which answers the waiting
   * `eval pieces` first and then runs the same analysis again from its start (the hash is lost).
   * The analysis's handle stays valid: its lines keep coming, its stop() still ends it.
   */
  private restartAnalysis(active: ActiveSearch): void {
    this.m_worker?.terminate();
    this.m_worker = null;
    this.m_workerReady = false;
    this.m_booting = this.boot();
    this.m_booting.then(
      () => {
        if (this.m_active !== active || active.stopRequested) return;
        this.configure(active.request.limits);
        const moves = active.request.moves.length ? ` moves ${active.request.moves.join(' ')}` : '';
        this.post(`position fen ${active.request.fen}${moves}`);
        this.setState('thinking');
        this.post(this.goCommand(active.request.limits));
      },
      () => undefined,
    );
  }

  dispose(): void {
    this.m_cancelPrevious?.();
    this.m_worker?.terminate();
    this.m_worker = null;
    this.m_workerReady = false;
    this.failPieces('the engine was closed');
    this.failReadyWaiters('the engine was closed');
  }

  /** Posts `line` and `isready`; settles at `readyok`, rejects when an error line came first. */
  private command(line: string): Promise<void> {
    if (!this.m_worker || !this.m_workerReady) return Promise.reject(new Error('the in-browser engine is not running'));
    return new Promise<void>((resolve, reject) => {
      this.m_readyWaiters.push({ resolve, reject });
      this.post(line);
      this.post('isready');
    });
  }

  private failReadyWaiters(message: string): void {
    for (const waiter of this.m_readyWaiters.splice(0)) waiter.reject(new Error(message));
  }

  private postPieces(): void {
    if (!this.m_worker || !this.m_workerReady) return;
    for (const request of this.m_pieces) {
      if (request.posted) continue;
      request.posted = true;
      this.post(`position fen ${request.fen}`);
      this.post('eval pieces');
    }
  }

  private failPieces(message: string): void {
    for (const request of this.m_pieces.splice(0)) request.reject(new Error(message));
  }

  private onPiecesLine(line: string): void {
    const request = this.m_pieces.find((r) => r.posted);
    if (!request) return;
    this.m_pieces.splice(this.m_pieces.indexOf(request), 1);
    const answer = parsePiecesLine(line);
    if (!answer) request.reject(new Error(`unreadable answer: ${line.slice(0, 80)}`));
    else if (pieceEvalList(answer) !== fenPieceList(request.fen))
      request.reject(new Error('the engine did not take the position'));
    else request.resolve(answer);
  }

  /** Starts the worker and runs the uci / isready handshake. */
  private boot(): Promise<void> {
    this.setState('loading');
    this.m_sentOptions.clear();
    // Requests posted to a previous worker went with it: the new one gets them once ready.
    this.m_workerReady = false;
    for (const request of this.m_pieces) request.posted = false;
    // Commands sent to a previous worker are not answered: what they set is applied below.
    this.failReadyWaiters('the engine restarted');
    return new Promise<void>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = new Worker(this.m_url);
      } catch (error) {
        this.setState('error', `cannot start the engine worker: ${String(error)}`);
        reject(error);
        return;
      }
      this.m_worker = worker;
      const timer = setTimeout(() => fail('the engine did not answer in time'), kBootTimeoutMs);
      const fail = (message: string): void => {
        clearTimeout(timer);
        worker.terminate();
        // A worker replaced while it booted (stopByRestart during restartAnalysis's boot) fails
        // alone: its successor is the engine now.
        if (this.m_worker !== worker && this.m_worker !== null) {
          reject(new Error(message));
          return;
        }
        this.m_worker = null;
        this.setState('error', message);
        this.finishActive(null, null);
        this.failPieces(message);
        reject(new Error(message));
      };
      worker.onerror = (event) => {
        event.preventDefault();
        fail(`engine worker failed: ${event.message || 'could not load ' + this.m_url}`);
      };
      worker.onmessage = (event: MessageEvent) => {
        for (const line of String(event.data).split('\n')) if (line) this.m_lineListener?.(line);
      };
      this.m_lineListener = (line) => {
        if (line.startsWith('info string error')) {
          fail(line.replace(/^info string error:?\s*/, ''));
          return;
        }
        const build = /axon-wasm build=(mt|st)/.exec(line);
        if (build) this.m_build = build[1] as EngineBuild;
        const name = /^id name (.+)$/.exec(line);
        if (name) this.m_name = `${name[1]!} (WASM)`;
        const option = /^option name (.+?) type /.exec(line);
        if (option) this.m_options.add(option[1]!);
        const spin = parseSpinOption(line);
        if (spin) this.m_spins.set(spin.name, spin.option);
        if (line === 'uciok') {
          const hash = this.m_spins.get('Hash');
          if (hash) {
            this.m_hashMiB = Math.max(hash.min, Math.min(hash.max, this.m_hashMiB));
            this.post(`setoption name Hash value ${this.m_hashMiB}`);
          }
          if (this.m_build === 'mt' && this.m_options.has('Threads')) {
            const cores = navigator.hardwareConcurrency || 1;
            const max = this.m_spins.get('Threads')?.max ?? kMaxSearchThreads;
            const wanted = this.m_chosenThreads ?? Math.max(1, Math.min(kMaxSearchThreads, Math.floor(cores / 2)));
            this.m_threads = Math.max(1, Math.min(max, wanted));
            this.post(`setoption name Threads value ${this.m_threads}`);
          }
          if (this.m_options.has('UCI_ShowWDL')) this.post('setoption name UCI_ShowWDL value true');
          // An engine before `Progress Interval` would answer it with an error line, which fails
          // the boot: it is sent only when offered.
          if (this.m_options.has('Progress Interval')) this.post(`setoption name Progress Interval value ${kProgressIntervalMs}`);
          this.post('isready');
        }
        if (line === 'readyok') {
          clearTimeout(timer);
          this.m_lineListener = (l) => this.onSearchLine(l);
          this.setState('ready');
          // Before any search waiting for this boot posts its `go`.
          this.m_workerReady = true;
          this.postPieces();
          resolve();
        }
      };
      this.post('uci');
    });
  }

  private onSearchLine(line: string): void {
    if (line.startsWith('info string pieces ')) {
      this.onPiecesLine(line);
      return;
    }
    const waiter = this.m_readyWaiters[0];
    if (waiter && line.startsWith('info string error')) waiter.error ??= line.replace(/^info string error:?\s*/, '');
    if (waiter && line === 'readyok') {
      this.m_readyWaiters.shift();
      if (waiter.error) waiter.reject(new Error(waiter.error));
      else waiter.resolve();
      return;
    }
    const active = this.m_active;
    if (!active) return;
    if (line.startsWith('info')) {
      const info = parseInfoLine(line);
      if (info) {
        if (info.multipv === 1 && info.pv[0]) active.bestPvMove = info.pv[0];
        active.onInfo?.(info);
      } else {
        const progress = parseProgressLine(line);
        if (progress) active.onProgress?.(progress);
      }
    } else if (line.startsWith('bestmove')) {
      const best = parseBestMove(line);
      this.finishActive(best?.bestmove ?? null, best?.ponder ?? null);
    }
  }

  /** The st build reads no message during a search: end it by replacing the worker. */
  private stopByRestart(): void {
    const active = this.m_active;
    this.m_worker?.terminate();
    this.m_worker = null;
    this.m_workerReady = false;
    this.finishActive(active?.bestPvMove ?? null, null);
    this.m_booting = this.boot();
    this.m_booting.catch(() => undefined);
  }

  private finishActive(bestmove: string | null, ponder: string | null): void {
    const active = this.m_active;
    if (!active) return;
    this.m_active = null;
    if (this.m_state === 'thinking') this.setState('ready');
    const maxTimeMs = isUnbounded(active.request.limits) && this.m_build === 'st' ? kStInfiniteMs : (active.request.limits.movetime ?? null);
    active.resolve({ bestmove, ponder, stopped: active.stopRequested, maxTimeMs });
  }

  private configure(limits: SearchLimits): void {
    this.sendOption('MultiPV', String(limits.multipv ?? 1));
    this.sendOption('UCI_LimitStrength', limits.elo !== undefined ? 'true' : 'false');
    if (limits.elo !== undefined) this.sendOption('UCI_Elo', String(limits.elo));
  }

  /** A per-search option, sent only when it changed since this worker last got it. */
  private sendOption(name: string, value: string): void {
    if (!this.m_options.has(name) || this.m_sentOptions.get(name) === value) return;
    this.m_sentOptions.set(name, value);
    this.post(`setoption name ${name} value ${value}`);
  }

  private goCommand(limits: SearchLimits): string {
    const parts = ['go'];
    if (limits.movetime !== undefined) parts.push('movetime', String(limits.movetime));
    else if (limits.clock) {
      const c = limits.clock;
      parts.push('wtime', String(Math.round(c.wtime)), 'btime', String(Math.round(c.btime)));
      parts.push('winc', String(c.winc), 'binc', String(c.binc));
    }
    if (limits.depth !== undefined) parts.push('depth', String(limits.depth));
    if (limits.nodes !== undefined) parts.push('nodes', String(limits.nodes));
    if (parts.length === 1) parts.push(...(this.m_build === 'mt' ? ['infinite'] : ['movetime', String(kStInfiniteMs)]));
    return parts.join(' ');
  }

  private post(command: string): void {
    this.m_worker?.postMessage(command);
  }
}

/** A search the page leaves to run until stopped (st runs it as `go movetime 60000`). */
function isUnbounded(limits: SearchLimits): boolean {
  return limits.movetime === undefined && !limits.clock && limits.depth === undefined && limits.nodes === undefined;
}

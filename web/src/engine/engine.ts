// SPDX-License-Identifier: GPL-3.0-or-later
// The Engine interface every engine back end (server over WebSocket, WASM worker) implements.

export type EngineKind = 'server' | 'wasm';
export type EngineBuild = 'native' | 'mt' | 'st';
/** `reconnecting`: a server engine lost its connection and is trying again (searches wait for it). */
export type EngineState = 'loading' | 'ready' | 'thinking' | 'reconnecting' | 'error';

/** A score from the side to move's point of view, as UCI reports it. */
export interface Score {
  cp?: number;
  mate?: number;
  /** A tablebase result, not an evaluation: cp is then ±(20000 less the plies to it). */
  tb?: boolean;
  bound: 'exact' | 'lower' | 'upper';
}

/** One `info` line of a search, the same for both engines. Moves are UCI. */
export interface SearchInfo {
  depth: number;
  seldepth: number;
  multipv: number;
  score: Score;
  nodes: number;
  nps: number;
  hashfull: number;
  /** Win, draw, loss per mille for the side to move, when the engine reports it. */
  wdl?: [number, number, number];
  time: number;
  pv: string[];
}

/**
 * A running search's state between its complete lines, several times a second (the server's
 * `progress` message, the UCI engine's `Progress Interval` lines): no score, no line.
 */
export interface SearchProgress {
  depth: number;
  seldepth: number;
  nodes: number;
  nps: number;
  /** Per mille of the hash table in use. */
  hashfull: number;
  /** Milliseconds since the search started. */
  time: number;
  /** The root move being searched (UCI), and its number in the engine's move order, once known. */
  currmove?: string;
  currmovenumber?: number;
}

export interface ClockLimits {
  wtime: number;
  btime: number;
  winc: number;
  binc: number;
}

/** What to search for. Without movetime, clock, depth or nodes the search is infinite. */
export interface SearchLimits {
  movetime?: number;
  clock?: ClockLimits;
  depth?: number;
  nodes?: number;
  multipv?: number;
  /** Playing strength (UCI_Elo); absent means full strength. */
  elo?: number;
}

export interface SearchRequest {
  /** The game's start position and the UCI moves since: the engine sees the whole history. */
  fen: string;
  moves: string[];
  limits: SearchLimits;
  onInfo?: (info: SearchInfo) => void;
  /** Progress between lines, when the engine reports it (a server before it, or a WASM build without `Progress Interval`, does not). */
  onProgress?: (progress: SearchProgress) => void;
}

export interface SearchResult {
  /** The best move in UCI, or null when the search was dropped or the position has none. */
  bestmove: string | null;
  ponder: string | null;
  /** True when the search was cut short by stop(). */
  stopped: boolean;
  /** The longest this search could run (ms) as the engine said when it started it; null: until stopped. */
  maxTimeMs?: number | null;
  /**
   * An unlimited analysis that the server stopped, once it had run its cap, because another
   * search waited for its threads (docs/server.md, Deep analysis).
   */
  yielded?: boolean;
}

/** A running search: its result, and a way to end it early (the result still arrives). */
export interface SearchHandle {
  readonly result: Promise<SearchResult>;
  stop(): void;
}

/**
 * One piece's share of the network's static evaluation (docs/eval-pieces.md): the evaluation of
 * the position minus the evaluation without that piece, in centipawns from White's point of view.
 */
export interface PieceContribution {
  /** The square, e.g. 'e4'. */
  square: string;
  /** The piece as a FEN letter: 'N' a white knight, 'q' a black queen. */
  piece: string;
  cp: number;
}

/** The answer to Engine.evalPieces: every piece but the kings, a1 to h8. */
export interface PieceEval {
  /** The network's static evaluation of the position, centipawns, White's point of view. */
  base: number;
  pieces: PieceContribution[];
}

/** One legal move as the tablebases judge it (Engine.tablebase). */
export interface TablebaseMove {
  uci: string;
  san: string;
  /** For the side making the move: 'win', 'cursed win', 'draw', 'blessed loss' or 'loss'. */
  wdl: string;
  /** Plies to the next capture or pawn move along it, signed like wdl (0: a draw). */
  dtz: number;
}

/** The answer to Engine.tablebase. */
export interface TablebaseAnswer {
  /** The engine has tables at all (the server started with --syzygy-path). */
  available: boolean;
  /** The position is in them (few enough pieces, no castling rights, its tables present). */
  inTables: boolean;
  /** For the side to move, when inTables. */
  wdl?: string;
  dtz?: number;
  /** Best first. */
  moves: TablebaseMove[];
  /** Why there is no answer (the in-browser engine has no tables). */
  note?: string;
}

/** A numeric engine option's range and value (`Hash` in MiB, `Threads`). */
export interface SpinOption {
  min: number;
  max: number;
  value: number;
}

/** The options a page may set (setOption); every other one is the engine's business. */
export type EngineOptionName = 'Hash' | 'Threads';

/** How far this engine lets an analysis go, and the options that bound it. */
export interface AnalysisLimits {
  /**
   * True when an infinite analysis runs until stopped: `axon serve` to a local page (its hello
   * says `analysisUnlimited`), the threaded WASM build. False when every search ends by itself
   * at maxThinkMs (a remote or older server; the single-threaded build, which cannot be stopped
   * by a message and so runs "infinite" as a long movetime).
   */
  unlimited: boolean;
  /** The cap of every search when not unlimited (ms); null when there is none. */
  maxThinkMs: number | null;
  /** Null when the engine does not offer the option. */
  hash: SpinOption | null;
  threads: SpinOption | null;
}

export interface Engine {
  readonly kind: EngineKind;
  readonly build: EngineBuild;
  readonly state: EngineState;
  /** Name the engine gave (for the status line). */
  readonly name: string;
  /** A line for the user when state is 'error'. */
  readonly errorMessage: string;
  onStateChange(listener: () => void): void;
  /** Resolves once the engine can search; rejects when it cannot be started. */
  ready(): Promise<void>;
  /**
   * Starts a search. A search still running is stopped first (its result resolves with
   * stopped = true), so callers never need to serialise searches themselves.
   */
  search(request: SearchRequest): SearchHandle;
  /** Forgets the hash table and history, between unrelated games. */
  newGame(): void;
  /**
   * Each piece's contribution to the static evaluation of `fen` (the analysis heat map). Answered
   * while a search runs too (the single-threaded WASM build answers when its search ends);
   * rejects when the engine refuses the position or stops.
   */
  evalPieces(fen: string): Promise<PieceEval>;
  /**
   * The Syzygy tablebases' result for `fen` and each of its moves, as lichess's tablebase panel
   * shows them; answered during a search too. The in-browser engine has no tables: it answers
   * available = false with a note.
   */
  tablebase(fen: string): Promise<TablebaseAnswer>;
  /** The current analysis limits and option values (they may change on a reconnection). */
  readonly analysisLimits: AnalysisLimits;
  /**
   * Sets `Hash` or `Threads` (within analysisLimits) once the running search has ended: stop it
   * first; a search started after this call waits for it. Rejects with a readable message when
   * the engine refuses the value (a server over its total budget says why).
   */
  setOption(name: EngineOptionName, value: number): Promise<void>;
  dispose(): void;
}

/** Why `value` is not a value of `option` (a sentence for the user), or null when it is one. */
export function optionRangeError(name: EngineOptionName, value: number, option: SpinOption): string | null {
  if (Number.isInteger(value) && value >= option.min && value <= option.max) return null;
  const unit = name === 'Hash' ? ' MB' : '';
  return `${name} must be from ${option.min} to ${option.max}${unit} with this engine, not ${value}`;
}

export const kEloMin = 1000;
export const kEloMax = 2400;

/** Shared state bookkeeping for both engines. */
export abstract class EngineBase {
  protected m_state: EngineState = 'loading';
  protected m_error = '';
  protected m_name = 'Axon';
  private m_listeners: (() => void)[] = [];

  get state(): EngineState {
    return this.m_state;
  }
  get errorMessage(): string {
    return this.m_error;
  }
  get name(): string {
    return this.m_name;
  }
  onStateChange(listener: () => void): void {
    this.m_listeners.push(listener);
  }
  protected setState(state: EngineState, error = ''): void {
    this.m_state = state;
    if (state === 'error') this.m_error = error;
    for (const listener of this.m_listeners) listener();
  }
}

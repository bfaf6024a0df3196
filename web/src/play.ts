// SPDX-License-Identifier: GPL-3.0-or-later
// PlayController: a game against the engine: colours, strength, clock, engine turns, premoves,
// takeback, resignation and draw offers.

import type { Color } from 'chessops/types';
import type { ChessClock } from './clock';
import type { Engine, SearchHandle, SearchInfo, SearchLimits } from './engine/engine';
import type { GameModel, GameOutcome, PlayedMove } from './game';
import { toast } from './dom';
import { humanThinkTimeMs } from './think-time';

/** Think time per move when the game has no clock. */
const kUnlimitedMoveMs = 1500;
/** The engine accepts a draw offer when its own score is at most this (centipawns)... */
const kDrawAcceptWhenWorseCp = -150;
/** ...or when the position is this close to equal and the game has lasted kDrawAcceptMinPlies. */
const kDrawAcceptEqualCp = 15;
const kDrawAcceptMinPlies = 60;
/** The first move of each side is not timed, as on most sites: clocks run from this ply on. */
const kFirstTimedPly = 2;

export interface EngineMoveRecord {
  uci: string;
  fenBefore: string;
  /** From the turn's start to the move, the human-like wait included. */
  ms: number;
  /** The human-like think time planned for the move (think-time.ts); 0 at full strength. */
  thinkMs: number;
}

export interface PlayHost {
  game(): GameModel;
  engine(): Engine | null;
  clock: ChessClock;
  /** Re-renders board, move list, banner and controls (viewing the last move). */
  refresh(): void;
  /** A move was made (sounds). */
  moved(move: PlayedMove): void;
  /** The game just ended. */
  ended(outcome: GameOutcome): void;
  /** Engine search info during its turn (dashboard). */
  engineInfo(info: SearchInfo): void;
  /** The engine's search starts from this ply (dashboard root). */
  engineSearching(ply: number): void;
  /** Plays the board's pending premove, if any is legal. */
  playPremove(): void;
}

export interface PlayOptions {
  userColor: Color;
  /** UCI_Elo, or undefined for full strength. */
  elo: number | undefined;
}

export class PlayController {
  private m_userColor: Color = 'white';
  private m_elo: number | undefined;
  private m_started = false;
  private m_paused = false;
  private m_search: SearchHandle | null = null;
  /** The engine has its move and waits out its human-like think time. */
  private m_waiting = false;
  private m_generation = 0;
  private m_engineMoves: EngineMoveRecord[] = [];
  /** The engine's last multipv-1 score, from its own point of view (for draw offers). */
  private m_engineScoreCp: number | null = null;

  constructor(private readonly m_host: PlayHost) {}

  get userColor(): Color {
    return this.m_userColor;
  }
  get engineColor(): Color {
    return this.m_userColor === 'white' ? 'black' : 'white';
  }
  /** A game is on: started, not over. */
  get active(): boolean {
    return this.m_started && !this.m_host.game().outcome();
  }
  get started(): boolean {
    return this.m_started;
  }
  /** The engine's turn is under way (searching, or waiting out its think time). */
  get thinking(): boolean {
    return this.m_search !== null || this.m_waiting;
  }
  get engineMoves(): readonly EngineMoveRecord[] {
    return this.m_engineMoves;
  }

  /** Starts a game on the host's (already reset) game record. */
  start(options: PlayOptions): void {
    this.cancelSearch();
    this.m_userColor = options.userColor;
    this.m_elo = options.elo;
    this.m_started = true;
    this.m_paused = false;
    this.m_engineMoves = [];
    this.m_engineScoreCp = null;
    this.m_host.engine()?.newGame();
    this.m_host.refresh();
    this.continueGame();
  }

  /**
   * Takes up a game whose record the host restored (after a reload, or an undo): the engine or
   * the user's clock goes on unless `paused` (the game was left for Analysis).
   */
  restore(options: PlayOptions, paused: boolean): void {
    this.cancelSearch();
    this.m_userColor = options.userColor;
    this.m_elo = options.elo;
    this.m_started = true;
    this.m_paused = paused;
    this.m_engineMoves = [];
    this.m_engineScoreCp = null;
    if (!paused) this.continueGame();
  }

  /** Playing strength of the game (UCI_Elo, undefined for full strength). */
  get elo(): number | undefined {
    return this.m_elo;
  }

  /** The engine can search again (a server engine reconnected): take its turn if it is waiting. */
  engineAvailable(): void {
    if (this.thinking || this.m_paused || !this.active) return;
    if (this.m_host.game().turn() === this.engineColor) this.continueGame();
  }

  /** Stops everything without ending the game (leaving Play mode, switching engines). */
  pause(): void {
    this.m_paused = true;
    this.cancelSearch();
    this.m_host.clock.stop();
  }

  resume(): void {
    if (!this.m_paused) return;
    this.m_paused = false;
    this.continueGame();
  }

  /** Ends the game (a new game or position replaces it). */
  abandon(): void {
    this.cancelSearch();
    this.m_started = false;
    this.m_host.clock.stop();
  }

  /** A move the user made on the board or typed; false when it is not theirs to make or illegal. */
  userMove(uci: string): boolean {
    const game = this.m_host.game();
    if (!this.active || this.m_paused || game.turn() !== this.m_userColor) return false;
    const played = game.play(uci);
    if (!played) return false;
    this.afterMove(played, this.m_userColor);
    return true;
  }

  takeback(): void {
    const game = this.m_host.game();
    if (!this.active) return;
    this.cancelSearch();
    let plies = game.turn() === this.m_userColor ? 2 : 1;
    plies = Math.min(plies, game.plyCount);
    // Never leave the engine's first move of the game undone when it had White: it would just replay it.
    while (plies > 0 && game.plyCount - plies >= 0 && game.turn(game.plyCount - plies) !== this.m_userColor) plies--;
    if (plies === 0) {
      this.continueGame();
      return;
    }
    const target = game.plyCount - plies;
    game.truncate(target);
    const fens = new Set(Array.from({ length: target + 1 }, (_, ply) => game.fen(ply)));
    this.m_engineMoves = this.m_engineMoves.filter((m) => fens.has(m.fenBefore));
    this.m_host.refresh();
    this.continueGame();
  }

  resign(): void {
    if (!this.active) return;
    this.finish({ result: this.m_userColor === 'white' ? '0-1' : '1-0', reason: 'Resigned', winner: this.engineColor });
  }

  /** The engine accepts when it is clearly worse, or when a long game is dead equal. */
  offerDraw(): boolean {
    if (!this.active) return false;
    const score = this.m_engineScoreCp;
    const plies = this.m_host.game().plyCount;
    const accept =
      score !== null && (score <= kDrawAcceptWhenWorseCp || (Math.abs(score) <= kDrawAcceptEqualCp && plies >= kDrawAcceptMinPlies));
    if (accept) this.finish({ result: '1/2-1/2', reason: 'Draw agreed' });
    else toast('Axon declines the draw offer');
    return accept;
  }

  /** The clock says `color` ran out of time. */
  flag(color: Color): void {
    if (!this.active) return;
    const game = this.m_host.game();
    const other: Color = color === 'white' ? 'black' : 'white';
    const drawn = game.position().hasInsufficientMaterial(other);
    this.finish(
      drawn ? { result: '1/2-1/2', reason: 'Time' } : { result: other === 'white' ? '1-0' : '0-1', reason: 'Time', winner: other },
    );
  }

  private finish(outcome: GameOutcome): void {
    this.cancelSearch();
    this.m_host.clock.stop();
    this.m_host.game().end(outcome);
    this.m_host.refresh();
    this.m_host.ended(outcome);
  }

  private afterMove(played: PlayedMove, mover: Color): void {
    const game = this.m_host.game();
    const outcome = game.outcome();
    const clockStarts = !outcome && game.plyCount >= kFirstTimedPly;
    this.m_host.clock.switchAfterMove(mover, clockStarts);
    this.m_host.moved(played);
    this.m_host.refresh();
    if (outcome) {
      this.m_host.clock.stop();
      this.m_host.ended(outcome);
      return;
    }
    if (mover === this.engineColor) this.m_host.playPremove();
    else this.continueGame();
  }

  /** Whoever is to move: the engine searches, or the user's clock runs. */
  private continueGame(): void {
    const game = this.m_host.game();
    if (!this.active || this.m_paused) return;
    if (game.turn() === this.engineColor) void this.engineTurn();
    else if (game.plyCount >= kFirstTimedPly) this.m_host.clock.start(this.m_userColor);
  }

  private cancelSearch(): void {
    this.m_generation++;
    this.m_search?.stop();
    this.m_search = null;
    this.m_waiting = false;
  }

  private async engineTurn(): Promise<void> {
    const engine = this.m_host.engine();
    const game = this.m_host.game();
    if (!engine) return;
    this.cancelSearch();
    const generation = this.m_generation;
    const clock = this.m_host.clock;
    if (game.plyCount >= kFirstTimedPly) clock.start(this.engineColor);
    const limits: SearchLimits = { multipv: 1, elo: this.m_elo };
    if (clock.enabled)
      limits.clock = {
        wtime: Math.max(1, Math.round(clock.remaining('white'))),
        btime: Math.max(1, Math.round(clock.remaining('black'))),
        winc: clock.incrementMs,
        binc: clock.incrementMs,
      };
    else limits.movetime = kUnlimitedMoveMs;
    const fenBefore = game.fen();
    const started = performance.now();
    // At limited strength the move comes after a person's think time, not the engine's few ms.
    const position = game.position();
    let legalMoves = 0;
    for (const dests of position.allDests().values()) legalMoves += dests.size();
    const thinkMs =
      this.m_elo === undefined
        ? 0
        : humanThinkTimeMs({
            remainingMs: clock.enabled ? clock.remaining(this.engineColor) : null,
            incrementMs: clock.incrementMs,
            legalMoves,
            inCheck: position.isCheck(),
            ply: game.plyCount,
            random: Math.random(),
          });
    this.m_host.engineSearching(game.plyCount);
    const handle = engine.search({
      ...game.enginePosition(),
      limits,
      onInfo: (info) => {
        if (generation !== this.m_generation) return;
        if (info.multipv === 1) this.m_engineScoreCp = info.score.mate !== undefined ? Math.sign(info.score.mate) * 100_000 : (info.score.cp ?? 0);
        this.m_host.engineInfo(info);
      },
    });
    this.m_search = handle;
    let bestmove: string | null = null;
    try {
      bestmove = (await handle.result).bestmove;
    } catch (error) {
      if (generation === this.m_generation && engine.state !== 'reconnecting') toast(`Engine error: ${String(error)}`);
    }
    if (generation !== this.m_generation) return;
    this.m_search = null;
    if (!bestmove) {
      // The engine went away (a server restart): its clock waits until it is back.
      if (engine.state === 'reconnecting' || engine.state === 'error') clock.stop();
      if (engine.state === 'error') toast(`Engine error: ${engine.errorMessage}`);
      else if (engine.state !== 'reconnecting') toast('The engine returned no move');
      return;
    }
    const wait = thinkMs - (performance.now() - started);
    if (wait > 0) {
      this.m_waiting = true;
      await new Promise((resolve) => setTimeout(resolve, wait));
      if (generation !== this.m_generation) return;
      this.m_waiting = false;
    }
    const played = game.play(bestmove);
    if (!played) {
      toast(`The engine sent an illegal move: ${bestmove}`);
      return;
    }
    this.m_engineMoves.push({ uci: played.uci, fenBefore, ms: Math.round(performance.now() - started), thinkMs });
    this.afterMove(played, this.engineColor);
  }
}

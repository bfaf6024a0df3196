// SPDX-License-Identifier: GPL-3.0-or-later
// PuzzleController: the Puzzles mode. A puzzle (puzzle-store.ts) goes on the board at the FEN
// before the opponent's move, which the page plays first; the solver's moves are checked against
// the solution (any mating move is right where the solution mates), the opponent's replies
// follow. The first try of each puzzle moves the Glicko-2 rating (a wrong move, a hint or the
// solution count as failed); hint, retry, view the solution, next, and "analyse this puzzle" with
// the engine. The shipped set (puzzles.csv beside the page) is streamed into the store on first
// use; any Lichess-format CSV the user picks is streamed and indexed the same way, with progress.

import { byTestId, el, toast } from './dom';
import { GameModel } from './game';
import type { Puzzle } from './puzzle-csv';
import { PuzzleStore, type PuzzleFilter } from './puzzle-store';

export interface PuzzleHost {
  /** Puts the puzzle's game on the board (not the library's), White or Black at the bottom. */
  show(game: GameModel, orientation: 'white' | 'black'): void;
  /** The board's game changed (a move was played on it). */
  refresh(): void;
  /** Draws a hint on the board (the square to move from), or none. */
  hint(square: string | null): void;
  /** Opens the puzzle's game in Analysis with the engine. */
  analyse(game: GameModel): void;
}

export type PuzzleState = 'idle' | 'loading' | 'opponent' | 'your-move' | 'wrong' | 'solved' | 'solution' | 'empty';

/** The shipped set, beside index.html (copied by build.mjs from web/puzzles/). */
const kShippedUrl = 'puzzles.csv';
const kShippedVersion = 'lichess-puzzles-1';
/** The opponent's move comes after this pause, so that the position can be seen first. */
const kOpponentDelayMs = 450;

export class PuzzleController {
  private m_store: PuzzleStore | null = null;
  private m_opening: Promise<PuzzleStore> | null = null;
  private m_puzzle: Puzzle | null = null;
  private m_game: GameModel | null = null;
  /** Index into the puzzle's moves of the next move to be played. */
  private m_next = 0;
  private m_state: PuzzleState = 'idle';
  /** The first try's result is recorded (retries do not move the rating). */
  private m_recorded = false;
  private m_timer: number | undefined;
  private readonly m_status = byTestId('puzzle-status');
  private readonly m_rating = byTestId('puzzle-rating');
  private readonly m_info = byTestId('puzzle-info');
  private readonly m_history = byTestId('puzzle-history');
  private readonly m_theme = byTestId<HTMLSelectElement>('puzzle-theme');
  private readonly m_min = byTestId<HTMLInputElement>('puzzle-min-rating');
  private readonly m_max = byTestId<HTMLInputElement>('puzzle-max-rating');
  private readonly m_progress = byTestId<HTMLProgressElement>('puzzle-progress');
  private readonly m_importNote = byTestId('puzzle-import-note');

  constructor(private readonly m_host: PuzzleHost) {
    byTestId('puzzle-next').addEventListener('click', () => void this.next());
    byTestId('puzzle-retry').addEventListener('click', () => this.retry());
    byTestId('puzzle-hint').addEventListener('click', () => void this.giveHint());
    byTestId('puzzle-solution').addEventListener('click', () => void this.showSolution());
    byTestId('puzzle-analyse').addEventListener('click', () => this.m_game && this.m_host.analyse(this.m_game));
    byTestId<HTMLInputElement>('puzzle-file').addEventListener('change', (event) => {
      const input = event.target as HTMLInputElement;
      const file = input.files?.[0];
      if (file) void this.importFile(file).finally(() => (input.value = ''));
    });
  }

  get state(): PuzzleState {
    return this.m_state;
  }
  get puzzle(): Puzzle | null {
    return this.m_puzzle;
  }

  /** The side the solver moves, when it is their move on the board (the board's movable colour). */
  movable(game: GameModel): 'white' | 'black' | 'none' {
    if (game !== this.m_game || this.m_state !== 'your-move') return 'none';
    return game.turn();
  }

  /** Entering the mode: the store opens (the shipped set indexed the first time) and a puzzle comes. */
  async enter(): Promise<void> {
    if (this.m_puzzle && this.m_game) {
      this.m_host.show(this.m_game, this.orientation());
      return;
    }
    await this.next();
  }

  /** Leaving the mode: the opponent's pending move is dropped. */
  leave(): void {
    clearTimeout(this.m_timer);
    this.m_host.hint(null);
  }

  private store(): Promise<PuzzleStore> {
    this.m_opening ??= (async () => {
      const store = await PuzzleStore.open();
      this.m_store = store;
      if ((await store.getMeta<string>('shipped')) !== kShippedVersion) await this.indexShipped(store);
      void this.renderRating();
      return store;
    })();
    return this.m_opening;
  }

  private async indexShipped(store: PuzzleStore): Promise<void> {
    this.setState('loading', 'Indexing the puzzles shipped with the app…');
    try {
      const response = await fetch(kShippedUrl);
      if (!response.ok || !response.body) throw new Error(`${kShippedUrl}: HTTP ${response.status}`);
      const total = Number(response.headers.get('Content-Length')) || 0;
      const report = await store.importCsv(response.body, (bytes, added) => this.showProgress(bytes, total, `${added} puzzles indexed`));
      await store.setMeta('shipped', kShippedVersion);
      this.m_progress.hidden = true;
      this.m_importNote.textContent = `${report.added} puzzles shipped with the app.`;
    } catch (error) {
      this.m_importNote.textContent = `The shipped puzzles could not be read (${(error as Error).message}); import a puzzle CSV.`;
    }
  }

  private showProgress(bytes: number, total: number, text: string): void {
    this.m_progress.hidden = false;
    if (total > 0) {
      this.m_progress.max = total;
      this.m_progress.value = Math.min(bytes, total);
    } else this.m_progress.removeAttribute('value');
    this.m_importNote.textContent = text;
  }

  /** A user's CSV, streamed into the store (never read whole), with a progress bar. */
  async importFile(file: File): Promise<void> {
    const store = await this.store();
    this.m_importNote.dataset.state = 'running';
    try {
      const report = await store.importCsv(file.stream(), (bytes, added, bad) =>
        this.showProgress(bytes, file.size, `${file.name}: ${added} puzzles${bad ? `, ${bad} rows refused` : ''}…`),
      );
      this.m_progress.value = file.size;
      const refused = report.bad ? `; ${report.bad} rows refused (${report.reasons.join('; ')})` : '';
      this.m_importNote.textContent = `${file.name}: ${report.added} puzzles imported${refused}.`;
      this.m_importNote.dataset.state = 'done';
      this.m_importNote.dataset.added = String(report.added);
      this.m_importNote.dataset.bad = String(report.bad);
    } catch (error) {
      this.m_importNote.textContent = `${file.name} could not be read: ${(error as Error).message}`;
      this.m_importNote.dataset.state = 'error';
    }
  }

  private filter(): PuzzleFilter {
    const number = (input: HTMLInputElement, fallback: number): number => {
      const value = Number(input.value);
      return input.value.trim() && Number.isFinite(value) ? value : fallback;
    };
    return { theme: this.m_theme.value, minRating: number(this.m_min, 0), maxRating: number(this.m_max, 4000) };
  }

  /** The next puzzle for the filters, near the player's rating. */
  async next(): Promise<void> {
    clearTimeout(this.m_timer);
    this.setState('loading', 'Finding a puzzle…');
    const store = await this.store();
    const rating = await store.rating();
    const filter = this.filter();
    if (filter.minRating > filter.maxRating) {
      this.setState('empty', 'The lowest rating is above the highest: change the filter.');
      return;
    }
    const puzzle = await store.pick(filter, rating.rating);
    if (!puzzle) {
      this.setState('empty', 'No puzzle matches the filter: widen the ratings or pick another theme.');
      return;
    }
    this.m_recorded = false;
    this.start(puzzle);
  }

  retry(): void {
    if (this.m_puzzle) this.start(this.m_puzzle);
  }

  private orientation(): 'white' | 'black' {
    // The solver plays the side that moves after the opponent's first move.
    const game = new GameModel(this.m_puzzle!.fen);
    return game.turn() === 'white' ? 'black' : 'white';
  }

  private start(puzzle: Puzzle): void {
    clearTimeout(this.m_timer);
    this.m_puzzle = puzzle;
    this.m_game = new GameModel(puzzle.fen);
    this.m_game.headers.set('Event', `Lichess puzzle ${puzzle.id}`);
    if (puzzle.gameUrl) this.m_game.headers.set('Site', puzzle.gameUrl);
    this.m_next = 0;
    this.m_root().dataset.puzzleId = puzzle.id;
    this.m_info.textContent = '';
    this.m_host.hint(null);
    this.m_host.show(this.m_game, this.orientation());
    this.setState('opponent', 'Watch the opponent’s move…');
    this.m_timer = window.setTimeout(() => this.opponentMove(), kOpponentDelayMs);
  }

  private m_root(): HTMLElement {
    return byTestId('puzzle-panel');
  }

  /** Plays the solution's next move (the opponent's), then waits for the solver. */
  private opponentMove(): void {
    const game = this.m_game;
    const puzzle = this.m_puzzle;
    if (!game || !puzzle) return;
    const uci = puzzle.moves[this.m_next];
    if (!uci || !game.play(uci)) return;
    this.m_next++;
    const toMove = game.turn() === 'white' ? 'White' : 'Black';
    // The state first: the board takes the solver's moves once the page draws it in 'your-move'.
    this.setState('your-move', `Your move: find the best move for ${toMove}.`);
    this.m_host.refresh();
  }

  /** The solver's move on the board: right (the solution's, or any mate where it mates) or wrong. */
  userMove(uci: string): boolean {
    const game = this.m_game;
    const puzzle = this.m_puzzle;
    if (!game || !puzzle || this.m_state !== 'your-move') return false;
    const expected = puzzle.moves[this.m_next]!;
    const node = game.playAt(game.plyCount, uci);
    if (!node) return false;
    const mates = game.positionOf(node).isCheckmate();
    if (node.move!.uci !== expected && !mates) {
      // Wrong: shown a moment, then taken back; the first try is lost (the rating goes down once).
      this.m_host.refresh();
      void this.fail();
      this.setState('wrong', 'Not the move.');
      this.m_timer = window.setTimeout(() => {
        game.deleteNode(node);
        this.setState('your-move', 'Not the move: try again, or see the solution.');
        this.m_host.refresh();
      }, 500);
      return true;
    }
    this.m_next++;
    this.m_host.hint(null);
    this.m_host.refresh();
    if (mates || this.m_next >= puzzle.moves.length) {
      void this.finish(true);
      return true;
    }
    this.setState('opponent', 'Right! The opponent answers…');
    this.m_timer = window.setTimeout(() => this.opponentMove(), kOpponentDelayMs);
    return true;
  }

  private async giveHint(): Promise<void> {
    const puzzle = this.m_puzzle;
    if (!puzzle || this.m_state !== 'your-move') return;
    this.m_host.hint(puzzle.moves[this.m_next]!.slice(0, 2));
    await this.fail();
  }

  /** Plays the rest of the solution, one move at a time. */
  private async showSolution(): Promise<void> {
    const game = this.m_game;
    const puzzle = this.m_puzzle;
    if (!game || !puzzle || this.m_state === 'solved' || this.m_state === 'solution' || this.m_state === 'loading') return;
    clearTimeout(this.m_timer);
    await this.fail();
    this.setState('solution', 'The solution:');
    const step = (): void => {
      const uci = puzzle.moves[this.m_next];
      if (!uci || !game.play(uci)) {
        this.done(false);
        return;
      }
      this.m_next++;
      this.m_host.refresh();
      this.m_timer = window.setTimeout(step, 350);
    };
    step();
  }

  /** The first try fails (once): the rating goes down. */
  private async fail(): Promise<void> {
    if (this.m_recorded || !this.m_puzzle) return;
    this.m_recorded = true;
    await this.recordResult(false);
  }

  private async finish(solved: boolean): Promise<void> {
    if (!this.m_recorded && this.m_puzzle) {
      this.m_recorded = true;
      await this.recordResult(solved);
    }
    this.done(solved);
  }

  private done(solved: boolean): void {
    const puzzle = this.m_puzzle!;
    if (solved) this.setState('solved', this.m_status.dataset.firstTry === 'failed' ? 'Solved (not at the first try).' : 'Solved!');
    else this.setState('solution', 'That was the solution.');
    this.m_info.textContent = `Puzzle ${puzzle.id}, rated ${puzzle.rating} · ${puzzle.themes.join(', ')}`;
  }

  private async recordResult(solved: boolean): Promise<void> {
    const store = this.m_store;
    const puzzle = this.m_puzzle;
    if (!store || !puzzle) return;
    this.m_status.dataset.firstTry = solved ? 'solved' : 'failed';
    const { before, after } = await store.record(puzzle, solved);
    const change = Math.round(after.rating) - Math.round(before.rating);
    toast(`Puzzle ${solved ? 'solved' : 'failed'}: rating ${Math.round(after.rating)} (${change >= 0 ? '+' : ''}${change})`);
    await this.renderRating();
  }

  private async renderRating(): Promise<void> {
    const store = this.m_store;
    if (!store) return;
    const rating = await store.rating();
    this.m_rating.dataset.rating = rating.rating.toFixed(1);
    this.m_rating.dataset.rd = rating.rd.toFixed(1);
    this.m_rating.textContent = `${Math.round(rating.rating)}${rating.rd > 110 ? '?' : ''}`;
    this.m_rating.title = `Glicko-2: rating ${rating.rating.toFixed(0)}, deviation ${rating.rd.toFixed(0)}, volatility ${rating.volatility.toFixed(4)}`;
    const history = await store.history();
    byTestId('puzzle-count').textContent = `${await store.count()} puzzles`;
    this.m_history.replaceChildren();
    for (const attempt of history.slice(0, 20)) {
      const item = el('li', { 'data-testid': 'puzzle-history-item', 'data-solved': String(attempt.solved), 'data-puzzle': attempt.puzzleId });
      item.textContent = `${attempt.solved ? '✓' : '✗'} ${attempt.puzzleId} (${attempt.puzzleRating}) → ${Math.round(attempt.ratingAfter)}`;
      this.m_history.appendChild(item);
    }
  }

  private setState(state: PuzzleState, text: string): void {
    this.m_state = state;
    this.m_status.dataset.state = state;
    this.m_status.textContent = text;
    byTestId<HTMLButtonElement>('puzzle-hint').disabled = state !== 'your-move';
    byTestId<HTMLButtonElement>('puzzle-analyse').disabled = !this.m_game;
  }
}

// SPDX-License-Identifier: GPL-3.0-or-later
// GameStore: keeps the board's game saved, in localStorage (the session a reload restores) and
// in the game library (IndexedDB), and draws the library's list (open, delete with Undo,
// Export all). Which library entry each game is, is remembered per GameModel.

import { Chess } from 'chessops/chess';
import { startingPosition, type Game, type PgnNodeData } from 'chessops/pgn';
import { byTestId, downloadBlob, el, toast, toastAction } from './dom';
import type { GameModel } from './game';
import { GameLibrary, type LibraryEntry, type LibrarySource, type NewLibraryEntry } from './library';
import { kOpeningMaxPlies, openingOfGame, openingOfMoves, openingText, type Opening } from './openings';
import { exportHeaders, exportPgn, summaryOf, writeParsed } from './pgn';
import { nodeNotes, restoreGame, saveSession, type SavedPlay, type SavedSession } from './session';

/** The library entry a game is saved as (null until it has one) and the PGN saved there last. */
export interface LibraryRecord {
  id: number | null;
  pgn: string;
  source: LibrarySource;
  /** The PGN and the engine's notes saved there last (a new score or review saves again). */
  signature?: string;
}

export interface GameStoreHost {
  /** The game on the board. */
  game(): GameModel;
  /** The whole session as it stands (mode, board, a game against Axon, this game's entry). */
  snapshot(): SavedSession;
  /** Puts a game of the library on the board (replacing the one there). */
  open(game: GameModel, entry: LibraryEntry): void;
  /** The game against Axon on the board (colour, strength, clock), or null. */
  play(): SavedPlay | null;
}

/** An unfinished game against Axon: it opens in Play, to be played on. */
export function isResumable(entry: Pick<LibraryEntry, 'play' | 'result'>): boolean {
  return Boolean(entry.play) && entry.result === '*';
}

/** Debounce of the session and library save after a change. */
const kSaveDelayMs = 300;
/** Rows the library list shows (the rest are in Export all). */
const kLibraryShown = 200;

/** The players, or the event when they are unknown. */
export function libraryTitle(entry: Pick<LibraryEntry, 'white' | 'black' | 'event'>): string {
  if (entry.white !== '?' || entry.black !== '?') return `${entry.white} – ${entry.black}`;
  return entry.event !== '?' ? entry.event : 'Unnamed game';
}

export class GameStore {
  private m_records = new WeakMap<GameModel, LibraryRecord>();
  private m_library: GameLibrary | null = null;
  /** Library writes, one after the other. */
  private m_queue: Promise<unknown> = Promise.resolve();
  private m_timer: number | undefined;
  private readonly m_list = byTestId('library-list');

  constructor(private readonly m_host: GameStoreHost) {
    byTestId('library-export').addEventListener('click', () => void this.exportAll());
    // Leaving or hiding the page saves at once (the debounced save may not have run).
    window.addEventListener('pagehide', () => this.flush());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.flush();
    });
  }

  /** Opens the library (IndexedDB, or memory where there is none) and saves the board's game into it. */
  async init(): Promise<void> {
    this.m_library = await GameLibrary.open();
    byTestId('library-note').hidden = this.m_library.persistent;
    this.saveToLibrary(this.m_host.game());
    await this.m_queue;
  }

  /** `game` is to be saved as `source` (unless it already has a record). */
  track(game: GameModel, source: LibrarySource): void {
    if (!this.m_records.has(game)) this.m_records.set(game, { id: null, pgn: '', source });
  }

  /** `game` is the library entry `record.id` (a game opened from it, or restored). */
  adopt(game: GameModel, record: LibraryRecord): void {
    this.m_records.set(game, { ...record });
  }

  recordOf(game: GameModel): LibraryRecord | undefined {
    return this.m_records.get(game);
  }

  /** A change: saves a moment later. */
  schedule(): void {
    clearTimeout(this.m_timer);
    this.m_timer = window.setTimeout(() => this.saveNow(), kSaveDelayMs);
  }

  /** Saves now (before the board's game is replaced, when the page is hidden). */
  flush(): void {
    clearTimeout(this.m_timer);
    this.m_timer = undefined;
    this.saveNow();
  }

  /** Every game of `sources` into the library, those already there aside. */
  addImported(sources: Game<PgnNodeData>[]): void {
    if (!sources.length) return;
    this.enqueue(async (lib) => {
      const now = Date.now();
      const known = new Set((await lib.list()).map((entry) => entry.pgn));
      for (const source of sources) {
        const pgn = writeParsed(source);
        const opening = openingOfParsed(source);
        if (!known.has(pgn))
          await lib.add({ ...summaryOf(source), ...(opening && { opening: openingText(opening) }), pgn, source: 'imported', created: now, updated: now });
        known.add(pgn);
      }
    });
  }

  private saveNow(): void {
    const game = this.m_host.game();
    // The blank board of the page's first moment is nobody's game.
    if (!this.m_records.has(game)) return;
    saveSession(this.m_host.snapshot());
    this.saveToLibrary(game);
  }

  private enqueue(task: (lib: GameLibrary) => Promise<void>): void {
    this.m_queue = this.m_queue
      .then(async () => {
        if (this.m_library) await task(this.m_library);
      })
      .catch((error) => console.warn('library:', error))
      .then(() => this.render());
  }

  /** Saves `game` into its library entry (a new one once it has a move, or at once when imported). */
  private saveToLibrary(game: GameModel): void {
    const record = this.m_records.get(game);
    if (!record) return;
    const play = game === this.m_host.game() ? this.m_host.play() : null;
    this.enqueue(async (lib) => {
      const pgn = exportPgn(game);
      const notes = nodeNotes(game);
      const signature = JSON.stringify([pgn, notes, game.review, play]);
      if (signature === record.signature) return;
      if (game.root.children.length === 0 && record.source !== 'imported') return;
      const entry: NewLibraryEntry = { ...entryOf(game, pgn, record.source), notes, review: game.review, play };
      // A game already in the library (imported again, say) is that entry, not a new one.
      const matched = record.id === null;
      if (matched) record.id = (await lib.list()).find((e) => e.pgn === pgn)?.id ?? null;
      const old = record.id === null ? undefined : await lib.get(record.id);
      // The same game imported again brings no scores: the entry keeps its review rather than losing it.
      if (matched && old && !notes.length && !game.review) {
        entry.notes = old.notes ?? [];
        entry.review = old.review ?? null;
      }
      if (old) await lib.put({ ...entry, id: old.id, created: old.created });
      else {
        record.id = await lib.add(entry);
        // The session names the entry, so that a reload goes on saving into it.
        if (game === this.m_host.game()) saveSession(this.m_host.snapshot());
      }
      record.pgn = pgn;
      record.signature = signature;
    });
  }

  private async render(): Promise<void> {
    if (!this.m_library) return;
    const entries = await this.m_library.list();
    const current = this.m_records.get(this.m_host.game())?.id ?? null;
    byTestId('library-count').textContent = entries.length ? String(entries.length) : '';
    const list = this.m_list;
    list.replaceChildren();
    if (!entries.length) list.appendChild(el('li', { class: 'library-empty' }, 'Games you play or import are kept here.'));
    for (const entry of entries.slice(0, kLibraryShown)) {
      const item = el('li', { class: 'library-item', 'data-testid': 'library-item', 'data-id': String(entry.id) });
      if (entry.id === current) {
        item.classList.add('current');
        item.setAttribute('aria-current', 'true');
      }
      const resumable = isResumable(entry);
      const open = el('button', {
        type: 'button',
        class: 'library-open',
        'data-testid': 'library-open',
        title: resumable ? 'Resume this game against Axon' : 'Open this game in Analysis',
      });
      open.appendChild(el('span', { class: 'library-players' }, libraryTitle(entry)));
      const moves = Math.ceil(entry.plies / 2);
      const when = new Date(entry.updated).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
      const meta = [resumable ? 'unfinished: resume' : entry.result, `${moves} move${moves === 1 ? '' : 's'}`, ...(entry.date.includes('?') ? [] : [entry.date]), `${entry.source} ${when}`];
      if (entry.opening) open.appendChild(el('span', { class: 'library-opening', 'data-testid': 'library-opening' }, entry.opening));
      open.appendChild(el('span', { class: 'library-meta' }, meta.join(' · ')));
      if (resumable) item.dataset.resumable = 'true';
      open.addEventListener('click', () => void this.openEntry(entry.id));
      const remove = el(
        'button',
        { type: 'button', class: 'icon-button library-delete', 'data-testid': 'library-delete', 'aria-label': `Delete ${libraryTitle(entry)}`, title: 'Delete' },
        '×',
      );
      remove.addEventListener('click', () => this.deleteEntry(entry));
      item.append(open, remove);
      list.appendChild(item);
    }
    if (entries.length > kLibraryShown)
      list.appendChild(el('li', { class: 'library-empty' }, `…and ${entries.length - kLibraryShown} older games (in Export all)`));
  }

  private async openEntry(id: number): Promise<void> {
    if (!this.m_library) return;
    this.flush();
    await this.m_queue;
    const entry = await this.m_library.get(id);
    if (!entry) return;
    let opened: GameModel;
    try {
      // The engine's scores and the review come back with the moves.
      opened = restoreGame({ pgn: entry.pgn, path: [], external: null, notes: entry.notes ?? [], review: entry.review ?? null }).game;
    } catch (error) {
      toast(`Cannot open: ${(error as Error).message}`);
      return;
    }
    this.adopt(opened, { id: entry.id, pgn: entry.pgn, source: entry.source });
    this.m_host.open(opened, entry);
    void this.render();
  }

  private deleteEntry(entry: LibraryEntry): void {
    const game = this.m_host.game();
    const record = this.m_records.get(game);
    this.enqueue(async (lib) => {
      await lib.delete(entry.id);
      // The game on the board stays; it gets an entry again once it changes.
      if (record && record.id === entry.id) {
        record.id = null;
        record.pgn = exportPgn(game);
      }
    });
    toastAction(`Deleted ${libraryTitle(entry)}.`, 'Undo', () =>
      this.enqueue(async (lib) => {
        await lib.put(entry);
        if (record && record.id === null && record.pgn === exportPgn(game)) record.id = entry.id;
      }),
    );
  }

  /** Every game of the library as PGN (the opening explorer indexes them). */
  async allPgns(): Promise<string[]> {
    this.flush();
    await this.m_queue;
    return this.m_library ? (await this.m_library.list()).map((entry) => entry.pgn) : [];
  }

  private async exportAll(): Promise<void> {
    this.flush();
    await this.m_queue;
    if (!this.m_library) return;
    const text = await this.m_library.exportAll();
    if (!text) {
      toast('The library is empty');
      return;
    }
    downloadBlob(new Blob([text], { type: 'application/x-chess-pgn' }), 'axon-library.pgn');
  }
}

/** The library's summary of a game: players, result, event, date, main-line length. */
function entryOf(game: GameModel, pgn: string, source: LibrarySource): NewLibraryEntry {
  const headers = exportHeaders(game);
  const now = Date.now();
  const opening = openingOfGame(game);
  return {
    pgn,
    ...(opening && { opening: openingText(opening) }),
    white: headers.get('White') ?? '?',
    black: headers.get('Black') ?? '?',
    result: headers.get('Result') ?? '*',
    event: headers.get('Event') ?? '?',
    date: headers.get('Date') ?? '????.??.??',
    plies: game.mainline().length - 1,
    source,
    created: now,
    updated: now,
  };
}

/** The opening of a parsed game's main line (its first kOpeningMaxPlies moves, as written). */
function openingOfParsed(source: Game<PgnNodeData>): Opening | undefined {
  const start = startingPosition(source.headers);
  if (start.isErr || !(start.value instanceof Chess)) return undefined;
  const sans: string[] = [];
  for (const node of source.moves.mainlineNodes()) {
    if (sans.length >= kOpeningMaxPlies) break;
    sans.push(node.data.san);
  }
  return openingOfMoves(start.value, sans);
}

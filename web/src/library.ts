// SPDX-License-Identifier: GPL-3.0-or-later
// The game library: every game played, imported or analysed, kept as PGN in the browser's
// IndexedDB (so a static host keeps them too), with a summary for the list. Where IndexedDB is
// not available (some private modes) the library lives in memory for the page's lifetime.

import type { ReviewSummary } from './review';
import type { SavedNote, SavedPlay } from './session';
import { openDatabase, request } from './idb';

export type LibrarySource = 'played' | 'imported' | 'analysis';

export interface LibraryEntry {
  id: number;
  pgn: string;
  white: string;
  black: string;
  result: string;
  event: string;
  /** PGN date (YYYY.MM.DD, `?` where unknown). */
  date: string;
  /** Moves of the main line. */
  plies: number;
  /** "ECO name" of the main line's opening (openings.ts); absent when none is named (or saved before). */
  opening?: string;
  source: LibrarySource;
  /** Engine scores, review marks and better lines of the tree's nodes (what the PGN does not hold). */
  notes?: SavedNote[];
  /** The last review's accuracy and counts. */
  review?: ReviewSummary | null;
  /** For a game against Axon: colour, strength, time control and clocks, so that it can be resumed. */
  play?: SavedPlay | null;
  /** Milliseconds since the epoch. */
  created: number;
  updated: number;
}

export type NewLibraryEntry = Omit<LibraryEntry, 'id'>;

const kDbName = 'axon';
const kDbVersion = 1;
const kStore = 'games';

interface Backend {
  all(): Promise<LibraryEntry[]>;
  add(entry: NewLibraryEntry): Promise<number>;
  put(entry: LibraryEntry): Promise<void>;
  get(id: number): Promise<LibraryEntry | undefined>;
  delete(id: number): Promise<void>;
}

class IdbBackend implements Backend {
  constructor(private readonly m_db: IDBDatabase) {}

  static async open(): Promise<IdbBackend> {
    const db = await openDatabase(kDbName, kDbVersion, (db) => {
      if (!db.objectStoreNames.contains(kStore)) db.createObjectStore(kStore, { keyPath: 'id', autoIncrement: true });
    });
    return new IdbBackend(db);
  }

  private store(mode: IDBTransactionMode): IDBObjectStore {
    return this.m_db.transaction(kStore, mode).objectStore(kStore);
  }
  all(): Promise<LibraryEntry[]> {
    return request(this.store('readonly').getAll() as IDBRequest<LibraryEntry[]>);
  }
  async add(entry: NewLibraryEntry): Promise<number> {
    return Number(await request(this.store('readwrite').add(entry)));
  }
  async put(entry: LibraryEntry): Promise<void> {
    await request(this.store('readwrite').put(entry));
  }
  get(id: number): Promise<LibraryEntry | undefined> {
    return request(this.store('readonly').get(id) as IDBRequest<LibraryEntry | undefined>);
  }
  async delete(id: number): Promise<void> {
    await request(this.store('readwrite').delete(id));
  }
}

class MemoryBackend implements Backend {
  private m_entries = new Map<number, LibraryEntry>();
  private m_next = 1;
  async all(): Promise<LibraryEntry[]> {
    return [...this.m_entries.values()].map((e) => ({ ...e }));
  }
  async add(entry: NewLibraryEntry): Promise<number> {
    const id = this.m_next++;
    this.m_entries.set(id, { ...entry, id });
    return id;
  }
  async put(entry: LibraryEntry): Promise<void> {
    this.m_entries.set(entry.id, { ...entry });
  }
  async get(id: number): Promise<LibraryEntry | undefined> {
    const entry = this.m_entries.get(id);
    return entry && { ...entry };
  }
  async delete(id: number): Promise<void> {
    this.m_entries.delete(id);
  }
}

export class GameLibrary {
  private constructor(
    private readonly m_backend: Backend,
    /** False when the games only last as long as the page (no IndexedDB). */
    readonly persistent: boolean,
  ) {}

  static async open(): Promise<GameLibrary> {
    try {
      return new GameLibrary(await IdbBackend.open(), true);
    } catch {
      return new GameLibrary(new MemoryBackend(), false);
    }
  }

  /** A library that forgets (tests, and browsers without IndexedDB). */
  static inMemory(): GameLibrary {
    return new GameLibrary(new MemoryBackend(), false);
  }

  /** Every game, the most recently changed first. */
  async list(): Promise<LibraryEntry[]> {
    const all = await this.m_backend.all();
    return all.sort((a, b) => b.updated - a.updated || b.id - a.id);
  }
  add(entry: NewLibraryEntry): Promise<number> {
    return this.m_backend.add(entry);
  }
  put(entry: LibraryEntry): Promise<void> {
    return this.m_backend.put(entry);
  }
  get(id: number): Promise<LibraryEntry | undefined> {
    return this.m_backend.get(id);
  }
  delete(id: number): Promise<void> {
    return this.m_backend.delete(id);
  }

  /** Every game as one PGN file, oldest first (games separated by a blank line). */
  async exportAll(): Promise<string> {
    const all = (await this.list()).reverse();
    return all.map((entry) => entry.pgn.trim() + '\n').join('\n');
  }
}

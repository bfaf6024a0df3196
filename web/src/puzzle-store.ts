// SPDX-License-Identifier: GPL-3.0-or-later
// The puzzles in the browser: every puzzle imported (the set shipped with the app, and any CSV the
// user imports, streamed in batches), the player's Glicko-2 puzzle rating and the history of
// attempts, in the IndexedDB database `axon-puzzles` (apart from the game library's `axon`). Where
// IndexedDB is missing the store lives in memory for the page's lifetime.

import { openDatabase, request, transactionDone } from './idb';
import { glicko2Update, kInitialRating, type Glicko2Rating } from './glicko2';
import { parsePuzzleLine, streamLines, type Puzzle } from './puzzle-csv';

export interface PuzzleAttempt {
  id?: number;
  puzzleId: string;
  puzzleRating: number;
  solved: boolean;
  /** The player's rating after it. */
  ratingAfter: number;
  at: number;
}

export interface PuzzleFilter {
  theme: string;
  minRating: number;
  maxRating: number;
}

export interface ImportReport {
  added: number;
  /** Rows refused (with the first reasons). */
  bad: number;
  reasons: string[];
}

/** Rows written to IndexedDB per transaction while importing. */
export const kImportBatch = 500;
/** Records looked at, at most, to pick the next puzzle (a big database stays quick). */
const kScanLimit = 20_000;

interface Backend {
  putPuzzles(puzzles: Puzzle[]): Promise<void>;
  count(): Promise<number>;
  /** Puzzles of rating min..max, in rating order, up to `limit` looked at. */
  scan(min: number, max: number, limit: number, visit: (puzzle: Puzzle) => boolean): Promise<void>;
  get(id: string): Promise<Puzzle | undefined>;
  addAttempt(attempt: PuzzleAttempt): Promise<void>;
  attempts(): Promise<PuzzleAttempt[]>;
  getMeta<T>(key: string): Promise<T | undefined>;
  setMeta(key: string, value: unknown): Promise<void>;
}

class IdbBackend implements Backend {
  constructor(private readonly m_db: IDBDatabase) {}

  static async open(): Promise<IdbBackend> {
    const db = await openDatabase('axon-puzzles', 1, (db) => {
      db.createObjectStore('puzzles', { keyPath: 'id' }).createIndex('rating', 'rating');
      db.createObjectStore('attempts', { keyPath: 'id', autoIncrement: true });
      db.createObjectStore('meta');
    });
    return new IdbBackend(db);
  }

  async putPuzzles(puzzles: Puzzle[]): Promise<void> {
    const tx = this.m_db.transaction('puzzles', 'readwrite');
    const store = tx.objectStore('puzzles');
    for (const puzzle of puzzles) store.put(puzzle);
    await transactionDone(tx);
  }
  count(): Promise<number> {
    return request(this.m_db.transaction('puzzles').objectStore('puzzles').count());
  }
  scan(min: number, max: number, limit: number, visit: (puzzle: Puzzle) => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const index = this.m_db.transaction('puzzles').objectStore('puzzles').index('rating');
      const cursor = index.openCursor(IDBKeyRange.bound(min, max));
      let seen = 0;
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (!at || seen++ >= limit || !visit(at.value as Puzzle)) return resolve();
        at.continue();
      };
      cursor.onerror = () => reject(cursor.error ?? new Error('IndexedDB cursor failed'));
    });
  }
  get(id: string): Promise<Puzzle | undefined> {
    return request(this.m_db.transaction('puzzles').objectStore('puzzles').get(id) as IDBRequest<Puzzle | undefined>);
  }
  async addAttempt(attempt: PuzzleAttempt): Promise<void> {
    await request(this.m_db.transaction('attempts', 'readwrite').objectStore('attempts').add(attempt));
  }
  attempts(): Promise<PuzzleAttempt[]> {
    return request(this.m_db.transaction('attempts').objectStore('attempts').getAll() as IDBRequest<PuzzleAttempt[]>);
  }
  getMeta<T>(key: string): Promise<T | undefined> {
    return request(this.m_db.transaction('meta').objectStore('meta').get(key) as IDBRequest<T | undefined>);
  }
  async setMeta(key: string, value: unknown): Promise<void> {
    await request(this.m_db.transaction('meta', 'readwrite').objectStore('meta').put(value, key));
  }
}

class MemoryBackend implements Backend {
  private m_puzzles = new Map<string, Puzzle>();
  private m_attempts: PuzzleAttempt[] = [];
  private m_meta = new Map<string, unknown>();
  async putPuzzles(puzzles: Puzzle[]): Promise<void> {
    for (const puzzle of puzzles) this.m_puzzles.set(puzzle.id, puzzle);
  }
  async count(): Promise<number> {
    return this.m_puzzles.size;
  }
  async scan(min: number, max: number, limit: number, visit: (puzzle: Puzzle) => boolean): Promise<void> {
    const inRange = [...this.m_puzzles.values()].filter((p) => p.rating >= min && p.rating <= max).sort((a, b) => a.rating - b.rating);
    for (const puzzle of inRange.slice(0, limit)) if (!visit(puzzle)) return;
  }
  async get(id: string): Promise<Puzzle | undefined> {
    return this.m_puzzles.get(id);
  }
  async addAttempt(attempt: PuzzleAttempt): Promise<void> {
    this.m_attempts.push({ ...attempt, id: this.m_attempts.length + 1 });
  }
  async attempts(): Promise<PuzzleAttempt[]> {
    return [...this.m_attempts];
  }
  async getMeta<T>(key: string): Promise<T | undefined> {
    return this.m_meta.get(key) as T | undefined;
  }
  async setMeta(key: string, value: unknown): Promise<void> {
    this.m_meta.set(key, value);
  }
}

export class PuzzleStore {
  private constructor(
    private readonly m_backend: Backend,
    readonly persistent: boolean,
  ) {}

  static async open(): Promise<PuzzleStore> {
    try {
      return new PuzzleStore(await IdbBackend.open(), true);
    } catch {
      return PuzzleStore.inMemory();
    }
  }

  static inMemory(): PuzzleStore {
    return new PuzzleStore(new MemoryBackend(), false);
  }

  count(): Promise<number> {
    return this.m_backend.count();
  }
  get(id: string): Promise<Puzzle | undefined> {
    return this.m_backend.get(id);
  }

  /**
   * Reads a puzzle CSV stream line by line into the store, kImportBatch rows a transaction;
   * `onProgress(bytes, added, bad)` after each batch. The header and blank lines are skipped; a
   * bad row is counted (its reason kept among the first few) and the import goes on.
   */
  async importCsv(stream: ReadableStream<Uint8Array>, onProgress: (bytes: number, added: number, bad: number) => void = () => {}): Promise<ImportReport> {
    const report: ImportReport = { added: 0, bad: 0, reasons: [] };
    let bytes = 0;
    let batch: Puzzle[] = [];
    const flush = async (): Promise<void> => {
      if (batch.length) await this.m_backend.putPuzzles(batch);
      report.added += batch.length;
      batch = [];
      onProgress(bytes, report.added, report.bad);
    };
    let lineNumber = 0;
    for await (const line of streamLines(stream, (n) => (bytes = n))) {
      lineNumber++;
      if (!line.trim() || line.startsWith('PuzzleId,')) continue;
      const row = parsePuzzleLine(line);
      if (row.puzzle) batch.push(row.puzzle);
      else {
        report.bad++;
        if (report.reasons.length < 3) report.reasons.push(`line ${lineNumber}: ${row.error}`);
      }
      if (batch.length >= kImportBatch) await flush();
    }
    await flush();
    return report;
  }

  /**
   * A puzzle for the filter, near `target` rating, not yet tried when there is one: the nearest
   * rating window (±100, widening to the filter's bounds) with a candidate gives one at random.
   */
  async pick(filter: PuzzleFilter, target: number, random: () => number = Math.random): Promise<Puzzle | undefined> {
    const tried = new Set((await this.m_backend.attempts()).map((a) => a.puzzleId));
    const min = Math.max(filter.minRating, 0);
    const max = Math.min(filter.maxRating, 4000);
    if (min > max) return undefined;
    const centre = Math.max(min, Math.min(max, target));
    let fallback: Puzzle | undefined;
    for (const width of [100, 250, 500, 4000]) {
      const candidates: Puzzle[] = [];
      await this.m_backend.scan(Math.max(min, centre - width), Math.min(max, centre + width), kScanLimit, (puzzle) => {
        if (filter.theme && !puzzle.themes.includes(filter.theme)) return true;
        if (tried.has(puzzle.id)) fallback ??= puzzle;
        else candidates.push(puzzle);
        return candidates.length < 200;
      });
      if (candidates.length) return candidates[Math.floor(random() * candidates.length)];
    }
    return fallback;
  }

  async rating(): Promise<Glicko2Rating> {
    const stored = await this.m_backend.getMeta<Glicko2Rating>('rating');
    return stored && Number.isFinite(stored.rating) && Number.isFinite(stored.rd) && Number.isFinite(stored.volatility) ? stored : { ...kInitialRating };
  }

  /** The result of a puzzle's first try: the rating moves (one Glicko-2 period) and the attempt is kept. */
  async record(puzzle: Puzzle, solved: boolean): Promise<{ before: Glicko2Rating; after: Glicko2Rating }> {
    const before = await this.rating();
    const after = glicko2Update(before, [{ opponentRating: puzzle.rating, opponentRd: Math.max(puzzle.ratingDeviation, 30), score: solved ? 1 : 0 }]);
    await this.m_backend.setMeta('rating', after);
    await this.m_backend.addAttempt({ puzzleId: puzzle.id, puzzleRating: puzzle.rating, solved, ratingAfter: after.rating, at: Date.now() });
    return { before, after };
  }

  /** Every attempt, the latest first. */
  async history(): Promise<PuzzleAttempt[]> {
    return (await this.m_backend.attempts()).sort((a, b) => b.at - a.at || (b.id ?? 0) - (a.id ?? 0));
  }

  getMeta<T>(key: string): Promise<T | undefined> {
    return this.m_backend.getMeta<T>(key);
  }
  setMeta(key: string, value: unknown): Promise<void> {
    return this.m_backend.setMeta(key, value);
  }
}

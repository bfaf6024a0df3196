// SPDX-License-Identifier: GPL-3.0-or-later
// The opening explorer's index in the browser: IndexedDB database `axon-explorer`, store `moves`,
// one record per source (`library` or `imported`), position key and move, with the counts of
// explorer-index.ts; an index on the position key answers a query. Tallies are merged in one
// transaction per chunk of games. In memory where IndexedDB is missing.

import type { ExplorerTally, MoveStats } from './explorer-index';

export type ExplorerSource = 'library' | 'imported';

interface MoveRecord extends MoveStats {
  source: ExplorerSource;
  key: string;
  uci: string;
}

export interface ExplorerMove extends MoveStats {
  uci: string;
}

function add(into: MoveStats, from: MoveStats): void {
  into.games += from.games;
  into.white += from.white;
  into.draws += from.draws;
  into.black += from.black;
  into.ratingSum += from.ratingSum;
  into.ratingCount += from.ratingCount;
}

interface Backend {
  merge(source: ExplorerSource, tally: ExplorerTally): Promise<void>;
  clear(source: ExplorerSource): Promise<void>;
  movesAt(key: string): Promise<MoveRecord[]>;
}

class IdbBackend implements Backend {
  constructor(private readonly m_db: IDBDatabase) {}

  static open(): Promise<IdbBackend> {
    return new Promise((resolve, reject) => {
      const open = indexedDB.open('axon-explorer', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('moves', { keyPath: ['source', 'key', 'uci'] }).createIndex('key', 'key');
      open.onsuccess = () => resolve(new IdbBackend(open.result));
      open.onerror = () => reject(open.error ?? new Error('cannot open IndexedDB'));
      open.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
    });
  }

  merge(source: ExplorerSource, tally: ExplorerTally): Promise<void> {
    return new Promise((resolve, reject) => {
      const tx = this.m_db.transaction('moves', 'readwrite');
      const store = tx.objectStore('moves');
      for (const [key, moves] of tally)
        for (const [uci, stats] of moves) {
          const get = store.get([source, key, uci]);
          get.onsuccess = () => {
            const old = get.result as MoveRecord | undefined;
            const record: MoveRecord = old ?? { ...stats, games: 0, white: 0, draws: 0, black: 0, ratingSum: 0, ratingCount: 0, source, key, uci };
            add(record, stats);
            store.put(record);
          };
        }
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    });
  }

  clear(source: ExplorerSource): Promise<void> {
    return new Promise((resolve, reject) => {
      const tx = this.m_db.transaction('moves', 'readwrite');
      tx.objectStore('moves').delete(IDBKeyRange.bound([source], [source, []]));
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    });
  }

  movesAt(key: string): Promise<MoveRecord[]> {
    return new Promise((resolve, reject) => {
      const req = this.m_db.transaction('moves').objectStore('moves').index('key').getAll(key);
      req.onsuccess = () => resolve(req.result as MoveRecord[]);
      req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
    });
  }
}

class MemoryBackend implements Backend {
  private m_records = new Map<string, MoveRecord>();
  async merge(source: ExplorerSource, tally: ExplorerTally): Promise<void> {
    for (const [key, moves] of tally)
      for (const [uci, stats] of moves) {
        const id = JSON.stringify([source, key, uci]);
        const record = this.m_records.get(id) ?? { ...stats, games: 0, white: 0, draws: 0, black: 0, ratingSum: 0, ratingCount: 0, source, key, uci };
        add(record, stats);
        this.m_records.set(id, record);
      }
  }
  async clear(source: ExplorerSource): Promise<void> {
    for (const [id, record] of this.m_records) if (record.source === source) this.m_records.delete(id);
  }
  async movesAt(key: string): Promise<MoveRecord[]> {
    return [...this.m_records.values()].filter((r) => r.key === key);
  }
}

export class ExplorerStore {
  private constructor(private readonly m_backend: Backend) {}

  static async open(): Promise<ExplorerStore> {
    try {
      if (typeof indexedDB === 'undefined') throw new Error('no IndexedDB');
      return new ExplorerStore(await IdbBackend.open());
    } catch {
      return ExplorerStore.inMemory();
    }
  }
  static inMemory(): ExplorerStore {
    return new ExplorerStore(new MemoryBackend());
  }

  merge(source: ExplorerSource, tally: ExplorerTally): Promise<void> {
    return this.m_backend.merge(source, tally);
  }
  clear(source: ExplorerSource): Promise<void> {
    return this.m_backend.clear(source);
  }

  /** The moves played from a position over every source, the most played first. */
  async moves(key: string): Promise<ExplorerMove[]> {
    const merged = new Map<string, ExplorerMove>();
    for (const record of await this.m_backend.movesAt(key)) {
      const move = merged.get(record.uci) ?? { uci: record.uci, san: record.san, games: 0, white: 0, draws: 0, black: 0, ratingSum: 0, ratingCount: 0 };
      add(move, record);
      merged.set(record.uci, move);
    }
    return [...merged.values()].sort((a, b) => b.games - a.games || a.san.localeCompare(b.san));
  }
}

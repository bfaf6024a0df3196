// SPDX-License-Identifier: GPL-3.0-or-later
// The opening explorer's index in the browser: IndexedDB database `axon-explorer`, store `moves`,
// one record per source (`library` or `imported`), position key and move, with the counts of
// explorer-index.ts; an index on the position key answers a query. Tallies are merged in one
// transaction per chunk of games. In memory where IndexedDB is missing.

import type { ExplorerTally, MoveStats } from './explorer-index';
import { openDatabase, request, transactionDone } from './idb';

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

  static async open(): Promise<IdbBackend> {
    const db = await openDatabase('axon-explorer', 1, (db) => {
      db.createObjectStore('moves', { keyPath: ['source', 'key', 'uci'] }).createIndex('key', 'key');
    });
    return new IdbBackend(db);
  }

  merge(source: ExplorerSource, tally: ExplorerTally): Promise<void> {
    const tx = this.m_db.transaction('moves', 'readwrite');
    const committed = transactionDone(tx);
    const store = tx.objectStore('moves');
    // Every read and write in one transaction: a chunk of games is merged whole or not at all.
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
    return committed;
  }

  clear(source: ExplorerSource): Promise<void> {
    const tx = this.m_db.transaction('moves', 'readwrite');
    const committed = transactionDone(tx);
    tx.objectStore('moves').delete(IDBKeyRange.bound([source], [source, []]));
    return committed;
  }

  movesAt(key: string): Promise<MoveRecord[]> {
    return request(this.m_db.transaction('moves').objectStore('moves').index('key').getAll(key) as IDBRequest<MoveRecord[]>);
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

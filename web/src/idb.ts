// SPDX-License-Identifier: GPL-3.0-or-later
// IndexedDB as promises, for the browser's stores (library.ts, puzzle-store.ts, explorer-store.ts):
// opening a database with its schema, one request, one transaction's end. Each store keeps its
// own schema and an in-memory fallback; this file owns only the callbacks-to-promises plumbing.

/**
 * Opens database `name` at `version`; `upgrade` creates the schema when the database is new or
 * older. Rejects when IndexedDB is missing, fails, or another tab holds an older version open.
 */
export function openDatabase(name: string, version: number, upgrade: (db: IDBDatabase) => void): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') return reject(new Error('no IndexedDB'));
    const open = indexedDB.open(name, version);
    open.onupgradeneeded = () => upgrade(open.result);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error(`cannot open IndexedDB ${name}`));
    open.onblocked = () => reject(new Error(`IndexedDB ${name} is blocked by another tab`));
  });
}

/** One request's result. */
export function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** Resolves when the transaction has committed; rejects when it fails or is aborted. */
export function transactionDone(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

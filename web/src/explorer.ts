// SPDX-License-Identifier: GPL-3.0-or-later
// ExplorerPanel: the opening explorer card of Analysis. For the viewed position, every move played
// from it in the indexed games (the library's, and any PGN database imported here), with games,
// White / draw / Black score and the players' average rating; a click plays the move. Indexing
// runs in chunks of games with a progress bar, yielding to the page between chunks so that it
// never freezes; a PGN file is streamed, never read whole.

import type { Chess } from 'chessops/chess';
import { byTestId, el } from './dom';
import { pgnChunks, positionKey, tallyPgn, type ExplorerTally } from './explorer-index';
import { ExplorerStore, type ExplorerSource } from './explorer-store';
import { streamLines } from './line-stream';

export interface ExplorerHost {
  /** The viewed position, or null when the explorer is not shown (not in Analysis). */
  position(): Chess | null;
  playMove(uci: string): void;
  /** Every game of the library as PGN. */
  libraryPgns(): Promise<string[]>;
}

/** Games parsed and merged into IndexedDB per step. */
const kGamesPerChunk = 200;

export class ExplorerPanel {
  private m_store: Promise<ExplorerStore> | null = null;
  private m_shownKey: string | null = null;
  private m_busy = false;
  private readonly m_body = byTestId('explorer-moves');
  private readonly m_note = byTestId('explorer-note');
  private readonly m_progress = byTestId<HTMLProgressElement>('explorer-progress');

  constructor(private readonly m_host: ExplorerHost) {
    byTestId('explorer-index-library').addEventListener('click', () => void this.indexLibrary());
    byTestId<HTMLInputElement>('explorer-file').addEventListener('change', (event) => {
      const input = event.target as HTMLInputElement;
      const file = input.files?.[0];
      if (file) void this.importFile(file).finally(() => (input.value = ''));
    });
  }

  private store(): Promise<ExplorerStore> {
    this.m_store ??= ExplorerStore.open();
    return this.m_store;
  }

  /** The viewed position changed (or the mode): its moves are looked up when it is a new one. */
  render(force = false): void {
    const position = this.m_host.position();
    if (!position) return;
    const key = positionKey(position);
    if (key === this.m_shownKey && !force) return;
    this.m_shownKey = key;
    void this.show(key);
  }

  private async show(key: string): Promise<void> {
    const moves = await (await this.store()).moves(key);
    if (key !== this.m_shownKey) return;
    const body = this.m_body;
    body.replaceChildren();
    byTestId('explorer').dataset.key = key;
    if (!moves.length) {
      body.appendChild(el('tr', { class: 'explorer-empty' })).appendChild(el('td', { colspan: '4' }, 'No indexed game reached this position.'));
      return;
    }
    for (const move of moves) {
      const avg = move.ratingCount ? Math.round(move.ratingSum / move.ratingCount) : null;
      const percent = (n: number): string => `${Math.round((100 * n) / move.games)}%`;
      const row = el('tr', {
        class: 'explorer-move',
        'data-testid': 'explorer-move',
        'data-uci': move.uci,
        'data-games': String(move.games),
        'data-white': String(move.white),
        'data-draws': String(move.draws),
        'data-black': String(move.black),
        'data-avg-rating': avg === null ? '' : String(avg),
        title: `Play ${move.san}`,
        tabindex: '0',
      });
      row.appendChild(el('td', { class: 'explorer-san' }, move.san));
      row.appendChild(el('td', { class: 'explorer-games' }, String(move.games)));
      const bar = el('td', { class: 'explorer-score', 'aria-label': `White ${percent(move.white)}, draws ${percent(move.draws)}, Black ${percent(move.black)}` });
      for (const [kind, n] of [['white', move.white], ['draws', move.draws], ['black', move.black]] as const)
        if (n) bar.appendChild(el('span', { class: `explorer-${kind}`, style: `width:${percent(n)}` }, percent(n)));
      row.appendChild(bar);
      row.appendChild(el('td', { class: 'explorer-rating' }, avg === null ? '–' : String(avg)));
      row.addEventListener('click', () => this.m_host.playMove(move.uci));
      row.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') this.m_host.playMove(move.uci);
      });
      body.appendChild(row);
    }
  }

  /** Indexes the library again (its old counts replaced). */
  async indexLibrary(): Promise<void> {
    if (this.m_busy) return;
    this.m_busy = true;
    try {
      const store = await this.store();
      const pgns = await this.m_host.libraryPgns();
      await store.clear('library');
      let counted = 0;
      for (let i = 0; i < pgns.length; i += kGamesPerChunk) {
        counted += (await this.merge(store, 'library', pgns.slice(i, i + kGamesPerChunk).join('\n\n'))).counted;
        this.progress(Math.min(i + kGamesPerChunk, pgns.length), pgns.length, `Library: ${counted} games indexed…`);
        await yieldToPage();
      }
      this.finish(`Library: ${counted} games indexed.`, counted);
    } finally {
      this.m_busy = false;
    }
  }

  /** A PGN database, streamed and indexed chunk by chunk with a progress bar. */
  async importFile(file: File): Promise<void> {
    if (this.m_busy) return;
    this.m_busy = true;
    let bytes = 0;
    let counted = 0;
    let skipped = 0;
    try {
      const store = await this.store();
      for await (const chunk of pgnChunks(streamLines(file.stream(), (n) => (bytes = n)), kGamesPerChunk)) {
        const result = await this.merge(store, 'imported', chunk);
        counted += result.counted;
        skipped += result.skipped;
        this.progress(bytes, file.size, `${file.name}: ${counted} games indexed…`);
        await yieldToPage();
      }
      this.finish(`${file.name}: ${counted} games indexed${skipped ? `, ${skipped} of other variants left out` : ''}.`, counted);
    } catch (error) {
      this.m_note.textContent = `${file.name} could not be read: ${(error as Error).message}`;
      this.m_note.dataset.state = 'error';
    } finally {
      this.m_busy = false;
    }
  }

  private async merge(store: ExplorerStore, source: ExplorerSource, text: string): Promise<{ counted: number; skipped: number }> {
    const tally: ExplorerTally = new Map();
    const result = tallyPgn(text, tally);
    await store.merge(source, tally);
    return result;
  }

  private progress(done: number, total: number, text: string): void {
    this.m_progress.hidden = false;
    this.m_progress.max = Math.max(total, 1);
    this.m_progress.value = done;
    this.m_note.textContent = text;
    this.m_note.dataset.state = 'running';
  }

  private finish(text: string, counted: number): void {
    this.m_progress.value = this.m_progress.max;
    this.m_note.textContent = text;
    this.m_note.dataset.state = 'done';
    this.m_note.dataset.games = String(counted);
    this.render(true);
  }
}

/** Lets the page draw and take input between two chunks of work. */
function yieldToPage(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

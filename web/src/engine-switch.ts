// SPDX-License-Identifier: GPL-3.0-or-later
// EngineSwitch: which engine the page uses (the server's, found on /ws, or the WASM worker), the
// engine select, and the status line: state, and while a server engine reconnects after a restart
// the seconds to its next attempt and a way to the in-browser engine.

import { byTestId, toast } from './dom';
import { forcedEngine, tryServerEngine } from './engine/detect';
import type { Engine, EngineKind } from './engine/engine';
import { ServerEngine } from './engine/server-engine';
import { WasmEngine } from './engine/wasm-engine';

/** How often the status counts down to the next reconnection attempt. */
const kCountdownMs = 500;

export interface EngineSwitchHost {
  /** The engine is about to change: stop what uses it; true when a game against it was going on. */
  leaving(): boolean;
  /** The new engine is in place: take up the game (`wasPlaying`) or the analysis again. */
  joined(wasPlaying: boolean): void;
  /** The server engine is back after a restart: its waiting turn, or the analysis, goes on. */
  back(): void;
  /** The engine's state changed (the page marks the side that thinks). */
  stateChanged(): void;
}

export class EngineSwitch {
  private m_engine: Engine | null = null;
  private m_engines: Partial<Record<EngineKind, Engine>> = {};
  private m_watched = new Set<Engine>();
  private m_countdown: number | undefined;
  private readonly m_status = byTestId('engine-status');
  private readonly m_select = byTestId<HTMLSelectElement>('engine-select');
  private readonly m_useWasm = byTestId<HTMLButtonElement>('engine-use-wasm');

  /** `chosen` is the user's remembered choice; `choose` remembers a new one. */
  constructor(
    private readonly m_host: EngineSwitchHost,
    private readonly m_chosen: () => EngineKind | null,
    choose: (kind: EngineKind) => void,
  ) {
    this.m_select.addEventListener('change', () => {
      const kind = this.m_select.value as EngineKind;
      choose(kind);
      this.use(kind);
    });
    this.m_useWasm.addEventListener('click', () => this.use('wasm'));
  }

  get engine(): Engine | null {
    return this.m_engine;
  }

  /** Finds the server engine (unless `?engine=wasm`) and starts the chosen one. */
  async init(): Promise<void> {
    const forced = forcedEngine();
    const server = forced === 'wasm' ? null : await tryServerEngine();
    if (server) this.m_engines.server = server;
    this.m_select.hidden = !server;
    const choice: EngineKind = forced ?? (server ? (this.m_chosen() ?? 'server') : 'wasm');
    if (choice === 'server' && !server) {
      this.m_status.dataset.engine = 'server';
      this.m_status.dataset.build = 'native';
      this.m_status.dataset.state = 'error';
      this.m_status.querySelector('.engine-status-text')!.textContent = 'Engine error: no server engine (/ws) here';
      return;
    }
    this.use(choice);
  }

  use(kind: EngineKind): void {
    if (kind === 'wasm' && !this.m_engines.wasm) this.m_engines.wasm = new WasmEngine();
    const next = this.m_engines[kind];
    if (!next) {
      toast(`The ${kind} engine is not available here`);
      return;
    }
    const wasPlaying = this.m_host.leaving();
    this.m_engine = next;
    if (!this.m_watched.has(next)) {
      this.m_watched.add(next);
      let previous = next.state;
      next.onStateChange(() => {
        const was = previous;
        previous = next.state;
        if (next !== this.m_engine) return;
        this.render();
        this.m_host.stateChanged();
        if (was === 'reconnecting' && next.state === 'ready') {
          toast('The server engine is back');
          this.m_host.back();
        }
      });
    }
    // Picking the server engine again while it reconnects tries at once.
    if (next instanceof ServerEngine) next.reconnectNow();
    this.m_select.value = kind;
    this.render();
    next.ready().catch(() => toast(`The ${kind === 'wasm' ? 'in-browser' : 'server'} engine could not start`));
    this.m_host.joined(wasPlaying);
  }

  /** The status line and its data-* attributes (engine, build, state). */
  render(): void {
    const e = this.m_engine;
    const status = this.m_status;
    status.dataset.engine = e?.kind ?? '';
    status.dataset.build = e?.build ?? '';
    status.dataset.state = e?.state ?? 'loading';
    const text = status.querySelector('.engine-status-text')!;
    this.m_useWasm.hidden = e?.state !== 'reconnecting';
    if (!e) text.textContent = 'Looking for an engine…';
    else if (e.state === 'error') text.textContent = `Engine error: ${e.errorMessage}`;
    else if (e.state === 'reconnecting') {
      const at = e instanceof ServerEngine ? e.retryAt : 0;
      const seconds = Math.max(1, Math.ceil((at - Date.now()) / 1000));
      text.textContent = at ? `Server connection lost · retrying in ${seconds} s` : 'Server connection lost · reconnecting…';
    } else {
      const threads = e instanceof WasmEngine && e.threads > 1 ? `, ${e.threads} threads` : '';
      const where = e.kind === 'server' ? 'server' : `in browser${threads}`;
      const doing = e.state === 'thinking' ? 'thinking' : e.state === 'loading' ? 'loading' : 'ready';
      text.textContent = `${e.name.replace(/ \((server|WASM)\)$/, '')} · ${where} · ${doing}`;
    }
    const reconnecting = e?.state === 'reconnecting';
    status.title = e ? `${e.name}, build ${e.build}${reconnecting ? ': the server stopped answering; the page reconnects by itself' : ''}` : '';
    // While reconnecting the status counts down to the next attempt.
    if (reconnecting && this.m_countdown === undefined) this.m_countdown = window.setInterval(() => this.render(), kCountdownMs);
    else if (!reconnecting && this.m_countdown !== undefined) {
      clearInterval(this.m_countdown);
      this.m_countdown = undefined;
    }
  }
}

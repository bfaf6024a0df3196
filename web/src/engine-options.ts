// SPDX-License-Identifier: GPL-3.0-or-later
// EngineOptions: the Hash and Threads selects of the analysis panel, within the engine's range
// (Engine.analysisLimits: what the server lets one session use, or the in-browser engine's memory
// and worker pool), remembered per engine in the settings and applied through Engine.setOption:
// the analysis stops, the option is set, the analysis starts again. A refusal (a server whose
// total budget is spent) is shown in words under the selects and the select goes back.

import type { Engine, EngineKind, EngineOptionName, SpinOption } from './engine/engine';
import type { Settings } from './settings';

/** Hash sizes offered (MiB), within the engine's range; its current value and maximum are added. */
const kHashChoicesMiB = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];
/** Threads offered one by one up to this, then the maximum. */
const kThreadChoicesMax = 64;

export interface EngineOptionsHost {
  engine(): Engine | null;
  settings: Settings;
  saveSettings(): void;
  /** Stops the analysis if it runs; the function returned starts it again (on the same position). */
  pauseAnalysis(): () => void;
}

export interface EngineOptionsElements {
  hash: HTMLSelectElement;
  threads: HTMLSelectElement;
  error: HTMLElement;
}

export class EngineOptions {
  /** What each select lists now (engine, range, value), so that it is rebuilt only when that changes. */
  private m_rendered = new Map<EngineOptionName, string>();
  private m_busy = false;

  constructor(
    private readonly m_host: EngineOptionsHost,
    private readonly m_el: EngineOptionsElements,
  ) {
    m_el.hash.addEventListener('change', () => void this.change('Hash', Number(m_el.hash.value)));
    m_el.threads.addEventListener('change', () => void this.change('Threads', Number(m_el.threads.value)));
  }

  /** Lists each option's choices for the current engine (disabled when it has one or none). */
  render(): void {
    const engine = this.m_host.engine();
    const ready = engine !== null && engine.state !== 'loading' && engine.state !== 'error' && engine.state !== 'reconnecting';
    const limits = ready ? engine.analysisLimits : null;
    this.renderSelect('Hash', this.m_el.hash, limits?.hash ?? null, engine?.kind ?? null);
    this.renderSelect('Threads', this.m_el.threads, limits?.threads ?? null, engine?.kind ?? null);
  }

  /**
   * The engine is in place (first use, a switch): once it is ready, the values remembered for it
   * are set, each kept within its range (the analysis it started meanwhile is restarted).
   */
  applyRemembered(): void {
    const engine = this.m_host.engine();
    if (!engine) return;
    void engine
      .ready()
      .then(async () => {
        if (engine !== this.m_host.engine()) return;
        const limits = engine.analysisLimits;
        const changes: [EngineOptionName, number][] = [];
        for (const [name, option, store] of [
          ['Hash', limits.hash, this.m_host.settings.engineHash],
          ['Threads', limits.threads, this.m_host.settings.engineThreads],
        ] as const) {
          const value = remembered(store, engine.kind);
          if (!option || value === undefined) continue;
          const clamped = Math.max(option.min, Math.min(option.max, value));
          if (clamped !== option.value) changes.push([name, clamped]);
        }
        if (changes.length) await this.apply(engine, changes, false);
      })
      .catch(() => undefined)
      .finally(() => this.render());
  }

  /** The user picked a value. */
  private async change(name: EngineOptionName, value: number): Promise<void> {
    const engine = this.m_host.engine();
    if (!engine) return;
    await this.apply(engine, [[name, value]], true);
  }

  /**
   * Stops the analysis, sets each option, starts the analysis again. A value the user chose is
   * remembered once the engine took it; a refusal is shown and the select shows the engine's value.
   */
  private async apply(engine: Engine, changes: [EngineOptionName, number][], chosen: boolean): Promise<void> {
    if (this.m_busy) return;
    this.m_busy = true;
    this.m_el.error.textContent = '';
    const resume = this.m_host.pauseAnalysis();
    try {
      for (const [name, value] of changes) {
        const select = name === 'Hash' ? this.m_el.hash : this.m_el.threads;
        select.dataset.state = 'applying';
        try {
          await engine.setOption(name, value);
          select.dataset.state = 'applied';
          if (chosen) {
            const store = name === 'Hash' ? this.m_host.settings.engineHash : this.m_host.settings.engineThreads;
            store[engine.kind] = value;
            this.m_host.saveSettings();
          }
        } catch (error) {
          select.dataset.state = 'error';
          this.showError(name, value, error as Error);
        }
      }
    } finally {
      this.m_busy = false;
      this.m_rendered.clear();
      this.render();
      resume();
    }
  }

  private showError(name: EngineOptionName, value: number, error: Error): void {
    const unit = name === 'Hash' ? ' MB' : '';
    this.m_el.error.textContent = `Could not set ${name} to ${value}${unit}: ${error.message}`;
  }

  private renderSelect(name: EngineOptionName, select: HTMLSelectElement, option: SpinOption | null, kind: EngineKind | null): void {
    const key = option ? `${kind} ${option.min} ${option.max} ${option.value}` : 'none';
    select.disabled = this.m_busy || !option || option.min === option.max;
    if (this.m_rendered.get(name) === key) return;
    this.m_rendered.set(name, key);
    select.replaceChildren();
    if (!option) {
      select.append(new Option('–', ''));
      delete select.dataset.applied;
      return;
    }
    const values = name === 'Hash' ? hashChoices(option) : threadChoices(option);
    const unit = name === 'Hash' ? ' MB' : '';
    for (const value of values) select.append(new Option(`${value}${unit}`, String(value)));
    select.value = String(option.value);
    // The value the engine confirmed, for tests and styles.
    select.dataset.applied = String(option.value);
  }
}

function remembered(store: Partial<Record<EngineKind, number>> | undefined, kind: EngineKind): number | undefined {
  const value = store?.[kind];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

export function hashChoices(option: SpinOption): number[] {
  const values = new Set(kHashChoicesMiB.filter((v) => v >= option.min && v <= option.max));
  values.add(option.value);
  values.add(option.max);
  return [...values].sort((a, b) => a - b);
}

export function threadChoices(option: SpinOption): number[] {
  const values = new Set<number>();
  for (let v = option.min; v <= Math.min(option.max, kThreadChoicesMax); v++) values.add(v);
  values.add(option.value);
  values.add(option.max);
  return [...values].sort((a, b) => a - b);
}

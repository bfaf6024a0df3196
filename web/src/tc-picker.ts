// SPDX-License-Identifier: GPL-3.0-or-later
// TimeControlPicker: the clock select of the New game card: the presets, the custom time control in
// use (an option of its own) and "Custom…", which opens minutes + increment boxes that are checked
// (clock.ts parseTimeControl) before the time control is taken.

import { byTestId } from './dom';
import { kTimeControls, parseTimeControl, timeControlById } from './clock';

export class TimeControlPicker {
  private readonly m_select = byTestId<HTMLSelectElement>('tc-select');
  private readonly m_custom = byTestId('tc-custom');
  private readonly m_minutes = byTestId<HTMLInputElement>('tc-minutes');
  private readonly m_increment = byTestId<HTMLInputElement>('tc-increment');
  private readonly m_error = byTestId('tc-custom-error');
  private m_value: string;

  /** `value` is the time control id in use; `changed` gets each new one the user picks. */
  constructor(value: string, private readonly m_changed: (id: string) => void) {
    this.m_value = timeControlById(value).id === value ? value : '5+0';
    this.select(this.m_value);
    this.m_select.addEventListener('change', () => {
      if (this.m_select.value === 'custom') {
        this.openCustom();
        return;
      }
      this.m_custom.hidden = true;
      this.take(this.m_select.value);
    });
    byTestId('tc-custom-apply').addEventListener('click', () => this.applyCustom());
    for (const input of [this.m_minutes, this.m_increment])
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          this.applyCustom();
        }
      });
  }

  private openCustom(): void {
    const current = timeControlById(this.m_value);
    this.m_custom.hidden = false;
    if (current.initialMs > 0) {
      this.m_minutes.value = String(current.initialMs / 60_000);
      this.m_increment.value = String(current.incrementMs / 1000);
    }
    this.showError('');
    this.m_minutes.focus();
    this.m_minutes.select();
  }

  private applyCustom(): void {
    const parsed = parseTimeControl(this.m_minutes.value, this.m_increment.value);
    if ('error' in parsed) {
      this.showError(parsed.error);
      return;
    }
    this.showError('');
    this.m_custom.hidden = true;
    this.select(parsed.tc.id);
    this.take(parsed.tc.id);
  }

  private showError(message: string): void {
    this.m_error.textContent = message;
    for (const input of [this.m_minutes, this.m_increment])
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
  }

  private take(id: string): void {
    this.m_value = id;
    this.m_changed(id);
  }

  /** Shows `id` as chosen; a custom one gets its own option, just before "Custom…". */
  private select(id: string): void {
    this.m_select.querySelector('option.custom-value')?.remove();
    if (!kTimeControls.some((tc) => tc.id === id)) {
      const option = document.createElement('option');
      option.className = 'custom-value';
      option.value = id;
      option.textContent = `${id} custom`;
      this.m_select.insertBefore(option, this.m_select.querySelector('option[value="custom"]'));
    }
    this.m_select.value = id;
  }
}

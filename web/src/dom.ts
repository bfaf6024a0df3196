// SPDX-License-Identifier: GPL-3.0-or-later
// Small DOM helpers: elements by data-testid, element creation, downloads, a toast line.

export function byTestId<T extends HTMLElement = HTMLElement>(id: string, root: ParentNode = document): T {
  const element = root.querySelector<T>(`[data-testid="${id}"]`);
  if (!element) throw new Error(`missing element data-testid=${id}`);
  return element;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

export const kSvgNs = 'http://www.w3.org/2000/svg';

export function svgEl(tag: string, attributes: Record<string, string | number> = {}): SVGElement {
  const element = document.createElementNS(kSvgNs, tag) as SVGElement;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = el('a', { href: url, download: filename });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

let toastTimer: number | undefined;
const kToastMs = 2600;
/** How long a toast with an action (Undo) stays. */
const kActionToastMs = 10_000;

/** A short message at the bottom of the screen (also read by screen readers). */
export function toast(message: string): void {
  const element = document.getElementById('toast');
  if (!element) return;
  element.textContent = message;
  show(element, kToastMs);
}

/** A message with one button (`toast-action`), e.g. Undo; the button works once. */
export function toastAction(message: string, label: string, action: () => void): void {
  const element = document.getElementById('toast');
  if (!element) return;
  element.textContent = message + ' ';
  const button = el('button', { type: 'button', class: 'toast-action', 'data-testid': 'toast-action' }, label);
  button.addEventListener('click', () => {
    element.classList.remove('visible');
    element.textContent = '';
    action();
  });
  element.appendChild(button);
  show(element, kActionToastMs);
}

function show(element: HTMLElement, ms: number): void {
  element.classList.add('visible');
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => element.classList.remove('visible'), ms);
}

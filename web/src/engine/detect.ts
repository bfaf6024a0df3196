// SPDX-License-Identifier: GPL-3.0-or-later
// Which engines this page can use: the server's (when /ws answers) and the WASM worker, and `?engine=`.

import type { EngineKind } from './engine';
import { ServerEngine, serverSocketUrl } from './server-engine';

const kConnectTimeoutMs = 2500;

/** `?engine=server|wasm` in the URL forces that engine; anything else is ignored. */
export function forcedEngine(): EngineKind | null {
  const value = new URLSearchParams(location.search).get('engine');
  return value === 'server' || value === 'wasm' ? value : null;
}

/** Connects to the serving `axon serve`; null on a static host (no /ws). */
export async function tryServerEngine(): Promise<ServerEngine | null> {
  if (location.protocol === 'file:') return null;
  try {
    return await ServerEngine.connect(serverSocketUrl(), kConnectTimeoutMs);
  } catch {
    return null;
  }
}

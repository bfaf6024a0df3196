// SPDX-License-Identifier: GPL-3.0-or-later
// Bundles the front end with esbuild into dist/: main.js (with the opening names of
// openings-table.mjs), main.css (chessground's CSS and the cburnett pieces inlined), index.html.
// The engine files are copied by scripts/build-web.sh.

import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { openingsPlugin } from './openings-table.mjs';

const outdir = 'dist';
mkdirSync(outdir, { recursive: true });

await build({
  entryPoints: { main: 'src/main.ts' },
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'iife',
  target: ['es2020', 'chrome90', 'firefox90', 'safari14'],
  outdir,
  logLevel: 'warning',
  legalComments: 'linked',
  plugins: [openingsPlugin()],
});

await build({
  entryPoints: { main: 'src/styles/main.css' },
  bundle: true,
  minify: true,
  sourcemap: true,
  outdir,
  logLevel: 'warning',
  legalComments: 'linked',
});

copyFileSync('index.html', `${outdir}/index.html`);
// The puzzles shipped with the app (Lichess puzzle database, CC0), streamed into IndexedDB on first use.
copyFileSync('puzzles/lichess-puzzles.csv', `${outdir}/puzzles.csv`);
console.log('web: bundled into web/dist');

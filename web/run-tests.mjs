// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the front end's unit tests (test/*.test.ts) under node's test runner, bundled by esbuild.

import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { openingsPlugin } from './openings-table.mjs';

const outdir = 'node_modules/.axon-tests';
rmSync(outdir, { recursive: true, force: true });
const tests = readdirSync('test').filter((f) => f.endsWith('.test.ts'));
await build({
  entryPoints: tests.map((f) => `test/${f}`),
  bundle: true,
  platform: 'node',
  format: 'esm',
  outdir,
  outExtension: { '.js': '.mjs' },
  logLevel: 'warning',
  plugins: [openingsPlugin()],
});
const run = spawnSync(process.execPath, ['--test', ...tests.map((f) => `${outdir}/${f.replace(/\.ts$/, '.mjs')}`)], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);

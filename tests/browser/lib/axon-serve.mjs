// SPDX-License-Identifier: GPL-3.0-or-later
// A test's own `axon serve` process (besides the one scripts/browser-test.sh starts): started with
// the test's arguments, its URL read from what it prints, stopped with SIGTERM (SIGKILL after 5 s).
import { spawn } from 'node:child_process';

/** Starts `axon serve ARGS`; resolves with { child, url, port } once it prints its URL. */
export function startServe(binary, args) {
  const child = spawn(binary, ['serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolvePromise, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`axon serve did not start: ${out}`)), 20000);
    const onData = (chunk) => {
      out += chunk;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) { clearTimeout(timer); resolvePromise({ child, url: m[0], port: Number(m[1]) }); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`axon serve exited (${code}): ${out}`)); });
  });
}

/** Stops a server startServe started (nothing when it has exited already). */
export async function stopServe(server) {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
}

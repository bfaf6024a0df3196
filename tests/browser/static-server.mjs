// SPDX-License-Identifier: GPL-3.0-or-later
// A small static file server for the browser tests: web/dist at /, optional extra folders at
// prefixes (the nps harness), and with --coi the COOP/COEP headers that make the page
// cross-origin isolated, so the threaded WASM build (SharedArrayBuffer) can run.
// --hide /prefix/ answers 404 under a prefix (the page without its engine files).
// Usage: node static-server.mjs --root DIR [--coi] [--mount /prefix=DIR]... [--hide /prefix/]... [--port N]
// Prints "listening http://127.0.0.1:PORT/" once it accepts connections.
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { resolve, join, extname, sep } from 'node:path';

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.woff': 'font/woff', '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8', '.nnue': 'application/octet-stream',
};

const args = process.argv.slice(2);
let root = null, coi = false, port = 0;
const mounts = [];
const hidden = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--root') root = resolve(args[++i]);
  else if (args[i] === '--coi') coi = true;
  else if (args[i] === '--port') port = Number(args[++i]);
  else if (args[i] === '--hide') hidden.push(args[++i]);
  else if (args[i] === '--mount') {
    const [prefix, dir] = args[++i].split('=');
    mounts.push({ prefix: prefix.replace(/\/$/, '') + '/', dir: resolve(dir) });
  } else { console.error(`static-server: unknown argument ${args[i]}`); process.exit(2); }
}
if (!root) { console.error('static-server: --root DIR is required'); process.exit(2); }

function fileFor(urlPath) {
  if (hidden.some((h) => urlPath.startsWith(h))) return null;
  let base = root, rest = urlPath;
  for (const m of mounts) if (urlPath.startsWith(m.prefix)) { base = m.dir; rest = urlPath.slice(m.prefix.length - 1); break; }
  const p = resolve(join(base, decodeURIComponent(rest)));
  if (p !== base && !p.startsWith(base + sep)) return null;
  try {
    const st = statSync(p);
    if (st.isDirectory()) { const idx = join(p, 'index.html'); statSync(idx); return idx; }
    return p;
  } catch { return null; }
}

const server = createServer((req, res) => {
  const headers = { 'Cache-Control': 'no-store' };
  if (coi) Object.assign(headers, {
    'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp',
    'Cross-Origin-Resource-Policy': 'same-origin',
  });
  let file = null;
  try { file = fileFor(new URL(req.url, 'http://x').pathname); } catch { file = null; }
  if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(file ? 405 : 404, { ...headers, 'Content-Type': 'text/plain' });
    res.end(file ? 'method not allowed\n' : 'not found\n');
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream' });
  if (req.method === 'HEAD') res.end(); else createReadStream(file).pipe(res);
});
// A WebSocket upgrade (the page probing /ws) is refused: this server has no engine.
server.on('upgrade', (req, socket) => socket.destroy());
server.listen(port, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}/`));
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => process.exit(0));

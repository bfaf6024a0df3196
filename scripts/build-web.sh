#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the browser front end into web/dist/: npm ci (when node_modules is missing or the lock
# changed), the WASM engine (when scripts/build-wasm-engine.sh exists), tsc --noEmit, esbuild.
#
#   bash scripts/build-web.sh [WASM_BUILD_DIR]     (default build-wasm-engine)
#   AXON_SKIP_WASM=1 bash scripts/build-web.sh     (front end only; reuses an engine already built)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
web="$root/web"
wasm_dir="${1:-build-wasm-engine}"
case "$wasm_dir" in /*) ;; *) wasm_dir="$root/$wasm_dir" ;; esac

command -v node >/dev/null || { echo "build-web: node is missing (apt-get install nodejs npm)" >&2; exit 1; }
command -v npm >/dev/null || { echo "build-web: npm is missing (apt-get install npm)" >&2; exit 1; }

# 1. Dependencies, only when the lock file changed since the last npm ci.
stamp="$web/node_modules/.axon-lock.sha256"
lock_sum="$(sha256sum "$web/package-lock.json" | cut -d' ' -f1)"
if [[ ! -d "$web/node_modules" || ! -f "$stamp" || "$(cat "$stamp")" != "$lock_sum" ]]; then
    echo "build-web: npm ci"
    (cd "$web" && npm ci --no-audit --no-fund)
    echo "$lock_sum" > "$stamp"
fi

# 2. The in-browser engine (the wasm helper's script); the site still builds without it.
if [[ "${AXON_SKIP_WASM:-0}" != 1 && -f "$root/scripts/build-wasm-engine.sh" ]]; then
    bash "$root/scripts/build-wasm-engine.sh" "$wasm_dir"
elif [[ ! -f "$root/scripts/build-wasm-engine.sh" ]]; then
    echo "build-web: warning: scripts/build-wasm-engine.sh not found; building without the in-browser engine" >&2
fi

# 3. Type check (strict) and bundle.
(cd "$web" && npm run --silent typecheck)
rm -rf "$web/dist"
(cd "$web" && node build.mjs)

# 4. Engine files next to the page (engine/axon-engine-worker.js and the builds it loads).
if [[ -d "$wasm_dir/engine" ]]; then
    mkdir -p "$web/dist/engine"
    cp -a "$wasm_dir/engine/." "$web/dist/engine/"
    echo "build-web: engine copied from $wasm_dir/engine"
else
    echo "build-web: warning: $wasm_dir/engine not found; web/dist has no in-browser engine" >&2
fi
echo "build-web: done: $web/dist"

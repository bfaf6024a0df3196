#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# In-browser nps of the WASM engine (headless chromium, tests/browser/nps-bench.mjs) against the
# native engine's 1-thread nps in the same run: `go nodes NODES` on four fixed positions by the
# st build (page without COOP/COEP) and, when web/dist has it, the mt build (page with
# COOP/COEP) at 1 and THREADS threads; plus the renderer memory the worker adds and the sizes
# of the shipped engine files.
#
# Usage: bench/wasm-browser-nps.sh [NODES=1000000] [THREADS=2] [ROUNDS=3]   (AXON=path/to/axon to choose)
# Needs web/dist (scripts/build-web.sh), node, npm and chromium.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
source bench/lib/find-axon.sh
AXON=$(realpath "$AXON")
dist=$(realpath -m "${AXON_WEB_DIST:-web/dist}")
[[ -f $dist/engine/axon-engine-worker.js ]] || { echo "wasm-browser-nps: no $dist/engine/axon-engine-worker.js (run scripts/build-web.sh)" >&2; exit 2; }
BROWSER_TESTS_DIR=$root/tests/browser
# shellcheck source=tests/browser/servers.sh
source "$BROWSER_TESTS_DIR/servers.sh"
trap stop_servers EXIT
trap 'exit 130' INT TERM
ensure_browser_deps

harness=(--mount "/__harness=$BROWSER_TESTS_DIR/harness")
start_node_static AXON_STATIC_URL "$dist" "${harness[@]}"
if [[ -f $dist/engine/axon-mt.wasm ]]; then
    start_node_static AXON_COI_URL "$dist" --coi "${harness[@]}"
fi
echo "wasm-browser-nps: $AXON; $(nproc) cores; chromium $("${CHROMIUM:-/usr/bin/chromium}" --version 2>/dev/null | head -n 1)"
for f in "$dist"/engine/*.wasm "$dist"/engine/*.js; do
    [[ -f $f ]] && printf '  %-28s %9d bytes, %9d gzipped\n' "${f#"$dist"/}" "$(stat -c %s "$f")" "$(gzip -9c "$f" | wc -c)"
done
cd "$BROWSER_TESTS_DIR"
AXON_BIN=$AXON AXON_NPS_NODES=${1:-1000000} AXON_NPS_THREADS=${2:-2} AXON_NPS_ROUNDS=${3:-3} node nps-bench.mjs

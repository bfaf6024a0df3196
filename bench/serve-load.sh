#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Load check for `axon serve`: starts a server on a free loopback port, runs SESSIONS concurrent
# WebSocket sessions that each play MOVES engine moves (go nodes NODES, play:true) against
# random replies, and prints the move latency percentiles and any errors (docs/server.md).
#
# Usage: bench/serve-load.sh [BUILD_DIR=build] [SESSIONS=50] [MOVES=6] [NODES=2000]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build}
sessions=${2:-50}
moves=${3:-6}
nodes=${4:-2000}
for tool in "$build/axon" "$build/axon_serve_load"; do
    [[ -x $tool ]] || { echo "serve-load: $tool not built (cmake --build $build)" >&2; exit 2; }
done
out=$(mktemp)
"$build/axon" serve --port 0 --max-sessions "$((sessions + 8))" --hash 4 >"$out" 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -f "$out"' EXIT
url=""
for _ in $(seq 100); do
    url=$(grep -oE 'http://127\.0\.0\.1:[0-9]+/' "$out" | head -n 1 || true)
    [[ -n $url ]] && break
    sleep 0.1
done
[[ -n $url ]] || { echo "serve-load: the server did not start:" >&2; cat "$out" >&2; exit 1; }
port=${url##*:}
port=${port%/}
echo "serve-load: $(nproc) cores; $(grep 'searches at once' "$out")"
"$build/axon_serve_load" "$port" "$sessions" "$moves" "$nodes"

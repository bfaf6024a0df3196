#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The in-browser engine's speed against the native engine's, in one run: `bench` (one thread,
# 16 MiB hash) natively, in the st and mt WebAssembly builds under node, and natively again;
# prints each nps, the WebAssembly/native ratios (against the mean of the two native runs), the
# wasm module's memory after bench, and the download sizes (raw and gzip -9).
# Browser figures: docs/wasm-engine.md says how to take them in Chromium.
#
# Usage: bench/wasm-nps.sh [BUILD_DIR] [DEPTH]      (defaults: build-wasm-engine, bench's 13)
# The native engine: $AXON, else ./axon, build-release/axon or build/axon.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source bench/lib/find-axon.sh
readonly ENGINE_DIR=${1:-build-wasm-engine}/engine
readonly DEPTH=${2:-}
[[ -f $ENGINE_DIR/axon-st.wasm ]] || { echo "no $ENGINE_DIR (run scripts/build-wasm-engine.sh)" >&2; exit 2; }

nativeBench() { "$AXON" bench $DEPTH | tail -1; }
wasmBench() { node --no-experimental-fetch bench/lib/wasm-bench.cjs "$ENGINE_DIR" "$1" $DEPTH; }

native1=$(nativeBench)
st=$(wasmBench st)
mt=$(wasmBench mt)
native2=$(nativeBench)

field() { echo "$1" | awk -v n="$2" '{print $n}'; }
nativeNps=$(( ($(field "$native1" 3) + $(field "$native2" 3)) / 2 ))
echo "machine: $(nproc) cores, $(uptime | sed 's/.*load average/load average/')"
echo "native ($AXON):  $native1"
echo "native again:   $native2"
echo "wasm st (node): $st"
echo "wasm mt (node): $mt"
for build in st mt; do
    line=$st
    [[ $build == mt ]] && line=$mt
    [[ $(field "$line" 1) == $(field "$native1" 1) ]] || echo "WARNING: $build bench nodes differ from native"
    awk -v w="$(field "$line" 3)" -v n="$nativeNps" -v b="$build" -v m="$(field "$line" 6)" \
        'BEGIN { printf "%s: %.0f nps = %.1f%% of native single-thread (%d nps); memory %.1f MiB\n", b, w, 100 * w / n, n, m / 1048576 }'
done

echo "download sizes (bytes, raw / gzip -9):"
total() { # total FILE...: raw and gzip sums
    local raw=0 gz=0 f
    for f in "$@"; do
        raw=$((raw + $(stat -c %s "$f")))
        gz=$((gz + $(gzip -9 -c "$f" | wc -c)))
    done
    echo "$raw / $gz"
}
for f in axon-st.js axon-st.wasm axon-mt.js axon-mt.wasm axon-mt.worker.js axon-engine-worker.js; do
    printf '  %-22s %s\n' "$f" "$(total "$ENGINE_DIR/$f")"
done
cd "$ENGINE_DIR"
printf '  %-22s %s\n' "st (worker+js+wasm)" "$(total axon-engine-worker.js axon-st.js axon-st.wasm)"
printf '  %-22s %s\n' "mt (worker+js+wasm)" "$(total axon-engine-worker.js axon-mt.js axon-mt.wasm axon-mt.worker.js)"

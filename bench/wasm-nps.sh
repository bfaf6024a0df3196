#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The in-browser engine's speed against the native engine's, in one run: ROUNDS times in turn,
# `bench [DEPTH]` (one thread, 16 MiB hash) natively and in the st and mt WebAssembly builds under
# node. Prints each run, then per build the nps ratio to native two ways: by wall clock (the
# engines' own nps) and by CPU time (nodes per CPU second of the process during bench), which on
# a shared machine measures the speed rather than the share of a core. Then the module's memory
# and the download sizes (raw and gzip -9). Browser figures: docs/wasm-engine.md.
#
# Usage: bench/wasm-nps.sh [BUILD_DIR] [DEPTH]      (defaults: build-wasm-engine, bench's 13)
# Environment: AXON (native engine; else ./axon, build-release/axon or build/axon), ROUNDS (3).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source bench/lib/find-axon.sh
readonly ENGINE_DIR=${1:-build-wasm-engine}/engine
readonly DEPTH=${2:-}
readonly ROUNDS=${ROUNDS:-3}
[[ -f $ENGINE_DIR/axon-st.wasm ]] || { echo "no $ENGINE_DIR (run scripts/build-wasm-engine.sh)" >&2; exit 2; }

# Native: "NODES nodes NPS nps cpu MS" (CPU time of the whole process: start-up is negligible).
nativeBench() {
    local out
    TIMEFORMAT='%U %S'
    { time "$AXON" bench $DEPTH >"$tmp" 2>/dev/null; } 2>"$tmp.time"
    out=$(tail -1 "$tmp")
    echo "$out cpu $(awk '{ printf "%d", ($1 + $2) * 1000 }' "$tmp.time")"
}
# WebAssembly: "NODES nodes NPS nps memory SEARCH_BYTES BENCH_BYTES cpu MS".
wasmBench() { node --no-experimental-fetch bench/lib/wasm-bench.cjs "$ENGINE_DIR" "$1" $DEPTH; }

tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.time"' EXIT
echo "machine: $(nproc) cores, $(uptime | sed 's/.*load average/load average/')"
results=()
for ((round = 1; round <= ROUNDS; ++round)); do
    for build in native st mt; do
        if [[ $build == native ]]; then line=$(nativeBench); else line=$(wasmBench "$build"); fi
        printf 'round %d %-7s %s\n' "$round" "$build" "$line"
        results+=("$build $line")
    done
done
echo "(native: $AXON)"

# Sums over the rounds: wall seconds from nodes/nps, CPU from the measured milliseconds.
printf '%s\n' "${results[@]}" | awk '
    { build = $1; nodes[build] += $2; wall[build] += $2 / $4; cpu[build] += $NF / 1000; sig[build] = $2
      if (build != "native") { mem[build] = $7; benchMem[build] = $8 } }
    END {
        nw = nodes["native"] / wall["native"]; nc = nodes["native"] / cpu["native"]
        printf "native: %.0f nps wall, %.0f nps per CPU second\n", nw, nc
        for (b in mem) {
            w = nodes[b] / wall[b]; c = nodes[b] / cpu[b]
            printf "%s: %.0f nps wall = %.1f%% of native; %.0f nps per CPU second = %.1f%% of native%s\n",
                b, w, 100 * w / nw, c, 100 * c / nc, sig[b] == sig["native"] ? "" : "  (NODE COUNT DIFFERS)"
            printf "%s: wasm memory %.1f MiB after a first search, %.1f MiB after bench\n", b, mem[b] / 1048576,
                benchMem[b] / 1048576
        }
    }'

echo "download sizes in bytes (raw / gzip -9):"
total() { # total FILE...: raw and gzip sums
    local raw=0 gz=0 f
    for f in "$@"; do
        raw=$((raw + $(stat -c %s "$f")))
        gz=$((gz + $(gzip -9 -c "$f" | wc -c)))
    done
    echo "$raw / $gz"
}
cd "$ENGINE_DIR"
for f in axon-engine-worker.js axon-st.js axon-st.wasm axon-mt.js axon-mt.wasm axon-mt.worker.js; do
    printf '  %-22s %s\n' "$f" "$(total "$f")"
done
printf '  %-22s %s\n' "st: worker+js+wasm" "$(total axon-engine-worker.js axon-st.js axon-st.wasm)"
printf '  %-22s %s\n' "mt: worker+js+wasm" "$(total axon-engine-worker.js axon-mt.js axon-mt.wasm axon-mt.worker.js)"

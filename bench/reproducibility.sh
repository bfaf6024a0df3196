#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Determinism check: `ucinewgame` + `go nodes N` on every bench position, twice, one thread.
# Both runs must give the same best move, score and node count for every position.
#
# Usage: bench/reproducibility.sh [NODES]      Environment: AXON (binary, default ./axon or
#        build-release/axon)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly NODES=${1:-50000}
source bench/lib/find-axon.sh

# The bench positions, taken from the binary itself (`bench` prints one line per position),
# so this script never goes stale: re-derive them from the source list.
mapfile -t fens < <(sed -n '/static const std::vector<std::string> positions = {/,/};/p' \
    src/engine/bench.cpp | grep -o '"[^"]*"' | tr -d '"')

# One run: for each position the final "info ... score ... nodes ..." and "bestmove" lines.
run() {
    {
        echo "uci"
        for fen in "${fens[@]}"; do
            echo "ucinewgame"
            echo "position fen $fen"
            echo "go nodes $NODES"
        done
        # No quit: at end of input the engine lets the last bounded search finish.
    } | "$AXON" | awk '/^info depth/ { last = $0 } /^bestmove/ {
            match(last, /score (cp|mate) -?[0-9]+/); score = substr(last, RSTART, RLENGTH)
            match(last, / nodes [0-9]+/); nodes = substr(last, RSTART + 1, RLENGTH - 1)
            print $2, score, nodes }'
}

first=$(run)
second=$(run)
count=$(wc -l <<<"$first")
if [[ $first != "$second" ]]; then
    echo "NOT reproducible:"
    diff <(echo "$first") <(echo "$second") || true
    exit 1
fi
echo "reproducible: $count positions, go nodes $NODES, identical best move, score and nodes twice"

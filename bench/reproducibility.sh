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

fail() {
    echo "reproducibility: $*" >&2
    exit 1
}

# The bench positions, read from the source's list (src/engine/bench.cpp).
mapfile -t fens < <(sed -n '/static const std::vector<std::string> positions = {/,/};/p' \
    src/engine/bench.cpp | grep -o '"[^"]*"' | tr -d '"')
((${#fens[@]} > 0)) || fail "no bench positions found in src/engine/bench.cpp"

# run LIMIT: `ucinewgame`, the position and `go LIMIT` for each position; prints, for each, the
# best move and the last iteration's score and node count.
run() {
    {
        echo "uci"
        for fen in "${fens[@]}"; do
            echo "ucinewgame"
            echo "position fen $fen"
            echo "go $1"
        done
        # No quit: at end of input the engine lets the last bounded search finish.
    } | "$AXON" | awk '/^info depth/ { last = $0 } /^bestmove/ {
            match(last, /score (cp|mate) -?[0-9]+/); score = substr(last, RSTART, RLENGTH)
            match(last, / nodes [0-9]+/); nodes = substr(last, RSTART + 1, RLENGTH - 1)
            print $2, score, nodes }'
}

# The list must be the binary's own, in its order: `bench 1` prints each position's best move
# and nodes at depth 1 (a cleared hash each, as ucinewgame gives), which `go depth 1` on the list
# repeats line for line. A list that sed no longer finds, or that is out of date, fails here
# instead of two empty runs comparing equal.
bench=$("$AXON" bench 1 | awk '/^position / { print $4, $8 }')
listed=$(run "depth 1" | awk '{ print $1, $NF }')
if [[ $listed != "$bench" ]]; then
    echo "the ${#fens[@]} positions of src/engine/bench.cpp are not the binary's $(grep -c . <<<"$bench") bench positions:"
    diff <(echo "$bench") <(echo "$listed") | head -n 20 || true
    exit 1
fi

first=$(run "nodes $NODES")
second=$(run "nodes $NODES")
if [[ $first != "$second" ]]; then
    echo "NOT reproducible:"
    diff <(echo "$first") <(echo "$second") || true
    exit 1
fi
# Every search answered with a move, a score and a node count.
complete=$(grep -cE '^[a-h][1-8][a-h][1-8][qrbn]? score (cp|mate) -?[0-9]+ nodes [0-9]+$' <<<"$first" || true)
[[ $complete == "${#fens[@]}" ]] ||
    fail "$complete of ${#fens[@]} searches gave a best move, score and nodes: $(head -n 3 <<<"$first")"
echo "reproducible: ${#fens[@]} positions, go nodes $NODES, identical best move, score and nodes twice"

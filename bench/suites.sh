#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Test-suite strength, Axon against Stockfish (Debian's package), measured the same way: the same
# `axon epd` / `axon puzzles` driver, the same limits, one thread and 16 MB hash each, a new game
# per position. Runs WAC (300 positions) at fixed nodes and at 1 s per move, Bratko-Kopec, and
# 500 evenly spaced puzzles of the Lichess sample (sorted by rating, so every band), and prints
# a Markdown table (docs/test-suites.md holds one measured with this script).
#
# Usage: bench/suites.sh [--quick] [--no-movetime]
#   --quick        the first 50 WAC positions and 100 evenly spaced puzzles only
#   --no-movetime  skip the 1 s/move WAC run (300 s of search per engine)
# Environment: AXON (binary; default ./axon, else build/axon), STOCKFISH (/usr/games/stockfish),
# NODES (100000), MOVETIME (1000 ms), CONCURRENCY (2), AXON_SHARED_DATA (../shared/data).
set -euo pipefail
shopt -s inherit_errexit

cd "$(dirname "${BASH_SOURCE[0]}")/.."
quick=0
movetime=1
for arg in "$@"; do
    case $arg in
    --quick) quick=1 ;;
    --no-movetime) movetime=0 ;;
    *) echo "usage: bench/suites.sh [--quick] [--no-movetime]" >&2; exit 2 ;;
    esac
done
readonly NODES=${NODES:-100000} MOVETIME=${MOVETIME:-1000} CONCURRENCY=${CONCURRENCY:-2}
readonly DATA=${AXON_SHARED_DATA:-../shared/data}
axon=${AXON:-}
[[ -z $axon && -x ./axon ]] && axon=./axon
[[ -z $axon && -x build/axon ]] && axon=build/axon
[[ -n $axon && -x $axon ]] || { echo "suites.sh: no axon binary (build it or set AXON)" >&2; exit 1; }
axon=$(realpath "$axon")
readonly STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
[[ -x $STOCKFISH ]] || { echo "suites.sh: no $STOCKFISH (apt-get install stockfish)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log() { echo "suites.sh: $*" >&2; }

limit=()
puzzles=500
((quick)) && limit=(--limit 50) && puzzles=100
# Evenly spaced puzzles: the sample is sorted by rating, so this keeps every band.
csv=$DATA/puzzles/lichess_puzzles_dev.csv
stride=$((($(wc -l <"$csv") - 1) / puzzles))
awk -v s="$stride" -v n="$puzzles" 'NR == 1 || ((NR - 2) % s == 0 && ++k <= n)' "$csv" >"$work/puzzles.csv"

engines=(
    "axon|cmd=$axon name=Axon option.Hash=16 option.Threads=1"
    "stockfish|cmd=$STOCKFISH name=Stockfish option.Hash=16 option.Threads=1"
)
rows=()
# run LABEL SUBCOMMAND FILE ARGS...: one table row, both engines.
run() {
    local label=$1 cmd=$2 file=$3
    shift 3
    local row="| $label |"
    for e in "${engines[@]}"; do
        local key=${e%%|*} spec
        read -ra spec <<<"${e#*|}"
        log "$label: $key"
        "$axon" "$cmd" "$file" --engine "${spec[@]}" --concurrency "$CONCURRENCY" "$@" \
            >"$work/$key.txt" 2>"$work/$key.err" || { cat "$work/$key.err" >&2; exit 1; }
        local solved points time
        solved=$(sed -n 's/^Solved: \([0-9]*\/[0-9]* ([0-9.]*%)\).*/\1/p' "$work/$key.txt")
        time=$(sed -n 's/.*time: \([0-9.]*\) s$/\1/p' "$work/$key.txt")
        points=-
        [[ $cmd == puzzles ]] &&
            points=$(sed -n 's/.*first move agreement: [0-9]*\/[0-9]* (\([0-9.]*%\))$/\1/p' "$work/$key.txt")
        row+=" $solved | $points | $time s |"
        cp "$work/$key.txt" "$work/$key-$label.txt"
    done
    rows+=("$row")
    echo "$row" >&2
}

run "WAC, nodes=$NODES" epd "$DATA/epd/wac.epd" --nodes "$NODES" "${limit[@]}"
run "Bratko-Kopec, nodes=$NODES" epd "$DATA/epd/bratko-kopec.epd" --nodes "$NODES"
run "Lichess puzzles ($puzzles), nodes=$NODES" puzzles "$work/puzzles.csv" --nodes "$NODES"
((movetime)) && run "WAC, movetime=$MOVETIME ms" epd "$DATA/epd/wac.epd" --movetime "$MOVETIME" "${limit[@]}"

echo "Axon: $axon; Stockfish: $("$STOCKFISH" <<<quit | head -1); concurrency $CONCURRENCY"
echo
echo "| suite, limit | Axon solved | Axon first move | Axon time | Stockfish solved | Stockfish first move | Stockfish time |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
for key in axon stockfish; do
    echo "Puzzles, $key:"
    sed -n '/^By rating:/,$p' "$work/$key-Lichess puzzles ($puzzles), nodes=$NODES.txt" | head -25
done

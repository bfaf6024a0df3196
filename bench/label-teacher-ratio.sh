#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `axon label` with Axon as the teacher: the default in-process teacher against the same binary
# as a UCI teacher process (--engine cmd=AXON), in one run on the same positions, rounds
# alternated so machine load hits both alike. Prints each run's CPU seconds (user + system, the
# teacher processes included), positions per CPU second, the mean ratio of in-process CPU to
# UCI CPU, and whether both wrote the same labels (they must: the same search, only the way to
# it differs).
# Usage: bench/label-teacher-ratio.sh AXON [rounds] [nodes] [positions]
#   positions: made first by `AXON datagen` (40 soft nodes, seed 99, keep-noisy)
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 AXON [rounds] [nodes] [positions]" >&2; exit 2; }
A=$(realpath "$1")
readonly A ROUNDS=${2:-2} NODES=${3:-300} POSITIONS=${4:-25000}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$A" datagen --out "$work/gen" --threads 1 --positions "$POSITIONS" --seed 99 --soft-nodes 40 \
    --keep-noisy --chunk-positions "$POSITIONS" >/dev/null 2>&1
inputs=("$work"/gen/*.bin)
input=${inputs[0]}
count=$("$A" data stats "$input" | awk '/^records/ {print $2}')

# CPU seconds of one labelling into $work/$1.bin; the rest: extra options.
label() {
    local out=$1
    shift
    rm -rf "$work/$out.bin" "$work/$out.bin.parts"
    /usr/bin/time -f '%U %S' -o "$work/time" "$A" label --in "$input" --out "$work/$out.bin" \
        --nodes "$NODES" --jobs 1 "$@" >/dev/null 2>&1
    awk '{ printf "%.2f", $1 + $2 }' "$work/time"
}

echo "label-teacher-ratio: $count positions, $NODES nodes each, one teacher, $ROUNDS rounds"
ratios=()
for ((r = 1; r <= ROUNDS; ++r)); do
    uci=$(label uci --engine "cmd=$A")
    own=$(label own)
    cmp -s "$work/uci.bin" "$work/own.bin" || { echo "round $r: the labels differ" >&2; exit 1; }
    ratio=$(awk -v a="$own" -v b="$uci" 'BEGIN { printf "%.3f", a / b }')
    ratios+=("$ratio")
    awk -v r="$r" -v u="$uci" -v o="$own" -v n="$count" -v q="$ratio" 'BEGIN {
        printf "round %d: UCI process %.2f CPU-s (%.0f pos/CPU-s), in process %.2f CPU-s (%.0f pos/CPU-s), ratio %s\n",
            r, u, n / u, o, n / o, q }'
done
printf '%s\n' "${ratios[@]}" | awk '{ s += $1 } END { printf "mean CPU ratio (in process / UCI): %.3f; labels identical in every round\n", s / NR }'

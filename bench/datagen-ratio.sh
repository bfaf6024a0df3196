#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Datagen speed of one axon binary (or setting) against another, in one run: the same self-play
# (one thread, the grow loop's settings: keep-noisy, 40 soft nodes unless told otherwise) from
# the same seed, rounds alternated so machine load hits both alike. Prints each run's CPU seconds
# (user + system), positions per CPU second, the mean ratio of B's CPU to A's, and whether both
# wrote the same chunks (a change meant as pure speed must write them byte for byte; a setting
# that changes the search will not).
# Usage: bench/datagen-ratio.sh AXON_A AXON_B [rounds] [positions]
#   SOFT_NODES (40), SEED (99), HASH (8; HASH_A, HASH_B for one side: the same binary twice with
#   HASH_B=1 measures a smaller table); ARGS_A / ARGS_B: extra datagen options for one side
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 AXON_A AXON_B [rounds] [positions]" >&2; exit 2; }
readonly A=$1 B=$2 ROUNDS=${3:-3} POSITIONS=${4:-150000}
readonly SOFT_NODES=${SOFT_NODES:-40} SEED=${SEED:-99} HASH=${HASH:-8}
readonly HASH_A=${HASH_A:-$HASH} HASH_B=${HASH_B:-$HASH}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# CPU seconds of one datagen run into $work/$2; $3: hash MiB, $4: extra options.
generate() {
    rm -rf "${work:?}/$2"
    # shellcheck disable=SC2086 # the extra options are words
    /usr/bin/time -f '%U %S' -o "$work/time" "$1" datagen --out "$work/$2" --threads 1 \
        --positions "$POSITIONS" --seed "$SEED" --soft-nodes "$SOFT_NODES" --keep-noisy \
        --hash "$3" --chunk-positions 25000 $4 >/dev/null 2>&1
    awk '{ printf "%.2f", $1 + $2 }' "$work/time"
}

a_total=0
b_total=0
for ((r = 1; r <= ROUNDS; ++r)); do
    a=$(generate "$A" a "$HASH_A" "${ARGS_A:-}")
    b=$(generate "$B" b "$HASH_B" "${ARGS_B:-}")
    echo "round $r: A $a CPU s, B $b CPU s"
    a_total=$(awk -v x="$a_total" -v y="$a" 'BEGIN { print x + y }')
    b_total=$(awk -v x="$b_total" -v y="$b" 'BEGIN { print x + y }')
done
echo "positions: $POSITIONS at $SOFT_NODES soft nodes, hash A $HASH_A MiB, B $HASH_B MiB; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v a="$a_total" -v b="$b_total" -v r="$ROUNDS" -v n="$POSITIONS" 'BEGIN {
    printf "mean: A %.2f CPU s (%.0f positions/CPU s), B %.2f CPU s (%.0f positions/CPU s), B/A %.3f\n",
        a / r, n * r / a, b / r, n * r / b, b / a }'
same=identical
for f in "$work"/a/*.bin; do
    cmp -s "$f" "$work/b/$(basename "$f")" || same=different
done
echo "chunks: $same"

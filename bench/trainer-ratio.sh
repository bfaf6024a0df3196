#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Training speed of one axon binary against another, in one run: the same short training (the
# loop's 256-unit shape: 4 mirrored king buckets, 8 output buckets, batch 16384) on the same
# data, rounds alternated so machine load hits both alike. Prints each run's CPU seconds
# (user + system: on a shared machine they move less than wall time), the mean ratio B/A, and
# whether both wrote the same network (a change meant as pure speed must write it byte for byte).
# Usage: bench/trainer-ratio.sh AXON_A AXON_B [rounds] [threads] [DATA...]
#   (default data: 1,000,000 synthetic positions; superbatches of 500,000, two of them)
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 AXON_A AXON_B [rounds] [threads] [DATA...]" >&2; exit 2; }
readonly A=$1 B=$2 ROUNDS=${3:-3} THREADS=${4:-1}
shift $(($# < 4 ? $# : 4))
readonly MAP=0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,$(printf '2,%.0s' {1..16})$(printf '3,%.0s' {1..31})3

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data=("$@")
if [[ ${#data[@]} -eq 0 ]]; then
    "$A" train-synth "$work/synth.axd" --positions 1000000 --seed 1 >/dev/null
    data=("$work/synth.axd")
fi

# CPU seconds of one training into $work/$2.
train() {
    rm -rf "${work:?}/$2"
    /usr/bin/time -f '%U %S' -o "$work/time" "$1" train --data "${data[@]}" --out "$work/$2" \
        --hidden 256 --mirror --input-buckets 4 --bucket-map "$MAP" --output-buckets 8 \
        --threads "$THREADS" --batch 16384 --superbatches 2 --superbatch-positions 500000 \
        --wdl 0.2 --seed 1 --quiet >/dev/null 2>&1
    awk '{ printf "%.2f", $1 + $2 }' "$work/time"
}

a_total=0
b_total=0
for ((r = 1; r <= ROUNDS; ++r)); do
    a=$(train "$A" a)
    b=$(train "$B" b)
    echo "round $r: A $a CPU s, B $b CPU s"
    a_total=$(awk -v x="$a_total" -v y="$a" 'BEGIN { print x + y }')
    b_total=$(awk -v x="$b_total" -v y="$b" 'BEGIN { print x + y }')
done
echo "threads: $THREADS; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v a="$a_total" -v b="$b_total" -v r="$ROUNDS" 'BEGIN {
    printf "mean: A %.2f CPU s, B %.2f CPU s, B/A %.3f\n", a / r, b / r, b / a }'
if cmp -s "$work/a/final.nnue" "$work/b/final.nnue"; then
    echo "networks: identical"
else
    echo "networks: different"
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Search speed of one network against another, in one run: `axon bench` nps with each network
# file, rounds alternated so machine load hits both alike, and the ratio. The ratio is the node
# odds of an equal-time screen at fixed nodes (a slower architecture plays ratio x N nodes against
# N): docs/nets.md's layer-stack comparisons use it. The node counts differ between networks
# (other evaluations, other trees); nps is what counts.
# Usage: bench/nps-ratio.sh NET_A NET_B [rounds] [depth]   (AXON=path/to/axon, default build/axon)
set -euo pipefail
readonly AXON=${AXON:-build/axon}
[[ $# -ge 2 ]] || { echo "usage: $0 NET_A NET_B [rounds] [depth]" >&2; exit 2; }
readonly A=$1 B=$2 ROUNDS=${3:-3} DEPTH=${4:-13}
nps() { "$AXON" bench "$DEPTH" --eval-file "$1" | tail -1 | awk '{print $3}'; }
a_total=0
b_total=0
for ((r = 1; r <= ROUNDS; ++r)); do
    a=$(nps "$A")
    b=$(nps "$B")
    echo "round $r: A $a nps, B $b nps"
    a_total=$((a_total + a))
    b_total=$((b_total + b))
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v a="$a_total" -v b="$b_total" -v r="$ROUNDS" 'BEGIN {
    printf "mean: A %.0f nps, B %.0f nps, A/B %.3f\n", a / r, b / r, a / b }'

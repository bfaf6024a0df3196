#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What the network costs the search: `axon bench` nps with the embedded network against the
# hand-written evaluation, in one run, rounds alternated so machine load hits both alike.
# Usage: bench/eval-cost.sh [rounds] [depth]   (AXON=path/to/axon, default build/axon)
set -euo pipefail
readonly AXON=${AXON:-build/axon}
readonly ROUNDS=${1:-3}
readonly DEPTH=${2:-11}
nps() { "$AXON" bench "$DEPTH" --eval-file "$1" | tail -1 | awk '{print $3}'; }
net_total=0
pst_total=0
for ((r = 1; r <= ROUNDS; ++r)); do
    net=$(nps '<embedded>')
    pst=$(nps '<pst>')
    echo "round $r: network $net nps, hand-written $pst nps"
    net_total=$((net_total + net))
    pst_total=$((pst_total + pst))
done
awk -v n="$net_total" -v p="$pst_total" -v r="$ROUNDS" 'BEGIN {
    printf "mean: network %.0f nps, hand-written %.0f nps, network/hand-written %.2f\n",
        n / r, p / r, n / p }'

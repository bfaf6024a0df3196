#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The cost of the analysis heat map (`eval pieces`, docs/eval-pieces.md): microseconds per
# position for every piece's contribution, as the engine computes them (one accumulator refresh,
# then a row subtraction and an output layer per piece) and with a full evaluation of each board
# for comparison, one thread, over the positions of random lines from the bench positions
# (`axon net bench --pieces`, best of 5 alternating rounds). The embedded network's file first,
# then a random network four times as wide.
# Usage: bench/eval-pieces.sh [seconds-per-mode]   (AXON=path/to/axon, default build/axon)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly AXON=${AXON:-build/axon}
readonly SECONDS_PER_MODE=${1:-2}
echo "== nets/default.nnue"
"$AXON" net bench nets/default.nnue --pieces --seconds "$SECONDS_PER_MODE" | grep -E "^(network|pieces)"
echo "== random --hidden 1024 --input-buckets 16 --mirror --output-buckets 8"
"$AXON" net bench --hidden 1024 --input-buckets 16 --mirror --output-buckets 8 --pieces \
    --seconds "$SECONDS_PER_MODE" | grep -E "^(network|pieces)"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Network evaluation speed, one thread: evaluations per second with incremental accumulators
# against a full refresh per evaluation, for random networks of the sizes the format targets;
# the first run also measures the float models (docs/float-nets.md): the dense MLP
# 902 -> 451 -> 32 -> 32 -> 1 and a small CNN, each against the incremental H=256 network.
# Usage: bench/nn-eval.sh [seconds-per-mode]   (AXON=path/to/axon, default build/axon)
set -euo pipefail
readonly AXON=${AXON:-build/axon}
readonly SECONDS_PER_MODE=${1:-1}
for args in "--hidden 256 --float" "--hidden 512" "--hidden 1024" \
    "--hidden 1024 --input-buckets 16 --mirror --output-buckets 8"; do
    echo "== $args"
    # shellcheck disable=SC2086
    "$AXON" net bench $args --seconds "$SECONDS_PER_MODE"
done

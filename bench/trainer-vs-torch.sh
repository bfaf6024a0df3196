#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Training speed, Axon's trainer against PyTorch (scripts/torch_train.py), on the same data: one
# epoch of the perspective network (768 -> 256) x 2 -> 1, batch 16384, the same whole batches
# (the last partial batch is dropped by both), per thread count. Prints positions per second of
# wall time (each trainer's own figure for its training loop, data loading and decoding
# included, start-up and validation not) and per CPU second (PyTorch: the epoch's process time;
# Axon: the whole run's user + system time, start-up included, so its figure is a lower bound),
# and Axon / PyTorch for both. On a shared machine trust the CPU-second figures more.
# Usage: bench/trainer-vs-torch.sh [DATA_FILE] [THREADS...]   (default: 500000 synthetic
#   positions, 1 thread; AXON=path/to/axon (build/axon), PYTHON=a python3 with torch)
set -euo pipefail
readonly AXON=${AXON:-build/axon}
readonly ROOT=$(cd "$(dirname "$0")/.." && pwd)
readonly BATCH=16384 HIDDEN=256

python=""
for candidate in ${PYTHON:-} python3 /usr/bin/python3; do
    if "$candidate" -c "import torch, numpy" 2>/dev/null; then python=$candidate; break; fi
done
[[ -n $python ]] || { echo "no python3 with torch and numpy (apt-get install python3-torch)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data=${1:-}
if [[ -z $data ]]; then
    data=$work/synth.axd
    "$AXON" train-synth "$data" --positions 500000 --seed 1 >/dev/null
fi
shift $(($# > 0 ? 1 : 0))
threadCounts=("${@:-1}")
# Validation runs after the timed loop; a tiny separate file keeps every record in training.
"$AXON" train-synth "$work/val.axd" --positions 1000 --seed 99 >/dev/null

records=$((($(stat -c %s "$data") - 32) / 32))
positions=$((records / BATCH * BATCH))
((positions > 0)) || { echo "$data holds fewer than $BATCH records" >&2; exit 1; }
echo "data: $data, $records records; one epoch = $positions positions, H=$HIDDEN, batch $BATCH"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %14s %14s %14s %14s %8s %8s\n' threads torch_pos/s torch_pos/cpu-s \
    axon_pos/s axon_pos/cpu-s ratio ratio_cpu

for threads in "${threadCounts[@]}"; do
    line=$("$python" "$ROOT/scripts/torch_train.py" "$data" --model perspective \
        --hidden "$HIDDEN" --batch "$BATCH" --epochs 1 --val-fraction 0 --threads "$threads" |
        grep '^epoch 1/1')
    # "epoch 1/1: N positions in S s = R pos/s (CPU C s), ..."
    read -r torchRate torchCpu < <(sed -E 's/.* = ([0-9]+) pos\/s \(CPU ([0-9.]+) s\).*/\1 \2/' \
        <<<"$line")
    torchCpuRate=$(awk -v p="$positions" -v c="$torchCpu" 'BEGIN { printf "%.0f", p / c }')

    out=$work/axon-$threads
    /usr/bin/time -f '%U %S' -o "$work/time" "$AXON" train --data "$data" --val "$work/val.axd" \
        --val-positions 1000 --out "$out" --hidden "$HIDDEN" --threads "$threads" \
        --batch "$BATCH" --superbatch-positions "$positions" --superbatches 1 --quiet \
        2>"$work/axon.err" || { cat "$work/axon.err" >&2; exit 1; }
    axonRate=$(tail -n 1 "$out/history.csv" | cut -d, -f7 | cut -d. -f1)
    axonCpuRate=$(awk -v p="$positions" '{ printf "%.0f", p / ($1 + $2) }' "$work/time")
    printf '%-8s %14s %14s %14s %14s %8s %8s\n' "$threads" "$torchRate" "$torchCpuRate" \
        "$axonRate" "$axonCpuRate" \
        "$(awk -v a="$axonRate" -v t="$torchRate" 'BEGIN { printf "%.1fx", a / t }')" \
        "$(awk -v a="$axonCpuRate" -v t="$torchCpuRate" 'BEGIN { printf "%.1fx", a / t }')"
done

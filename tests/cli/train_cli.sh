#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `axon train`: bad arguments are refused with a message naming the problem; a tiny run writes
# the network, checkpoint, history CSV and loss plot; --resume continues it; the linear model
# writes its PST table; --init starts from a network and takes its shape.
set -euo pipefail
axon=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "train_cli: $*"; exit 1; }

"$axon" train-synth "$dir/data.axd" --positions 3000 --seed 3 || fail "train-synth failed"
[ -s "$dir/data.axd" ] || fail "no data written"

expect_error() { # expected-message args...
    local want=$1; shift
    local out
    if out=$("$axon" train "$@" 2>&1); then fail "accepted: $*"; fi
    grep -qi -- "$want" <<<"$out" || fail "for '$*' expected '$want', got: $out"
}
expect_error "hidden size" --data "$dir/data.axd" --out "$dir/o1" --hidden 33
expect_error "cannot" --data "$dir/missing.axd" --out "$dir/o1"
expect_error "wdl" --data "$dir/data.axd" --out "$dir/o1" --wdl 1.5
expect_error "bucket map" --data "$dir/data.axd" --out "$dir/o1" --input-buckets 2 --bucket-map 0,1
expect_error "lr-schedule" --data "$dir/data.axd" --out "$dir/o1" --lr-schedule linear
expect_error "--out" --data "$dir/data.axd"

common=(--data "$dir/data.axd" --hidden 32 --threads 2 --batch 256 --superbatch-positions 2560
        --superbatches 3 --lr 0.01 --val-fraction 0.1 --seed 5 --quiet)
"$axon" train "${common[@]}" --out "$dir/run" --stop-after 2 --mirror --output-buckets 4 \
    || fail "training failed"
for f in net-sb0001.nnue net-sb0002.nnue checkpoint.bin history.csv loss.svg; do
    [ -s "$dir/run/$f" ] || fail "missing $f"
done
[ ! -e "$dir/run/final.nnue" ] || fail "final.nnue written before the last superbatch"
head -1 "$dir/run/history.csv" | grep -q "^superbatch,positions,train_loss,val_loss,lr" ||
    fail "history header: $(head -1 "$dir/run/history.csv")"
[ "$(wc -l <"$dir/run/history.csv")" -eq 3 ] || fail "history rows"
grep -q "<svg" "$dir/run/loss.svg" && grep -q "polyline" "$dir/run/loss.svg" || fail "plot"
"$axon" net info "$dir/run/net-sb0002.nnue" | grep -q "^valid  *yes$" || fail "net info"

expect_error "--resume" "${common[@]}" --out "$dir/run" --mirror --output-buckets 4
expect_error "architecture" "${common[@]}" --out "$dir/run" --resume --output-buckets 4
"$axon" train "${common[@]}" --out "$dir/run" --resume --mirror --output-buckets 4 ||
    fail "resume failed"
[ -s "$dir/run/final.nnue" ] || fail "no final.nnue after resume"
[ "$(wc -l <"$dir/run/history.csv")" -eq 4 ] || fail "history rows after resume"
# Killed after its last checkpoint, before the final network: --resume writes it, unchanged.
mv "$dir/run/final.nnue" "$dir/final-before.nnue"
"$axon" train "${common[@]}" --out "$dir/run" --resume --mirror --output-buckets 4 ||
    fail "resume of a finished run failed"
cmp -s "$dir/run/final.nnue" "$dir/final-before.nnue" || fail "final.nnue differs when rewritten"
shorter=("${common[@]}")
shorter[11]=2 # --superbatches 2: the checkpoint has done 3
expect_error "past this run's end" "${shorter[@]}" --out "$dir/run" --resume --mirror \
    --output-buckets 4

# --init: the run takes the starting network's shape (hidden 32, mirrored, 4 output buckets)
# unless the command line gives one, which must then match.
init=(--data "$dir/data.axd" --threads 2 --batch 256 --superbatch-positions 2560 --superbatches 1
      --lr 0.001 --val-fraction 0.1 --seed 5 --quiet --init "$dir/run/final.nnue")
"$axon" train "${init[@]}" --out "$dir/init" || fail "training from --init failed"
"$axon" net info "$dir/init/final.nnue" | grep -q "^valid  *yes$" || fail "net info after --init"
"$axon" net info "$dir/init/final.nnue" | grep -q "^mirroring  *by king file" ||
    fail "--init did not keep the shape: $("$axon" net info "$dir/init/final.nnue")"
expect_error "another architecture" "${init[@]}" --out "$dir/init2" --hidden 32 --output-buckets 4
"$axon" train "${init[@]}" --out "$dir/init3" --hidden 32 --mirror --output-buckets 4 ||
    fail "--init with its own shape repeated failed"
expect_error "missing.nnue" --data "$dir/data.axd" --out "$dir/init4" --init "$dir/missing.nnue"

"$axon" train "${common[@]}" --out "$dir/lin" --arch linear || fail "linear training failed"
grep -q "^own,queen,8," "$dir/lin/final-pst.csv" || fail "pst table: $(head -3 "$dir/lin/final-pst.csv")"
echo "train: errors, outputs, resume, linear ok"

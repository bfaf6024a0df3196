#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `axon net`: a random network is written reproducibly, `info` accepts it and refuses a cut or
# damaged copy with a message and exit status 1, `export` then `import` through safetensors gives
# the identical file and a damaged safetensors file is refused, and `bench` prints the speeds
# and ratios (float models included with --float, the heat map's piece contributions with
# --pieces).
set -euo pipefail
axon=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "net_cli: $*"; exit 1; }

"$axon" net random "$dir/a.nnue" --hidden 64 --input-buckets 4 --mirror --output-buckets 8 --seed 5
"$axon" net random "$dir/b.nnue" --hidden 64 --input-buckets 4 --mirror --output-buckets 8 --seed 5
cmp -s "$dir/a.nnue" "$dir/b.nnue" || fail "same seed, different files"
info=$("$axon" net info "$dir/a.nnue") || fail "info refused a good file: $info"
grep -q "^valid  *yes$" <<<"$info" || fail "info: $info"
grep -q "(3072 -> 64) x2 -> 1" <<<"$info" || fail "info architecture: $info"

head -c 1000 "$dir/a.nnue" >"$dir/cut.nnue"
if out=$("$axon" net info "$dir/cut.nnue" 2>&1); then fail "a truncated file was accepted"; fi
grep -q "truncated" <<<"$out" || fail "no truncation message: $out"
cp "$dir/a.nnue" "$dir/bad.nnue"
printf 'X' | dd of="$dir/bad.nnue" bs=1 seek=2000 conv=notrunc status=none
if out=$("$axon" net info "$dir/bad.nnue" 2>&1); then fail "a damaged file was accepted"; fi
grep -q "hash mismatch" <<<"$out" || fail "no hash message: $out"

"$axon" net export "$dir/a.nnue" --safetensors "$dir/a.safetensors" >/dev/null
"$axon" net import "$dir/a.safetensors" --out "$dir/c.nnue" >/dev/null
cmp -s "$dir/a.nnue" "$dir/c.nnue" || fail "export then import changed the network file"
[[ ! -e "$dir/c.nnue.tmp" ]] || fail "import left its temporary file"
head -c 5000 "$dir/a.safetensors" >"$dir/cut.safetensors"
if out=$("$axon" net import "$dir/cut.safetensors" --out "$dir/d.nnue" 2>&1); then
    fail "a truncated safetensors file was imported"
fi
grep -q "truncated" <<<"$out" || fail "no truncation message: $out"
[[ ! -e "$dir/d.nnue" ]] || fail "a failed import wrote a file"

out=$("$axon" net bench "$dir/a.nnue" --seconds 0.05 --float)
grep -qE "^mlp +[0-9]+ evals/s, incremental/mlp [0-9.]+ \(mlp over planes8x8x14\+6: 902 -> 451" \
    <<<"$out" || fail "bench --float: $out"
grep -qE "^cnn +[0-9]+ evals/s" <<<"$out" || fail "bench --float: $out"
grep -qE "^incremental +[0-9]+ evals/s " <<<"$out" || fail "bench: $out"
grep -qE "^ratio +[0-9.]+$" <<<"$out" || fail "bench: $out"
out=$("$axon" net bench "$dir/a.nnue" --seconds 0.05 --pieces)
grep -qE "^pieces +[0-9.]+ us per position, [0-9.]+ pieces each" <<<"$out" || fail "bench --pieces: $out"
grep -qE "^pieces-full +[0-9.]+ us per position \(a refresh for each board\), full/pieces [0-9.]+$" <<<"$out" ||
    fail "bench --pieces: $out"
echo "net: random, info, export, import, bench (--float, --pieces) ok"

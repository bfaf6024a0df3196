#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `axon wdl-data`: samples from eval comments as `axon match` writes them (book moves, mates and
# unfinished games left out, results from the mover's side), and a clear error for a bad file.
set -euo pipefail
axon=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

cat >"$tmp/games.pgn" <<'PGN'
[Event "decisive"]
[Result "1-0"]

1. e4 { book } 1... e5 { -0.20/8 0.010s } 2. Nf3 { +0.35/9 0.020s } 2... Nc6 { +M3/5 0.010s }
3. Bb5 { -1.50/7 0.010s, White mates } 1-0

[Event "unfinished"]
[Result "*"]

1. d4 { +0.10/8 0.010s } *

[Event "drawn endgame"]
[Result "1/2-1/2"]
[SetUp "1"]
[FEN "8/8/4k3/8/4P3/3RK3/8/r7 b - - 0 1"]

1... Ra3 { +0.05/12 0.010s } 2. Rxa3 { +3.00/10 0.010s } 1/2-1/2
PGN

expected=$'78 -20 0\n78 35 1\n78 -150 1\n17 5 0.5\n17 300 0.5'
actual=$("$axon" wdl-data "$tmp/games.pgn" 2>"$tmp/err")
[[ $actual == "$expected" ]] || fail "samples differ: got"$'\n'"$actual"
grep -q "5 samples from 3 games" "$tmp/err" || fail "summary missing: $(cat "$tmp/err")"

if "$axon" wdl-data "$tmp/missing.pgn" 2>"$tmp/err"; then fail "a missing file succeeded"; fi
grep -q "cannot read" "$tmp/err" || fail "no clear error for a missing file: $(cat "$tmp/err")"
echo "wdl-data ok"

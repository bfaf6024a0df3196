#!/bin/bash
# syzygy-tables.sh OUT [THREADS=2]: every canonical 3-5-piece Syzygy table (145, about 935 MB)
# in OUT, with the generator in ../shared/tools/syzygy-tb (built into $TB_BUILD, default
# /tmp/syzygy-tb-build), then each file's embedded checksum checked with tbcheck. Resumable: a
# table whose .rtbw and .rtbz exist is skipped, half-written parts are removed first. Unlike
# that folder's generate.sh it makes no mirrored duplicates (KQvKRP beside KRPvKQ) and needs no
# published checksum list. Hours on 2 cores: run it in the background with setsid, where it lowers
# its session's priority itself (below).
set -eu
out=$(mkdir -p "$1" && cd "$1" && pwd); threads=${2:-2}
# Started in a session of its own (setsid), the script's processes are one autogroup, which
# Linux shares the CPU with before any nice value counts: lower the group's own priority, as
# axon grow does, or a niced run takes half the machine from a match in another session (seen
# 2026-12-07). Only as the session's leader, so a user's shell is never niced.
if [ "$(ps -o sid= -p $$ | tr -d ' ')" = "$$" ] && [ -w /proc/self/autogroup ]; then
  { echo 19 > /proc/self/autogroup; } 2>/dev/null || true
fi
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../../shared/tools/syzygy-tb
build=${TB_BUILD:-/tmp/syzygy-tb-build}
if [ ! -x "$build/src/tbcheck" ]; then
  [ -d "$tools/src" ] || { echo "no generator in $tools" >&2; exit 1; }
  rm -rf "$build" && mkdir -p "$build" && cp -r "$tools/src" "$build/"
  # One job: the generator's Makefile links rtbgen and rtbgenp from objects that another rule
  # may still be writing, so a parallel build can hand the LTO linker a half-written util.o
  # (seen here: "lto1: internal compiler error: Bus error").
  make -C "$build/src" all >"$build/build.log" 2>&1 || { echo "build failed: $build/build.log" >&2; exit 1; }
fi
cd "$out"
export PATH=$build/src:$PATH RTBPATH=$out
rm -f ./*.rtbw.[0-9] ./*.rtbz.[0-9]
# Canonical names, fewest pieces first (each table needs its subtables): the side with more
# pieces first; equal counts in the generator's piece order (Q R B N P), stronger side first.
tables=$(python3 - <<'PY'
from itertools import combinations_with_replacement as C
order = "QRBNP"
names = []
for n in (1, 2, 3):
    for a in range(n, -1, -1):
        d = n - a
        if a < d: continue
        for x in C(order, a):
            for y in C(order, d):
                if a == d and [order.index(c) for c in x] > [order.index(c) for c in y]: continue
                names.append("K" + "".join(x) + "vK" + "".join(y))
print(" ".join(names))
PY
)
for tb in $tables; do
  [ -e "$tb.rtbw" ] && [ -e "$tb.rtbz" ] && continue
  echo "$(date +%T) generating $tb"
  case $tb in *P*) rtbgenp -t "$threads" "$tb" ;; *) rtbgen -t "$threads" "$tb" ;; esac
done
tbcheck ./*.rtbw ./*.rtbz | grep -v ': OK!$' && { echo "checksum failures above" >&2; exit 1; }
echo "$(ls ./*.rtbw | wc -l) tables in $out, every embedded checksum OK"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The cost of the analysis heat map (`eval pieces`, docs/eval-pieces.md): microseconds per
# position for every piece's contribution, as the engine computes them (one accumulator refresh,
# then a row subtraction and an output layer per piece) and, for comparison, with a refresh of
# both accumulators for each board, one thread, over the positions of random lines from the bench
# positions (`axon net bench --pieces`, best of 5 alternating rounds): the embedded network's file,
# then a random network four times as wide. Last, the same through UCI: N `position fen` + `eval pieces`
# pairs piped into one engine process, less the time of the process with the positions alone.
# Usage: bench/eval-pieces.sh [seconds-per-mode] [uci-pairs]   (AXON=path/to/axon, default build/axon)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly AXON=${AXON:-build/axon}
readonly SECONDS_PER_MODE=${1:-2}
readonly PAIRS=${2:-2000}
echo "== nets/default.nnue"
"$AXON" net bench nets/default.nnue --pieces --seconds "$SECONDS_PER_MODE" | grep -E "^(network|pieces)"
echo "== random --hidden 1024 --input-buckets 16 --mirror --output-buckets 8"
"$AXON" net bench --hidden 1024 --input-buckets 16 --mirror --output-buckets 8 --pieces \
    --seconds "$SECONDS_PER_MODE" | grep -E "^(network|pieces)"
echo "== UCI, $PAIRS pairs"
python3 - "$AXON" "$PAIRS" <<'PY'
import subprocess, sys, time
axon, pairs = sys.argv[1], int(sys.argv[2])
fens = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"]
def run(with_eval):
    lines = []
    for i in range(pairs):
        lines.append("position fen " + fens[i % len(fens)])
        if with_eval: lines.append("eval pieces")
    text = "\n".join(lines + ["quit"]) + "\n"
    best = None
    for _ in range(3):
        start = time.perf_counter()
        out = subprocess.run([axon], input=text, capture_output=True, text=True, check=True).stdout
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, out.count("info string pieces")
with_eval, answered = run(True)
without, _ = run(False)
assert answered == pairs, f"{answered} answers to {pairs} requests"
print(f"uci          {(with_eval - without) * 1e6 / pairs:.2f} us per eval pieces "
      f"(line formatting and output included; best of 3, {pairs} pairs)")
PY

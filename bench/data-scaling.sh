#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Data-scaling study: one architecture trained on growing prefixes of the same labelled data,
# each network's validation loss on one held-out file and its Elo against a reference network
# (same binary, EvalFile, fixed nodes, UHO book, both colours), then a CSV and an SVG plot.
#
# Usage: bench/data-scaling.sh SIZE...     sizes in millions of positions, e.g. 4 12 25 50
# Environment:
#   DATA     directories of labelled chunks (default "data/dg4-11 data/dg4-12", own labels); the
#            chunks are taken in turn from each directory (sorted names) until a size is reached,
#            so every prefix holds the smaller ones
#   VAL      held-out records for the validation loss (default: the first chunk of the last DATA
#            directory; it is never trained on)
#   REF      reference network the matches are played against (default nets/default.nnue)
#   ARCH     training architecture flags (default: network #2's, see docs/nets.md, with HIDDEN
#            hidden units, default 256)
#   PASSES   passes over the data (default 4), at least MIN_SB (40) superbatches of 1 M
#   NODES    nodes per move (default 20000), GAMES per size (default 400), SEED (opening order)
#   OUT      results (default bench/results/data-scaling): OUT/<size>M/ the training run,
#            OUT/<size>M.json the match, OUT/scaling.csv and OUT/scaling.svg
#   AXON     binary (default ./axon or build-release/axon)
#   INIT     a network to refine instead of training from random weights (axon train --init; its
#            shape must be ARCH's), with LR the learning rate (default 0.001; lower for a refinement)
# A size whose network or match result exists is not redone: the script resumes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ $# -eq 0 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    sed -n '3,22p' "$0" | sed 's/^# \{0,1\}//'
    exit $(($# == 0 ? 2 : 0))
fi
AXON=${AXON:-$( [ -x ./axon ] && echo ./axon || echo build-release/axon)}
read -r -a DIRS <<<"${DATA:-data/dg4-11 data/dg4-12}"
REF=${REF:-nets/default.nnue}
OUT=${OUT:-bench/results/data-scaling}
PASSES=${PASSES:-4}
MIN_SB=${MIN_SB:-40}
NODES=${NODES:-20000}
GAMES=${GAMES:-400}
SEED=${SEED:-7}
LR=${LR:-0.001}
INIT=${INIT:-}
MAP=0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3
HIDDEN=${HIDDEN:-256}
ARCH=${ARCH:---hidden $HIDDEN --mirror --input-buckets 4 --bucket-map $MAP --output-buckets 8}
BOOK=../shared/data/books/UHO_4060_v4.epd
[ -f "$BOOK" ] || { echo "data-scaling.sh: no opening book at $BOOK" >&2; exit 1; }
[ -x "$AXON" ] || { echo "data-scaling.sh: no axon binary (set AXON)" >&2; exit 1; }
mkdir -p "$OUT"
REF=$(realpath "$REF")

# The chunks in the order they are taken: one from each directory in turn.
mapfile -t ORDER < <(
    for i in "${!DIRS[@]}"; do
        n=0
        for f in $(ls "${DIRS[$i]}"/*.bin | sort); do echo "$n $i $f"; n=$((n + 1)); done
    done | sort -n -k1,1 -k2,2 | cut -d' ' -f3)
[ ${#ORDER[@]} -gt 0 ] || { echo "data-scaling.sh: no chunks in ${DIRS[*]}" >&2; exit 1; }
VAL=${VAL:-$(ls "${DIRS[-1]}"/*.bin | sort | head -1)}
records() { echo $((($(stat -c %s "$1") - 32) / 32)); }
available=0
for f in "${ORDER[@]}"; do [ "$f" = "$VAL" ] || available=$((available + $(records "$f"))); done
echo "data-scaling: ${#ORDER[@]} chunks, $available positions besides the validation file $VAL"

for size in "$@"; do
    want=$(python3 -c "print(int(float('$size') * 1e6))")
    if [ "$want" -gt "$available" ]; then
        echo "data-scaling: ${size}M: only $available positions; skipped" >&2
        continue
    fi
    run=$OUT/${size}M
    files=()
    total=0
    for f in "${ORDER[@]}"; do
        [ "$f" = "$VAL" ] && continue
        [ $total -ge "$want" ] && break
        files+=("$f")
        total=$((total + $(records "$f")))
    done
    superbatches=$(((total * PASSES + 999999) / 1000000))
    [ $superbatches -lt "$MIN_SB" ] && superbatches=$MIN_SB
    if [ ! -f "$run/final.nnue" ]; then
        echo "data-scaling: ${size}M: training on $total positions (${#files[@]} chunks), $superbatches superbatches"
        resume=()
        [ -f "$run/checkpoint.bin" ] && resume=(--resume)
        [ -n "$INIT" ] && resume+=(--init "$(realpath "$INIT")")
        # shellcheck disable=SC2086
        "$AXON" train --data "${files[@]}" --out "$run" $ARCH --threads 2 --batch 16384 \
            --superbatches "$superbatches" --superbatch-positions 1000000 --lr "$LR" \
            --lr-schedule cosine --wdl 0.2 --seed 1 --val "$VAL" --quiet "${resume[@]}"
    fi
    echo "$total" >"$run/positions"
    if [ ! -f "$OUT/${size}M.json" ]; then
        echo "data-scaling: ${size}M: $GAMES games at $NODES nodes against $REF"
        "$AXON" match --engine cmd="$AXON" name="${size}M" option.Hash=16 \
            option.EvalFile="$(realpath "$run/final.nnue")" \
            --engine cmd="$AXON" name=reference option.Hash=16 option.EvalFile="$REF" \
            --nodes "$NODES" --games "$GAMES" --concurrency 2 --openings "$BOOK" \
            --openings-order random --seed "$SEED" --resign movecount=3 score=1000 \
            --json "$OUT/${size}M.json.tmp" >"$OUT/${size}M.log" 2>&1
        mv "$OUT/${size}M.json.tmp" "$OUT/${size}M.json"
    fi
done

python3 - "$OUT" <<'EOF'
import csv, glob, json, os, sys
out = sys.argv[1]
rows = []
for j in glob.glob(os.path.join(out, "*M.json")):
    run = j[:-5]
    if not os.path.exists(os.path.join(run, "history.csv")):
        continue
    with open(os.path.join(run, "history.csv")) as f:
        hist = list(csv.DictReader(f))
    match = json.load(open(j))
    rows.append({
        "positions": int(open(os.path.join(run, "positions")).read()),
        "superbatches": len(hist),
        "val_loss": float(hist[-1]["val_loss"]),
        "train_loss": float(hist[-1]["train_loss"]),
        "games": match["games"], "pentanomial": " ".join(map(str, match["pentanomial"])),
        "elo": match["elo"], "elo_error95": match["elo_error95"],
    })
if not rows:
    sys.exit("data-scaling: no finished size to report in " + out)
rows.sort(key=lambda r: r["positions"])
with open(os.path.join(out, "scaling.csv"), "w") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(rows)
for r in rows:
    print("%6.1f M  val %.5f  train %.5f  Elo %+6.1f +/- %4.1f  %s" % (
        r["positions"] / 1e6, r["val_loss"], r["train_loss"], r["elo"], r["elo_error95"],
        r["pentanomial"]))

# Two panels over log10(positions): validation loss, and Elo with its 95% interval.
import math
W, H, L, R, T, B, GAP = 720, 300, 70, 20, 30, 45, 90
pw = (W - L - R - GAP) // 2
xs = [math.log10(r["positions"]) for r in rows]
x0, x1 = math.floor(min(xs) * 2) / 2 - 0.1, math.ceil(max(xs) * 2) / 2 + 0.1
def panel(left, title, values, lo, hi, errs, fmt):
    lo, hi = min(lo), max(hi)
    pad = (hi - lo) * 0.1 or 1
    lo, hi = lo - pad, hi + pad
    X = lambda x: left + (x - x0) / (x1 - x0) * pw
    Y = lambda y: T + (hi - y) / (hi - lo) * (H - T - B)
    s = [f'<rect x="{left}" y="{T}" width="{pw}" height="{H - T - B}" fill="none" stroke="#888"/>',
         f'<text x="{left + pw / 2}" y="{T - 10}" text-anchor="middle">{title}</text>']
    for i in range(5):
        y = lo + (hi - lo) * i / 4
        s.append(f'<text x="{left - 6}" y="{Y(y) + 4:.1f}" text-anchor="end">{fmt(y)}</text>')
        s.append(f'<line x1="{left}" x2="{left + pw}" y1="{Y(y):.1f}" y2="{Y(y):.1f}" stroke="#eee"/>')
    for r, x in zip(rows, xs):
        s.append(f'<text x="{X(x):.1f}" y="{H - B + 16}" text-anchor="middle">{r["positions"] / 1e6:.3g}M</text>')
    s.append(f'<text x="{left + pw / 2}" y="{H - 8}" text-anchor="middle">training positions (log scale)</text>')
    if lo < 0 < hi:
        s.append(f'<line x1="{left}" x2="{left + pw}" y1="{Y(0):.1f}" y2="{Y(0):.1f}" stroke="#888" stroke-dasharray="4 3"/>')
    pts = " ".join(f"{X(x):.1f},{Y(v):.1f}" for x, v in zip(xs, values))
    s.append(f'<polyline points="{pts}" fill="none" stroke="#1f6feb" stroke-width="2"/>')
    for x, v, e in zip(xs, values, errs):
        if e:
            s.append(f'<line x1="{X(x):.1f}" x2="{X(x):.1f}" y1="{Y(v - e):.1f}" y2="{Y(v + e):.1f}" stroke="#1f6feb"/>')
        s.append(f'<circle cx="{X(x):.1f}" cy="{Y(v):.1f}" r="3.5" fill="#1f6feb"/>')
    return s
vl = [r["val_loss"] for r in rows]
el = [r["elo"] for r in rows]
ee = [r["elo_error95"] for r in rows]
body = panel(L, "validation loss", vl, vl, vl, [0] * len(rows), lambda y: f"{y:.5f}")
body += panel(L + pw + GAP, "Elo against the reference (95%)", el,
              [e - d for e, d in zip(el, ee)] + [0], [e + d for e, d in zip(el, ee)] + [0], ee,
              lambda y: f"{y:+.0f}")
svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
       f'font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="white"/>'
       + "".join(body) + "</svg>\n")
tmp = os.path.join(out, "scaling.svg.tmp")
open(tmp, "w").write(svg)
os.replace(tmp, os.path.join(out, "scaling.svg"))
print("data-scaling: wrote", os.path.join(out, "scaling.csv"), "and", os.path.join(out, "scaling.svg"))
EOF

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A time-control match between two builds, played in resumable batches: each batch is one
# `axon match` of BATCH games with its own opening seed, kept as RESULTS/batch-N.json (and its
# games as RESULTS/batch-N.pgn) once it completes, so a run stopped by the end of a session (or
# kill) goes on where it left off and only the unfinished batch is replayed. Prints the
# pentanomial sum of every finished batch with its Elo and 95% interval. Time-control games need
# the machine to themselves: pause other work.
#
# Usage: bench/tc-confirm.sh NEW_BINARY OLD_BINARY [GAMES]
# Environment: TC (10+0.1), BATCH (100 games), CONCURRENCY (2), BOOK (UHO_4060_v4),
#              NEW_OPTIONS, OLD_OPTIONS (more words for that engine's --engine, as
#              "option.SyzygyPath=DIR": one binary against itself with an option on and off),
#              SPRT ("elo0=0 elo1=10 alpha=0.05 beta=0.05": after each batch the finished
#              batches are pooled by `axon pool` and play stops once H0 or H1 is accepted; the
#              batches are fixed-size, so this is a sequential test looked at every BATCH games),
#              RESULTS (bench/results/tc-confirm), AXON (the match runner: NEW_BINARY),
#              MATCH_OPTIONS (more words for every batch's `axon match`, as
#              "--resign movecount=3 score=1000"),
#              SUMMARY_ONLY=1 (print the sum of the finished batches, play nothing),
#              SEED_BASE (1000: batch N plays the openings of seed SEED_BASE + N; a run whose
#              earlier batch files are gone goes on with SEED_BASE past them, so no opening
#              order is played twice).
set -euo pipefail
shopt -s inherit_errexit

[[ $# -ge 2 ]] || { sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
new=$(realpath "$1")
old=$(realpath "$2")
games=${3:-1000}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly TC=${TC:-10+0.1} BATCH=${BATCH:-100} CONCURRENCY=${CONCURRENCY:-2} SEED_BASE=${SEED_BASE:-1000}
readonly BOOK=${BOOK:-../shared/data/books/UHO_4060_v4.epd}
readonly RESULTS=${RESULTS:-bench/results/tc-confirm}
runner=${AXON:-$new}
read -r -a new_options <<<"${NEW_OPTIONS:-}"
read -r -a old_options <<<"${OLD_OPTIONS:-}"
read -r -a sprt <<<"${SPRT:-}"
read -r -a match_options <<<"${MATCH_OPTIONS:-}"
mkdir -p "$RESULTS"

# sprtLine: the pooled SPRT line of the finished batches (nothing without SPRT or batches).
sprtLine() {
    [[ ${#sprt[@]} -gt 0 ]] || return 0
    local files=("$RESULTS"/batch-*.json)
    [[ -s ${files[0]} ]] || return 0
    "$runner" pool "${files[@]}" --sprt "${sprt[@]}" | grep -E 'SPRT' || true
}

batches=$(((games + BATCH - 1) / BATCH))
if [[ ${SUMMARY_ONLY:-0} != 1 ]]; then
    for ((b = 0; b < batches; ++b)); do
        json=$RESULTS/batch-$b.json
        [[ -s $json ]] && continue
        if [[ $(sprtLine) =~ H[01]\ accepted ]]; then
            echo "tc-confirm: the SPRT has ended; no more batches" >&2
            break
        fi
        echo "tc-confirm: batch $b of $batches ($BATCH games at $TC), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
        # The JSON is written only when the match ends: a killed batch leaves nothing behind but
        # its PGN's .tmp, which `match --pgn` appends to, so a replayed batch starts it afresh.
        rm -f "$RESULTS/batch-$b.pgn.tmp"
        "$runner" match --engine "cmd=$new" name=new option.Hash=16 "${new_options[@]}" \
            --engine "cmd=$old" name=old option.Hash=16 "${old_options[@]}" --tc "$TC" \
            --games "$BATCH" --concurrency "$CONCURRENCY" --openings "$BOOK" --openings-order random \
            --seed "$((SEED_BASE + b))" "${match_options[@]}" \
            --json "$json.tmp" --pgn "$RESULTS/batch-$b.pgn.tmp" >"$RESULTS/batch-$b.log" 2>&1
        mv "$RESULTS/batch-$b.pgn.tmp" "$RESULTS/batch-$b.pgn"
        mv "$json.tmp" "$json"
    done
fi

sprtLine
python3 - "$RESULTS" <<'EOF'
import glob, json, math, sys
penta = [0] * 5
forfeits = 0
files = sorted(glob.glob(sys.argv[1] + "/batch-*.json"))
for f in files:
    with open(f) as fh:
        d = json.load(fh)
    penta = [a + b for a, b in zip(penta, d["pentanomial"])]
pairs = sum(penta)
if not pairs:
    sys.exit("tc-confirm: no finished batch")
scores = [0, 0.25, 0.5, 0.75, 1]
mean = sum(p * s for p, s in zip(penta, scores)) / pairs
var = sum(p * (s - mean) ** 2 for p, s in zip(penta, scores)) / pairs
elo = lambda x: -400 * math.log10(1 / x - 1) if 0 < x < 1 else math.copysign(math.inf, x - 0.5)
half = 1.96 * math.sqrt(var / pairs)
print(f"batches {len(files)}, games {2 * pairs}, pentanomial [LL, LD, DD+WL, WD, WW] {penta}")
print(f"new vs old: score {mean:.4f}, Elo {elo(mean):+.1f} "
      f"[{elo(mean - half):+.1f}, {elo(mean + half):+.1f}] (95%)")
EOF

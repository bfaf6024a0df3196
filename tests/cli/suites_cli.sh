#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `axon epd` and `axon puzzles` end to end, with Axon itself as the engine at a small node count:
# easy WAC positions and an STS-style point-scored file, the summary formats, output that is the
# same at any concurrency, Lichess puzzles with a malformed line among them, a run stopped by
# SIGINT (the summary of the puzzles finished, exit status 130), and bad usage.
# Usage: suites_cli.sh AXON SHARED_DATA_DIR      Exits 77 (a skip) without the shared data, outside CI.
set -euo pipefail
axon=$1
data=${AXON_SHARED_DATA:-$2}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
# json FILE PATH: one value of a JSON summary (scripts/json-get.py).
json() { python3 "$here/../../scripts/json-get.py" "$@"; }

wac=$data/epd/wac.epd
csv=$data/puzzles/lichess_puzzles_dev.csv
# Without the shared data: a skip (exit 77, ctest's SKIP_RETURN_CODE), never a pass; in CI a failure.
for f in "$wac" "$csv"; do
    [[ -f $f ]] || { [[ -n ${CI:-} ]] && fail "missing $f"; echo "SKIP: no $f"; exit 77; }
done

# 1. Twelve WAC positions, verbose, at concurrency 1 and 2: the same lines in the same order.
"$axon" epd "$wac" --nodes 20000 --limit 12 --verbose >"$work/wac1.txt" || fail "epd exited with $?"
"$axon" epd "$wac" --engine "cmd=$axon" name=self --nodes 20000 --limit 12 --verbose --concurrency 2 \
    --json "$work/wac.json" >"$work/wac2.txt" || fail "epd --concurrency 2 exited with $?"
cat "$work/wac2.txt"
[[ $(grep -c '^WAC\.0[0-9][0-9]  bm ' "$work/wac1.txt") -eq 12 ]] || fail "expected 12 position lines"
diff <(grep '^WAC' "$work/wac1.txt") <(grep '^WAC' "$work/wac2.txt") || fail "results differ with concurrency"
solved=$(sed -n 's/^Solved: \([0-9]*\)\/12 ([0-9.]*%)$/\1/p' "$work/wac2.txt")
[[ -n $solved ]] || fail "no 'Solved: N/12 (P%)' line"
((solved >= 6)) || fail "only $solved of 12 easy WAC positions solved"
grep -q '^Engine: self  limit: nodes=20000$' "$work/wac2.txt" || fail "engine line"
grep -Eq '^  WAC +[0-9]+/12 ' "$work/wac2.txt" || fail "no WAC theme line"
[[ $(json "$work/wac.json" solved) -eq $solved ]] || fail "JSON solved count"
[[ $(json "$work/wac.json" 'len(results)') -eq 12 ]] || fail "JSON lacks per-position results"
json "$work/wac.json" results.11.engine_move | grep -Eq '^([NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=[NBRQ])?|O-O(-O)?)[+#]?$' ||
    fail "JSON: no engine move in SAN"

# 2. A point-scored suite with two themes and a bad line, which is reported and skipped.
cat >"$work/sts.epd" <<'EPD'
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; c0 "Ra8=10, Ra7=2, h3=1"; id "STS Mates.001";
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - c0 "Ra8=10, Ra7=2"; id "STS Mates.002";
r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - c0 "Ra1=10, Ra2=3"; id "STS Black Mates.001";
r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - c0 "Ra1=10, Rz9=3"; id "STS Broken.001";
EPD
"$axon" epd "$work/sts.epd" --depth 3 --verbose >"$work/sts.txt" 2>"$work/sts.err" || fail "STS run exited with $?"
cat "$work/sts.txt"
grep -q 'line 4 skipped: c0: ' "$work/sts.err" || fail "bad c0 line not reported"
grep -q '^Solved: 3/3 (100.0%)  Points: 30/30 (100.0%)$' "$work/sts.txt" || fail "STS summary"
grep -Eq '^  STS Mates +2/2 .*points +20/20' "$work/sts.txt" || fail "STS Mates theme line"
grep -Eq '^  STS Black Mates +1/1 ' "$work/sts.txt" || fail "STS Black Mates theme line"

# 3. Puzzles: the first 20 (easy mates) and 20 harder ones, plus a malformed line.
{ head -21 "$csv"; echo "broken,not a fen,e2e4 e7e5,1500,1,1,1,mate,url,"; sed -n '3001,3020p' "$csv"; } >"$work/p.csv"
"$axon" puzzles "$work/p.csv" --nodes 20000 --concurrency 2 --json "$work/p.json" \
    >"$work/p.txt" 2>"$work/p.err" || fail "puzzles exited with $?"
cat "$work/p.txt"
grep -q 'line 22 skipped: bad FEN' "$work/p.err" || fail "malformed line not reported with its number"
grep -q '^Puzzles: 40  malformed lines: 1  filtered out: 0' "$work/p.txt" || fail "puzzle counts"
psolved=$(sed -n 's/^Solved: \([0-9]*\)\/40 ([0-9.]*%)  first move agreement: [0-9]*\/40 ([0-9.]*%)$/\1/p' "$work/p.txt")
[[ -n $psolved ]] || fail "no puzzle Solved line"
((psolved >= 20)) || fail "only $psolved of 40 puzzles solved"
grep -Eq '^  <1000 +[0-9]+/20 ' "$work/p.txt" || fail "no <1000 rating band"
grep -Eq '^  mateIn1 +[0-9]+/[0-9]+ ' "$work/p.txt" || fail "no mateIn1 line"
grep -q '^Top themes:$' "$work/p.txt" || fail "no theme breakdown"
json "$work/p.json" first_move_agreements | grep -Eq '^[0-9]+$' || fail "JSON first move agreement"
[[ $(json "$work/p.json" solved) -eq $psolved ]] || fail "JSON puzzle solved count"
"$axon" puzzles "$work/p.csv" --nodes 2000 --themes mateIn1 --max-rating 1000 >"$work/m1.txt" 2>/dev/null ||
    fail "filtered puzzles exited with $?"
grep -Eq '^Puzzles: [0-9]+  malformed lines: 1  filtered out: [1-9]' "$work/m1.txt" || fail "filters"

# 3b. SIGINT: no new puzzle starts, the ones in flight finish, the summary covers those done.
# (Verbose, so the signal waits for the first solved puzzle: by then the handler is installed, and
# a background job of a script starts with SIGINT ignored, so an early signal would be lost.)
"$axon" puzzles "$csv" --nodes 200000 --concurrency 2 --verbose --json "$work/int.json" \
    >"$work/int.txt" &
pid=$!
for _ in $(seq 600); do
    grep -Eq ' (ok|FAIL)' "$work/int.txt" && break
    sleep 0.1
done
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
[[ $rc -eq 130 ]] || { cat "$work/int.txt"; fail "interrupted puzzles: exit status $rc, not 130"; }
done=$(sed -n 's/^Interrupted after \([0-9]*\) of [0-9]* puzzles$/\1/p' "$work/int.txt")
[[ -n $done ]] || { cat "$work/int.txt"; fail "interrupted puzzles: no 'Interrupted after' line"; }
grep -q "^Solved: [0-9]*/$done (" "$work/int.txt" || fail "interrupted puzzles: Solved line"
[[ $(json "$work/int.json" interrupted) == true ]] || fail "interrupted puzzles: JSON"
[[ $(json "$work/int.json" 'len(results)') -eq $done ]] || fail "interrupted puzzles: JSON results"

# 4. Bad usage: a clear message and a non-zero exit.
expectError() { # expectError MESSAGE-PATTERN ARGS...
    local pattern=$1
    shift
    if "$axon" "$@" >/dev/null 2>"$work/err.txt"; then fail "accepted: $*"; fi
    grep -q "$pattern" "$work/err.txt" || { cat "$work/err.txt"; fail "no '$pattern' for: $*"; }
}
expectError 'cannot open' epd "$work/missing.epd" --nodes 100
expectError 'cannot open' puzzles "$work/missing.csv" --nodes 100
expectError 'exactly one limit' epd "$wac"
expectError 'exactly one limit' puzzles "$csv" --nodes 100 --movetime 100
expectError 'key=value' epd "$wac" --nodes 100 --engine nonsense
# The shell that was to run it exits at once: whether the handshake's first write or its read
# notices first is a race (both say the engine is gone; under load the write loses it).
expectError 'exited while waiting\|cannot write to the engine' epd "$wac" --nodes 100 \
    --engine "cmd=$work/no-such-engine"
expectError 'not expected' epd "$wac" --nodes 100 --bogus
expectError 'no position to score' epd "$work/p.csv" --nodes 100
expectError 'min-rating is above' puzzles "$csv" --nodes 100 --min-rating 2000 --max-rating 1000
echo "suites CLI: all checks passed"

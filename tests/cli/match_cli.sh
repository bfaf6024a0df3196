#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `axon match` end to end: axon at depth 1 against axon at depth 7 (the deeper one must score
# clearly better), the PGN and JSON outputs, misbehaving engines (crash, hang, illegal move)
# whose games are lost while the match goes on, SPRT early stopping, a clock game, bad usage,
# and an interrupted match that plays out its pairs in flight and still reports.
# Usage: match_cli.sh AXON SHARED_DATA_DIR      Exits 77 (a skip) without the shared data, outside CI.
set -euo pipefail
axon=$1
data=${AXON_SHARED_DATA:-$2}
here=$(cd "$(dirname "$0")" && pwd)
fake="bash $here/fake_engine.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
# json FILE PATH: one value of a JSON summary (scripts/json-get.py: games, sprt.state, ...).
json() { python3 "$here/../../scripts/json-get.py" "$@"; }

book=$data/books/UHO_4060_v4.epd
# Without the shared data: a skip (exit 77, ctest's SKIP_RETURN_CODE), never a pass; in CI a failure.
[[ -f $book ]] || { [[ -n ${CI:-} ]] && fail "missing $book"; echo "SKIP: no $book"; exit 77; }

# 1. Depth 1 against depth 7 from the UHO book.
"$axon" match --engine "cmd=$axon" name=shallow depth=1 --engine "cmd=$axon" name=deep depth=7 \
    --games 8 --concurrency 2 --openings "$book" --pgn "$work/games.pgn" --json "$work/summary.json" \
    >"$work/out.txt" || fail "depth match exited with $?"
cat "$work/out.txt"
[[ $(grep -c '^Game ' "$work/out.txt") -eq 8 ]] || fail "expected 8 progress lines"
[[ $(json "$work/summary.json" games) -eq 8 ]] || fail "JSON: games != 8"
score=$(json "$work/summary.json" score)
awk -v s="$score" 'BEGIN { exit !(s <= 0.35) }' || fail "depth 1 scored $score against depth 7"
grep -q 'Pentanomial \[LL, LD, DD+WL, WD, WW\]: \[' "$work/out.txt" || fail "no pentanomial line"
[[ $(json "$work/summary.json" 'len(pentanomial)') -eq 5 ]] || fail "JSON has no pentanomial"
[[ $(grep -c '^\[Result "' "$work/games.pgn") -eq 8 ]] || fail "PGN does not hold 8 games"
for tag in Event Site Date Round White Black FEN SetUp TimeControl Termination; do
    grep -q "^\[$tag \"" "$work/games.pgn" || fail "PGN lacks the $tag tag"
done
grep -q '^\[White "shallow"\]' "$work/games.pgn" || fail "PGN lacks the engine names"
grep -Eq '\{ ?[+-][0-9]+\.[0-9]{2}/[0-9]+ [0-9.]+s' "$work/games.pgn" || fail "PGN lacks eval/depth time comments"

# 2. Misbehaving engines lose every game; the match finishes normally.
for mode in crash hang illegal garbage; do
    "$axon" match --engine "cmd=$axon" name=axon --engine "cmd=$fake $mode" name="$mode" \
        --depth 2 --move-timeout 400 --games 4 --concurrency 2 --openings "$book" \
        --pgn "$work/$mode.pgn" >"$work/$mode.txt" || fail "$mode: match exited with $?"
    grep -q 'W: 4  L: 0  D: 0' "$work/$mode.txt" || { cat "$work/$mode.txt"; fail "$mode: not all games lost"; }
    [[ $(grep -c '^\[Result "' "$work/$mode.pgn") -eq 4 ]] || fail "$mode: PGN does not hold 4 games"
done
grep -q 'disconnects' "$work/crash.txt" || fail "crash not reported"
grep -q 'hangs: hang: no bestmove within 400 ms' "$work/hang.txt" || fail "hang not reported"
grep -q 'illegal move: e1e8' "$work/illegal.txt" || fail "illegal move not reported"
grep -q '\[Termination "rules infraction"\]' "$work/illegal.pgn" || fail "illegal move termination"

# 3. The SPRT stops a one-sided match early.
"$axon" match --engine "cmd=$axon" name=axon --engine "cmd=$fake illegal" --depth 1 \
    --games 400 --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --json "$work/sprt.json" >"$work/sprt.txt" ||
    fail "SPRT match exited with $?"
grep -q 'SPRT (normalised Elo).*H1 accepted (match stopped early)' "$work/sprt.txt" ||
    { cat "$work/sprt.txt"; fail "SPRT did not stop the match"; }
games=$(json "$work/sprt.json" games)
((games < 400)) || fail "SPRT match played all $games games"
[[ $(json "$work/sprt.json" sprt.elo_model) == normalized ]] || fail "JSON lacks the SPRT model"

# 3b. `axon pool` adds runs of one comparison and refuses runs of another.
"$axon" pool "$work/sprt.json" "$work/sprt.json" >"$work/pool.txt" || fail "pool exited with $?"
grep -q "Pooled 2 runs of axon vs " "$work/pool.txt" || { cat "$work/pool.txt"; fail "pool heading"; }
grep -q "Games: $((2 * games)) " "$work/pool.txt" || { cat "$work/pool.txt"; fail "pool: games not doubled"; }
grep -q "not one sequential test" "$work/pool.txt" || fail "pool does not say its LLR is not one test"
if "$axon" pool "$work/sprt.json" "$work/summary.json" 2>"$work/pool.err"; then
    fail "pool accepted runs of different engines"
fi
grep -q "run 2 is " "$work/pool.err" || { cat "$work/pool.err"; fail "pool's refusal names no run"; }

# 4. A clock game, with resign adjudication on.
"$axon" match --engine "cmd=$axon" name=a --engine "cmd=$axon" name=b --tc 1+0.01 --games 2 \
    --concurrency 2 --openings "$data/books/8moves_v3.pgn" --resign movecount=3 score=600 \
    --draw movenumber=30 movecount=6 score=15 --pgn "$work/clock.pgn" >"$work/clock.txt" ||
    fail "clock match exited with $?"
[[ $(grep -c '^\[Result "' "$work/clock.pgn") -eq 2 ]] || fail "clock match: PGN does not hold 2 games"
grep -q '^\[TimeControl "1+0.01"\]' "$work/clock.pgn" || fail "clock match: TimeControl tag"

# 5. Bad usage is an error, not a match.
! "$axon" match --engine "cmd=$axon" --depth 1 2>/dev/null || fail "one engine accepted"
! "$axon" match --engine "cmd=$axon" --engine "cmd=$axon" 2>/dev/null || fail "no limit accepted"
! "$axon" match --engine "cmd=$work/no-such-engine" --engine "cmd=$axon" --depth 1 2>/dev/null ||
    fail "a missing engine accepted"
! "$axon" match --engine "cmd=$axon" --engine "cmd=$axon" --tc 10+x 2>/dev/null || fail "bad --tc accepted"
# 6. SIGINT or SIGTERM: no new pair starts, the pairs in flight are played out (the games stay
# even and the pentanomial count whole), the results are printed and written, exit status 130.
for signal in INT TERM; do
    "$axon" match --engine "cmd=$axon" name=a --engine "cmd=$axon" name=b --depth 3 --games 2000 \
        --concurrency 2 --openings "$book" --json "$work/int.json" >"$work/int.txt" &
    pid=$!
    for _ in $(seq 600); do
        (($(grep -c '^Game ' "$work/int.txt") >= 6)) && break
        sleep 0.1
    done
    kill -"$signal" "$pid"
    rc=0
    wait "$pid" || rc=$?
    [[ $rc -eq 130 ]] || { cat "$work/int.txt"; fail "SIG$signal: exit status $rc, not 130"; }
    grep -q '^Interrupted: finishing the game pairs in flight' "$work/int.txt" ||
        fail "SIG$signal: the interrupt was not announced"
    games=$(json "$work/int.json" games)
    ((games >= 6 && games < 2000 && games % 2 == 0)) || fail "SIG$signal: $games games played"
    grep -q "Interrupted after $games of 2000 games" "$work/int.txt" ||
        fail "SIG$signal: no results after the interrupt"
    [[ $(json "$work/int.json" interrupted) == true ]] || fail "SIG$signal: JSON does not say interrupted"
    pairs=$(json "$work/int.json" pentanomial | tr -d '[]' | awk -F, '{ print $1 + $2 + $3 + $4 + $5 }')
    [[ $((2 * pairs)) -eq $games ]] || fail "SIG$signal: pentanomial counts $pairs pairs for $games games"
done
[[ $(json "$work/summary.json" interrupted) == false ]] || fail "an uninterrupted match says interrupted"

echo "match CLI: all checks passed"

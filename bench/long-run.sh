#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The long robustness run (docs/robustness.md): GAMES games at a fast clock through
# `axon match`, two at a time, in batches that alternate Axon against itself and Axon against
# Debian's Stockfish, counting what must never happen: crashes (an engine disconnects), hangs,
# illegal moves, engines that fail to start, and time forfeits (by engine). Each finished batch
# appends its counts to STATE_DIR/batches.tsv, so stopping the script (Ctrl-C, a session's end)
# loses at most the batch in progress and rerunning resumes after the last finished one.
# Clock-bound: give it an otherwise idle machine; the load average is recorded per batch.
#
# Usage: bench/long-run.sh [GAMES] [STATE_DIR]    (default 10000 games, long-run/)
# Environment: AXON (binary; default ./axon, build-release/axon or build/axon), TC (1+0.01),
#   BATCH (games per batch, 200), OPPONENT (default /usr/games/stockfish), BOOK (UHO_4060_v4)
# Exit status: 0 when every game was played and none crashed, hung, moved illegally or lost on
# time; 1 otherwise.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly GAMES=${1:-10000}
readonly STATE=${2:-long-run}
readonly TC=${TC:-1+0.01}
readonly BATCH=${BATCH:-200}
readonly OPPONENT=${OPPONENT:-/usr/games/stockfish}
readonly BOOK=${BOOK:-../shared/data/books/UHO_4060_v4.epd}
source bench/lib/find-axon.sh
[[ -f $BOOK ]] || { echo "no opening book $BOOK" >&2; exit 2; }
[[ -x $OPPONENT ]] || { echo "no opponent $OPPONENT (apt-get install stockfish)" >&2; exit 2; }
AXON=$(realpath "$AXON")
mkdir -p "$STATE"
table=$STATE/batches.tsv
[[ -f $table ]] || printf 'batch\tpairing\tgames\tforfeits\tforfeits_by\tcrashes\thangs\tillegal\tstart_failures\tload_before\tload_after\tfinished\n' >"$table"

batches=$(((GAMES + BATCH - 1) / BATCH))
for ((b = 0; b < batches; ++b)); do
    if awk -F'\t' -v b="$b" 'NR > 1 && $1 == b { found = 1 } END { exit !found }' "$table"; then
        continue # finished in an earlier run
    fi
    if ((b % 2 == 0)); then
        pairing=self
        engines=(--engine "cmd=$AXON" name=axon-a --engine "cmd=$AXON" name=axon-b)
    else
        pairing=stockfish
        engines=(--engine "cmd=$AXON" name=axon --engine "cmd=$OPPONENT" name=stockfish
            option.Threads=1 option.Hash=16)
    fi
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    log=$STATE/batch-$b.log
    pgn=$STATE/batch-$b.pgn
    rm -f "$pgn"
    "$AXON" match "${engines[@]}" --tc "$TC" --games "$BATCH" --concurrency 2 --openings "$BOOK" \
        --openings-order random --seed "$((1000 + b))" --pgn "$pgn.tmp" >"$log.tmp" 2>&1 || true
    # A match that could not start writes no PGN: its batch is recorded with the games it lacks.
    [[ -f $pgn.tmp ]] || : >"$pgn.tmp"
    mv "$pgn.tmp" "$pgn"
    mv "$log.tmp" "$log"
    results=$(grep '^Game [0-9]*: ' "$log" || true)
    played=$(grep -c '^\[Result "' "$pgn" || true)
    forfeits=$(grep -c '^\[Termination "time forfeit"\]' "$pgn" || true)
    # Who lost on time: the side the result goes against, by engine name ("axon-a:2,stockfish:1").
    losers=$(awk '/^\[White "/ { w = $2 } /^\[Black "/ { b = $2 } /^\[Result "/ { r = $2 }
        /^\[Termination "time forfeit"\]/ { n[r == "\"1-0\"]" ? b : w]++ }
        END { for (k in n) { v = n[k]; gsub(/["\]]/, "", k); out = out (out ? "," : "") k ":" v }
              print out }' "$pgn")
    crashes=$(grep -c 'disconnects' <<<"$results" || true)
    hangs=$(grep -c 'hangs' <<<"$results" || true)
    illegal=$(grep -c 'illegal move' <<<"$results" || true)
    startFailures=$(grep -c 'fails to start' <<<"$results" || true)
    printf '%d\t%s\t%d\t%d\t%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n' "$b" "$pairing" "$played" "$forfeits" \
        "${losers:--}" "$crashes" "$hangs" "$illegal" "$startFailures" "$load" \
        "$(cut -d' ' -f1-3 /proc/loadavg)" "$(date -u +%FT%TZ)" >>"$table"
    echo "long-run: batch $((b + 1))/$batches ($pairing): $played games, $forfeits forfeits," \
        "$crashes crashes, $hangs hangs, $illegal illegal moves (load before: $load)"
done

awk -F'\t' -v want="$GAMES" 'NR > 1 { g += $3; f += $4; c += $6; h += $7; i += $8; s += $9; n++ }
    END { printf "long-run: %d batches, %d of %d games, %d time forfeits, %d crashes, %d hangs, %d illegal moves, %d start failures\n", n, g, want, f, c, h, i, s
          exit !(g >= want && f == 0 && c == 0 && h == 0 && i == 0 && s == 0) }' "$table"

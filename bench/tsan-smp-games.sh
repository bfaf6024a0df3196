#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ThreadSanitizer over whole games of Lazy SMP (docs/robustness.md): a ThreadSanitizer build of
# Axon with two search threads plays itself at a fixed node count through `axon match`, so the
# races a unit test cannot reach (ucinewgame, position and go between moves, the TT shared
# over a game, stop and ponderhit at any moment) get their chance. Every engine process writes
# any report to its own log file; the run passes when no report was written, every game was
# played and none ended by a crash, a hang or an illegal move.
#
# Usage: bench/tsan-smp-games.sh [GAMES] [NODES]     (default 200 games, 5000 nodes a move)
# Builds build-tsan as scripts/test.sh's tsan step does when it is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly GAMES=${1:-200}
readonly NODES=${2:-5000}
readonly BOOK=${BOOK:-../shared/data/books/UHO_4060_v4.epd}

if [[ ! -x build-tsan/axon ]]; then
    cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DAXON_SANITIZE=thread -DAXON_WERROR=ON >/dev/null
    cmake --build build-tsan --parallel "$(nproc)" --target axon >/dev/null
fi
axon=$(realpath build-tsan/axon)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Inherited by the engine processes: one report file per process, and exit code 66 on a race.
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:log_path=$work/tsan"
start=$(date +%s)
"$axon" match --engine "cmd=$axon" name=smp-a option.Threads=2 option.Hash=8 \
    --engine "cmd=$axon" name=smp-b option.Threads=2 option.Hash=8 --nodes "$NODES" \
    --games "$GAMES" --concurrency 2 --openings "$BOOK" --openings-order random --seed 3 \
    --move-timeout 120000 --pgn "$work/games.pgn" >"$work/match.log" 2>&1 || true
played=$(grep -c '^\[Result "' "$work/games.pgn" || true)
failures=$(grep '^Game [0-9]*: ' "$work/match.log" |
    grep -Ec 'disconnects|hangs|illegal|fails to start' || true)
reports=$(find "$work" -name 'tsan.*' | wc -l)
echo "tsan-smp-games: $played of $GAMES games (2 threads each, $NODES nodes a move) in" \
    "$(($(date +%s) - start)) s: $reports ThreadSanitizer reports, $failures engine failures"
for report in "$work"/tsan.*; do
    [[ -e $report ]] || continue
    echo "--- $report" && head -n 60 "$report"
done
[[ $reports -eq 0 && $failures -eq 0 && $played -ge $GAMES ]]

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Time-forfeit check: Axon against itself at 1+0.01 (its default Move Overhead) from the UHO
# book, two games at a time. Prints the games played and the time forfeits; there must be none,
# since a fast clock is where a time manager that cuts it too fine loses games for nothing.
#
# Usage: bench/time-forfeit.sh [GAMES]        (default 100)
# Environment: AXON (binary, default ./axon, build-release/axon or build/axon),
#              BOOK (default ../shared/data/books/UHO_4060_v4.epd), TC (default 1+0.01),
#              MARGIN (ms an engine may overrun its clock, default the runner's 100; 0 is strict:
#              the first millisecond past the clock loses)
# Exit status: 0 when no game was lost on time, 1 otherwise.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly GAMES=${1:-100}
readonly TC=${TC:-1+0.01}
readonly BOOK=${BOOK:-../shared/data/books/UHO_4060_v4.epd}
readonly MARGIN=${MARGIN:-100}
source bench/lib/find-axon.sh
[[ -f $BOOK ]] || { echo "no opening book $BOOK" >&2; exit 2; }

# Forfeits depend on how busy the machine is: say so beside the count.
loadBefore=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
log=$(mktemp)
pgn=$(mktemp)
trap 'rm -f "$log" "$pgn"' EXIT
"$AXON" match --engine "cmd=$AXON" name=axon-a --engine "cmd=$AXON" name=axon-b --tc "$TC" \
    --time-margin "$MARGIN" --games "$GAMES" --concurrency 2 --openings "$BOOK" \
    --openings-order random --seed 7 --pgn "$pgn" >"$log"
played=$(grep -c '^Game [0-9]*: ' "$log" || true)
forfeits=$(grep -c '^\[Termination "time forfeit"\]' "$pgn" || true)
other=$(grep '^Game [0-9]*: ' "$log" | grep -Ec 'disconnects|hangs|illegal|fails to start' || true)
grep '^  ' "$log" | head -3
echo "time control $TC, margin $MARGIN ms: games $played, time forfeits $forfeits, other engine failures $other" \
    "(load average before: $loadBefore, after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'))"
grep 'loses on time' "$log" || true
[[ $forfeits -eq 0 && $other -eq 0 && $played -ge $GAMES ]]

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Lazy SMP scaling: nodes per second of one search at 1 and at N threads on the same positions,
# and (with --games G) Elo of N threads against 1 thread at a short time control, one game at a
# time so each engine has every core while it thinks.
#
# Usage: bench/smp.sh [--threads N] [--movetime MS] [--games G] [--tc TC]
#        (defaults: 2 threads, 4000 ms per position, no match, 5+0.05)
# Environment: AXON (binary, default ./axon, build-release/axon or build/axon),
#              BOOK (default ../shared/data/books/UHO_4060_v4.epd), SEED (opening order, 3)
# The match adjudicates as bench/strength.sh does (resign at 10 pawns for 3 moves, draw after
# move 40 at |score| <= 0.10 for 8 moves) to shorten decided games.
# Run it on an idle machine: other load takes cores from the threaded search.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
threads=2 movetime=4000 games=0 tc=5+0.05
while (($#)); do
    case $1 in
    --threads) threads=$2; shift 2 ;;
    --movetime) movetime=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --tc) tc=$2; shift 2 ;;
    -h | --help) sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "smp.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
readonly BOOK=${BOOK:-../shared/data/books/UHO_4060_v4.epd}
source bench/lib/find-axon.sh

# A middlegame, an open position, Kiwipete and an endgame.
readonly POSITIONS=(
    "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8"
    "r2q1rk1/1b2bppp/p2ppn2/1p6/3NPP2/1BN5/PPP3PP/R2Q1RK1 w - - 0 12"
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    "8/5pk1/6p1/3R4/4P3/1r4P1/5PK1/8 w - - 0 40"
)

# nps THREADS FEN: the engine's last reported nps for a movetime search.
nps() {
    printf 'setoption name Threads value %s\nsetoption name Hash value 64\nucinewgame\nposition fen %s\ngo movetime %s\n' \
        "$1" "$2" "$movetime" | "$AXON" | grep -o ' nps [0-9]*' | tail -n 1 | awk '{ print $2 }'
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %12s %12s %7s\n' position "nps 1 thr" "nps $threads thr" ratio
sum1=0 sumN=0 i=0
for fen in "${POSITIONS[@]}"; do
    i=$((i + 1))
    one=$(nps 1 "$fen")
    many=$(nps "$threads" "$fen")
    sum1=$((sum1 + one)) sumN=$((sumN + many))
    printf '%-8s %12s %12s %7.2f\n' "$i" "$one" "$many" "$(awk -v a="$many" -v b="$one" 'BEGIN { print a / b }')"
done
printf '%-8s %12s %12s %7.2f\n' all "$sum1" "$sumN" "$(awk -v a="$sumN" -v b="$sum1" 'BEGIN { print a / b }')"

if ((games > 0)); then
    "$AXON" match --engine "cmd=$AXON" name="Axon-${threads}t" option.Threads="$threads" option.Hash=16 \
        --engine "cmd=$AXON" name=Axon-1t option.Threads=1 option.Hash=16 --tc "$tc" \
        --games "$games" --concurrency 1 --openings "$BOOK" --openings-order random --seed "${SEED:-3}" \
        --resign movecount=3 score=1000 --draw movenumber=40 movecount=8 score=10 |
        grep -v '^Game '
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Perft speed, Axon against Stockfish (Debian's package), single thread, on the usual perft
# positions. Both programs must report the same node count (and the published one). Times are
# wall-clock around each run, minus the program's start-up time measured with a trivial run
# (Axon builds its attack tables, Stockfish its tables and network); best of REPEATS runs.
# Prints a Markdown table (docs/performance.md holds one measured with this script).
#
# Usage: bench/perft.sh            Environment: REPEATS (default 3), AXON (binary to measure;
#                                  default: built now with `make EXE=axon`)
set -euo pipefail
# A failing run inside $(...) must stop the script, not yield an empty count.
shopt -s inherit_errexit

cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly REPEATS=${REPEATS:-3}
# Debian installs games, Stockfish included, in /usr/games.
export PATH=$PATH:/usr/games

# name | depth | expected nodes (chessprogramming.org perft results) | FEN
readonly POSITIONS=(
    "startpos|6|119060324|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "kiwipete|5|193690690|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    "position 3|7|178633661|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
    "position 4|6|706045033|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
    "position 5|5|89941194|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
)

log() { echo "perft.sh: $*" >&2; }

nowNs() { date +%s%N; }

# Stockfish is only for this benchmark, so the test dependencies do not include it.
ensureStockfish() {
    command -v stockfish >/dev/null && return
    log "installing stockfish"
    local sudo=()
    [[ $EUID -ne 0 ]] && sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stockfish
    command -v stockfish >/dev/null
}

# Release build through the same Makefile the engine-testing frameworks use (incremental).
ensureAxon() {
    if [[ -z ${AXON:-} ]]; then
        make EXE=axon >/dev/null
        AXON=$PWD/axon
    fi
    [[ -x $AXON ]]
}

# The commands, each writing its output to stdout.
runAxon() { "$AXON" perft "$1" "$2" --no-divide; }
startAxon() { "$AXON" perft 1 >/dev/null; }
runStockfish() { printf 'position fen %s\ngo perft %s\nquit\n' "$2" "$1" | stockfish; }
startStockfish() { printf 'quit\n' | stockfish >/dev/null; }

# bestNs COMMAND ARGS...: the shortest wall-clock time of REPEATS runs, in nanoseconds; the
# last run's output is left in $WORK/out.
bestNs() {
    local best="" i start elapsed
    for ((i = 0; i < REPEATS; ++i)); do
        start=$(nowNs)
        "$@" >"$WORK/out"
        elapsed=$(($(nowNs) - start))
        if [[ -z $best || $elapsed -lt $best ]]; then best=$elapsed; fi
    done
    echo "$best"
}

nodesIn() { sed -n 's/^Nodes searched: *\([0-9]*\).*/\1/p' "$WORK/out" | tail -n 1; }

# nodes / (ns - startupNs) in nodes per second, as an integer.
nodesPerSecond() { awk -v n="$1" -v t="$2" -v s="$3" 'BEGIN { d = t - s; if (d < 1) d = 1; printf "%.0f", n * 1e9 / d }'; }

main() {
    ensureStockfish
    ensureAxon
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT

    local axonStart sfStart
    axonStart=$(bestNs startAxon)
    sfStart=$(bestNs startStockfish)
    log "start-up: axon $((axonStart / 1000000)) ms, stockfish $((sfStart / 1000000)) ms (subtracted)"

    local entry name depth expected fen axonNs sfNs axonNodes sfNodes axonNps sfNps mismatch=0
    echo "| position | depth | nodes | Axon nodes/s | Stockfish nodes/s | Axon / Stockfish |"
    echo "|---|---:|---:|---:|---:|---:|"
    for entry in "${POSITIONS[@]}"; do
        IFS='|' read -r name depth expected fen <<<"$entry"
        axonNs=$(bestNs runAxon "$depth" "$fen")
        axonNodes=$(nodesIn)
        sfNs=$(bestNs runStockfish "$depth" "$fen")
        sfNodes=$(nodesIn)
        if [[ $axonNodes != "$sfNodes" ]] || [[ $sfNodes != "$expected" ]]; then
            log "$name depth $depth: axon $axonNodes, stockfish $sfNodes, expected $expected"
            mismatch=1
        fi
        axonNps=$(nodesPerSecond "$axonNodes" "$axonNs" "$axonStart")
        sfNps=$(nodesPerSecond "$sfNodes" "$sfNs" "$sfStart")
        printf '| %s | %d | %s | %s | %s | %s |\n' "$name" "$depth" "$axonNodes" \
            "$(awk -v x="$axonNps" 'BEGIN { printf "%.1f M", x / 1e6 }')" \
            "$(awk -v x="$sfNps" 'BEGIN { printf "%.1f M", x / 1e6 }')" \
            "$(awk -v a="$axonNps" -v b="$sfNps" 'BEGIN { printf "%.2f", a / b }')"
    done
    if [[ $mismatch -ne 0 ]]; then
        log "node counts disagree"
        return 1
    fi
}

main "$@"

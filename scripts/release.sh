#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds a release into OUT (docs/releases.md): static engine binaries for Linux and Windows at
# the x86-64 levels testers expect (x86-64, v2, v3, v4), aarch64 Linux when Debian's cross
# compiler is installed, SHA256SUMS and RELEASE-NOTES.md. Every binary is checked before it is
# listed: bench equal to this machine's native build, a UCI session (Windows builds under wine,
# aarch64 under qemu-user), and a build for a newer CPU than qemu's emulated Nehalem refuses to
# start with a message instead of dying of SIGILL. A check that cannot run here (no wine, no
# qemu, a CPU without AVX-512 for the v4 build) is named in the notes, never counted as passed.
#
# With SYZYGY=DIR (Syzygy tables), every binary run here also loads the tables and searches seven
# table positions to the same lines and moves as the native build (Windows: MapViewOfFile under
# wine; aarch64: under qemu).
#
# Usage: [SYZYGY=DIR] scripts/release.sh OUT   (scripts/install-deps.sh --release installs the tools)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:?usage: scripts/release.sh OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)
version=$(<VERSION)
commit=$(git rev-parse --short=10 HEAD)
git diff --quiet HEAD -- || echo "release.sh: warning: the tree has uncommitted changes" >&2
levels=(x86-64 x86-64-v2 x86-64-v3 x86-64-v4)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export WINEDEBUG=-all WINEPREFIX=${WINEPREFIX:-$work/wine}
log() { echo "release.sh: $*" >&2; }
checks=()  # one line per binary for the notes
skipped=() # checks that could not run here

build() { # NAME ARCH CXX
    log "building $1"
    nice -n 5 make -s EXE="$out/$1" ARCH="$2" CXX="$3" STATIC=ON WERROR=ON >/dev/null
}

# benchOf RUNNER... BINARY: the signature from `bench`'s last line.
benchOf() { "$@" bench | tail -n 1 | cut -d' ' -f1; }

# uciSession RUNNER... BINARY: a handshake, a search and a legal reply.
uciSession() {
    local reply
    reply=$(printf 'uci\nisready\nposition startpos moves e2e4\ngo depth 6\n' | timeout 120 "$@")
    grep -q "^id name Axon $version" <<<"$reply" && grep -q '^readyok' <<<"$reply" &&
        grep -Eq '^bestmove [a-h][1-8][a-h][1-8]' <<<"$reply"
}

# Tablebase positions (3-4 pieces, both sides to move, wins and draws) for the SYZYGY check.
readonly TABLEBASE_FENS=(
    "8/8/8/4k3/8/8/8/KQ6 w - - 0 1" "8/8/8/8/3k4/8/8/R3K3 w - - 0 1"
    "8/8/8/4k3/8/8/8/KBN5 w - - 0 1" "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1"
    "8/8/8/3k4/8/2b5/8/R3K3 w - - 0 1" "8/8/8/3rk3/8/8/8/KQ6 w - - 0 1"
    "8/8/8/8/8/2k5/7q/K7 b - - 0 1")

# tablebaseSession DIR RUNNER... BINARY: the tables found, then each position's last search line
# (time and nps left out: the rest is deterministic at fixed nodes) and best move. Each search
# runs to its bestmove before the next position is sent, so no command cuts one short. An engine
# that dies or goes silent (60 s) ends the session early: its output then differs from the
# reference, which the caller reports.
tablebaseSession() {
    local dir=$1 fen line last to from pid
    shift
    coproc engine { timeout 300 "$@" 2>&1; }
    # Bash unsets the coproc's variables when it reaps the process: keep copies.
    pid=$engine_PID
    exec {from}<&"${engine[0]}" {to}>&"${engine[1]}"
    trap '' PIPE # a write to an engine that died fails instead of killing the script
    {
        printf 'uci\nsetoption name SyzygyPath value %s\nisready\n' "$dir" >&"$to" || true
        while read -r -t 60 line <&"$from"; do
            line=${line%$'\r'}
            [[ $line == "info string Found"* ]] && echo "$line"
            [[ $line == readyok ]] && break
        done
        for fen in "${TABLEBASE_FENS[@]}"; do
            printf 'ucinewgame\nposition fen %s\ngo nodes 5000\n' "$fen" >&"$to" || break
            last=""
            while read -r -t 60 line <&"$from"; do
                line=${line%$'\r'}
                [[ $line == "info depth"*" pv "* ]] && last=$line
                if [[ $line == bestmove* ]]; then
                    sed -E 's/ (time|nps) [0-9]+//g' <<<"$last"
                    echo "$line"
                    break
                fi
            done
        done
        echo quit >&"$to" || true
    }
    exec {to}>&- {from}<&-
    trap - PIPE
    wait "$pid" 2>/dev/null || true
}

# check NAME RUNNER...: bench equal to the reference and a UCI session, or the release fails;
# with SYZYGY=DIR, also the tables found and the tablebase searches equal to the native build's.
check() {
    local name=$1
    shift
    local nodes tablebases=""
    nodes=$(benchOf "$@" "$out/$name")
    [[ $nodes == "$reference" ]] || { log "$name: bench $nodes, native build $reference"; exit 1; }
    uciSession "$@" "$out/$name" || { log "$name: the UCI session failed"; exit 1; }
    if [[ -n ${SYZYGY:-} ]]; then
        local dir=$SYZYGY
        [[ ${1:-} == wine ]] && dir=$(winepath -w "$SYZYGY" 2>/dev/null)
        tablebaseSession "$dir" "$@" "$out/$name" >"$work/tablebase.txt"
        if ! cmp -s "$work/tablebase.txt" "$work/tablebase-native.txt"; then
            log "$name: the tablebase searches differ from the native build's:"
            diff "$work/tablebase-native.txt" "$work/tablebase.txt" >&2 || true
            exit 1
        fi
        tablebases=", tablebases ($tablebaseSummary)"
    fi
    checks+=("| \`$name\` | bench $nodes, UCI session$tablebases${*:+ (under $1)} |")
}

cpuHas() { grep -qw "$1" /proc/cpuinfo; }

# The reference: this machine's own build (-march=native), the signature every binary must give.
make -s EXE="$work/axon-native" >/dev/null
reference=$(benchOf "$work/axon-native")
log "native bench $reference"
if [[ -n ${SYZYGY:-} ]]; then
    SYZYGY=$(cd "$SYZYGY" && pwd)
    tablebaseSession "$SYZYGY" "$work/axon-native" >"$work/tablebase-native.txt"
    # The reference must have used the tables: the tables found, and probes in every search.
    found=$(sed -n 's/^info string Found \([0-9]*\) tablebases.*/\1/p' "$work/tablebase-native.txt")
    probed=$(grep -c ' tbhits [1-9]' "$work/tablebase-native.txt" || true)
    if [[ -z $found || $found == 0 || $probed != "${#TABLEBASE_FENS[@]}" ]]; then
        log "the native build did not use the tables in $SYZYGY:"; cat "$work/tablebase-native.txt" >&2; exit 1
    fi
    tablebaseSummary="$found tables found, ${#TABLEBASE_FENS[@]} table positions searched as the native build"
    log "native build: $found tables found, probes in all ${#TABLEBASE_FENS[@]} table searches"
fi

# Linux, x86-64.
for level in "${levels[@]}"; do
    name=axon-$version-linux-$level
    build "$name" "$level" g++
    if [[ $level == x86-64-v4 ]] && ! cpuHas avx512bw; then
        skipped+=("$name: not run (this CPU has no AVX-512)")
        checks+=("| \`$name\` | built; not run here (no AVX-512) |")
        continue
    fi
    check "$name"
done
# The CPU check: a v3 and a v4 build under qemu's Nehalem (SSE4.2, no AVX) must refuse to start.
if command -v qemu-x86_64 >/dev/null; then
    for level in x86-64-v3 x86-64-v4; do
        name=axon-$version-linux-$level
        rc=0
        qemu-x86_64 -cpu Nehalem "$out/$name" bench >"$work/refused.txt" 2>&1 || rc=$?
        if [[ $rc -ne 1 ]] || ! grep -q 'use a build for x86-64-v2 or lower' "$work/refused.txt"; then
            log "$name on a Nehalem CPU: exit $rc, $(cat "$work/refused.txt")"
            exit 1
        fi
    done
    cpuCheck="the x86-64-v3 and v4 builds run on qemu's emulated Nehalem refuse to start and name the x86-64-v2 build"
else
    cpuCheck="not run (no qemu-x86_64)"
    skipped+=("the CPU check: no qemu-x86_64")
fi

# Windows, x86-64 (MinGW-w64 with POSIX threads, for std::thread).
mingw=x86_64-w64-mingw32-g++-posix
if command -v "$mingw" >/dev/null; then
    for level in "${levels[@]}"; do
        name=axon-$version-windows-$level.exe
        build "$name" "$level" "$mingw"
        if ! command -v wine >/dev/null; then
            skipped+=("$name: not run (no wine)")
            checks+=("| \`$name\` | built; not run here (no wine) |")
        elif [[ $level == x86-64-v4 ]] && ! cpuHas avx512bw; then
            skipped+=("$name: not run (this CPU has no AVX-512)")
            checks+=("| \`$name\` | built; not run here (no AVX-512) |")
        else
            check "$name" wine
        fi
    done
else
    skipped+=("Windows builds: no $mingw")
fi

# Linux, aarch64 (NEON is part of the base instruction set).
if command -v aarch64-linux-gnu-g++ >/dev/null; then
    name=axon-$version-linux-aarch64
    build "$name" none aarch64-linux-gnu-g++
    if command -v qemu-aarch64 >/dev/null; then
        check "$name" qemu-aarch64
    else
        skipped+=("$name: not run (no qemu-aarch64)")
        checks+=("| \`$name\` | built; not run here (no qemu-aarch64) |")
    fi
else
    skipped+=("aarch64 build: no aarch64-linux-gnu-g++")
fi

(cd "$out" && rm -f SHA256SUMS && sha256sum axon-"$version"-* >SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS)

# The notes: docs/release-notes.md's section for this version, then what this run built and
# checked.
{
    awk -v v="$version" '/^## / { keep = ($2 == v) } keep' docs/release-notes.md
    echo
    echo "### This build"
    echo
    "$work/axon-native" --version | sed 's/^/    /'
    echo
    echo "Built from commit $commit on $(date -u +%Y-%m-%d) by scripts/release.sh with $(g++ --version | head -n 1)."
    echo "Every binary was checked on this machine before it was listed:"
    echo
    echo "| file | checks |"
    echo "|---|---|"
    printf '%s\n' "${checks[@]}"
    echo
    echo "Reference: the native build's bench, $reference nodes. CPU check: $cpuCheck."
    if ((${#skipped[@]})); then
        echo
        echo "Not checked here:"
        printf -- '- %s\n' "${skipped[@]}"
    fi
    echo
    echo "Checksums: SHA256SUMS (\`sha256sum -c SHA256SUMS\`)."
} >"$out/RELEASE-NOTES.md.tmp"
mv "$out/RELEASE-NOTES.md.tmp" "$out/RELEASE-NOTES.md"
log "done: $(wc -l <"$out/SHA256SUMS") binaries in $out"

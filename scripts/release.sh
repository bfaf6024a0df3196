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
# Usage: scripts/release.sh OUT        (scripts/install-deps.sh --release installs the tools)
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

# check NAME RUNNER...: bench equal to the reference and a UCI session, or the release fails.
check() {
    local name=$1
    shift
    local nodes
    nodes=$(benchOf "$@" "$out/$name")
    [[ $nodes == "$reference" ]] || { log "$name: bench $nodes, native build $reference"; exit 1; }
    uciSession "$@" "$out/$name" || { log "$name: the UCI session failed"; exit 1; }
    checks+=("| \`$name\` | bench $nodes, UCI session${*:+ (under $1)} |")
}

cpuHas() { grep -qw "$1" /proc/cpuinfo; }

# The reference: this machine's own build (-march=native), the signature every binary must give.
make -s EXE="$work/axon-native" >/dev/null
reference=$(benchOf "$work/axon-native")
log "native bench $reference"

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

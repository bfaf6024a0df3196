#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The compiler-only engine's command line (src/app/engine_main.cpp, `make EXE=...`): --version,
# bench (the signature pinned in tests/bench-signature, equal to the full tool's), perft, the
# UCI handshake with the version, OpenBench's genfens line, and bad usage refused with exit 2.
# Usage: engine_only_cli.sh ENGINE FULL_TOOL SIGNATURE_FILE
set -euo pipefail
engine=$1
tool=$2
pinned=$(<"$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# --version: four facts, the same as the full tool's.
"$engine" --version >"$work/version.txt"
grep -Eq '^Axon [0-9]+\.[0-9]+\.[0-9]+$' "$work/version.txt" || fail "version line: $(cat "$work/version.txt")"
grep -Eq '^commit ([0-9a-f]{7,40}(-dirty)?|unknown)$' "$work/version.txt" || fail "no commit line"
grep -Eq '^instruction set .+' "$work/version.txt" || fail "no instruction set line"
grep -Eq '^network [0-9a-f]{16}$' "$work/version.txt" || fail "no network hash line"
"$tool" --version >"$work/tool-version.txt"
diff "$work/version.txt" "$work/tool-version.txt" || fail "the engine and the full tool describe different builds"
version=$(sed -n 's/^Axon //p' "$work/version.txt")

# bench: the default depth gives the pinned signature (update tests/bench-signature in the commit
# that changes search behaviour); a depth and an eval file are taken as the full tool takes them.
nodes=$("$engine" bench | tail -n 1 | cut -d' ' -f1)
[[ $nodes == "$pinned" ]] ||
    fail "bench is $nodes nodes, tests/bench-signature says $pinned: a commit that changes the search updates the file and says the new count"
[[ $("$engine" bench 5 | tail -n 1 | cut -d' ' -f1) == $("$tool" bench 5 | tail -n 1 | cut -d' ' -f1) ]] ||
    fail "bench 5 differs from the full tool's"
[[ $("$engine" bench 3 --eval-file '<pst>' | tail -n 1 | cut -d' ' -f1) == \
    $("$tool" bench 3 --eval-file '<pst>' | tail -n 1 | cut -d' ' -f1) ]] || fail "bench with <pst> differs"

# perft: a position's count and a suite.
"$engine" perft 4 --no-divide | grep -q '^Nodes searched: 197281$' || fail "perft 4 of the start position"
kiwipete='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
# shellcheck disable=SC2086 # the FEN's fields as separate arguments, as a shell user types them
"$engine" perft 3 $kiwipete --no-divide | grep -q '^Nodes searched: 97862$' || fail "perft 3 of kiwipete"
printf '%s ;D1 48 ;D2 2039\n' "$kiwipete" >"$work/suite.epd"
"$engine" perft --suite "$work/suite.epd" >"$work/suite.txt" || { cat "$work/suite.txt"; fail "perft suite"; }
printf '%s ;D1 47\n' "$kiwipete" >"$work/bad-suite.epd"
if "$engine" perft --suite "$work/bad-suite.epd" >/dev/null 2>&1; then fail "a wrong suite count passed"; fi

# UCI: the handshake names the version; a search answers.
printf 'uci\nisready\nposition startpos moves e2e4\ngo depth 5\n' | "$engine" >"$work/uci.txt"
grep -q "^id name Axon $version\$" "$work/uci.txt" || fail "id name does not carry the version"
grep -q '^readyok$' "$work/uci.txt" || fail "no readyok"
grep -Eq '^bestmove [a-h][1-8][a-h][1-8]' "$work/uci.txt" || fail "no bestmove"

# OpenBench's genfens, as UCI lines on the command line.
"$engine" "genfens 4 seed 7 book None" "quit" >"$work/genfens.txt"
[[ $(grep -c '^info string genfens ' "$work/genfens.txt") -eq 4 ]] || { cat "$work/genfens.txt"; fail "genfens did not give 4 openings"; }

# Bad usage: exit 2 and a message; the full tool's commands are named as the full tool's.
expectUsageError() {
    local rc=0
    "$engine" "$@" >/dev/null 2>"$work/err.txt" || rc=$?
    [[ $rc -eq 2 ]] || fail "'$*' exited with $rc, not 2"
    [[ -s $work/err.txt ]] || fail "'$*' said nothing"
}
expectUsageError serve
grep -q 'full tool' "$work/err.txt" || fail "serve's refusal does not point to the full tool"
expectUsageError bench 0
expectUsageError bench 7 8
expectUsageError bench --eval-file
expectUsageError perft 21
expectUsageError perft x
expectUsageError perft --threads 0
expectUsageError perft --max-nodes -1
rc=0
"$engine" bench 2 --eval-file "$work/no-such.nnue" >/dev/null 2>"$work/err.txt" || rc=$?
[[ $rc -eq 2 ]] && grep -q 'no-such.nnue' "$work/err.txt" || fail "a missing eval file: rc $rc, $(cat "$work/err.txt")"
"$engine" --help | grep -q 'axon bench' || fail "--help"
echo "engine-only CLI: all checks passed (bench $nodes)"

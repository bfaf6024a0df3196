#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs one libFuzzer target of build-fuzz for a bounded time (scripts/test.sh's fuzz step, 20 s
# each; bench/fuzz-long.sh, minutes each). The target starts from its checked-in seeds
# (tests/fuzz/corpus/NAME) plus whatever corpus DIR already holds from an earlier run, with its
# dictionary (tests/fuzz/NAME.dict) when there is one. On success it prints one line:
#   fuzz_NAME: ok, RUNS runs in SECONDS s (EXEC_PER_S/s), corpus INPUTS inputs, new coverage COV
# On a crash, leak, timeout or out-of-memory it prints the end of the log and the input
# (base64), keeps the input in build-fuzz/artifacts/, and exits non-zero.
#
# Usage: scripts/fuzz-target.sh NAME SECONDS DIR
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

name=$1 seconds=$2 dir=$3
binary=build-fuzz/tests/fuzz/fuzz_$name
seeds=tests/fuzz/corpus/$name
log() { echo "fuzz-target: $*"; }

# Longest input per target: enough for any real line, file or a few games, small enough to
# stay fast.
maxLen() {
    case $1 in
    fen) echo 256 ;;
    san) echo 64 ;;
    epd) echo 1024 ;;
    pgn | ws_json) echo 8192 ;;
    nnue | safetensors) echo 131072 ;; # the smallest real network file is 49 KB
    tablebase) echo 65536 ;;           # the seeds are real tables of up to 54 KB
    uci | http) echo 2048 ;;
    *) echo 4096 ;;
    esac
}

if [[ ! -x $binary ]]; then
    log "fuzz_$name: not built ($binary)"
    exit 1
fi
if [[ ! -d $seeds ]] || [[ -z $(ls -A "$seeds") ]]; then
    log "fuzz_$name: no seed corpus in $seeds"
    exit 1
fi
# libFuzzer adds what it finds to the corpus folder: give it DIR/corpus, never the repository's.
mkdir -p "$dir/corpus"
cp -r "$seeds/." "$dir/corpus/"
options=(-max_total_time="$seconds" -max_len="$(maxLen "$name")" -timeout=10
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$dir/")
[[ -f tests/fuzz/$name.dict ]] && options+=(-dict="tests/fuzz/$name.dict")
rm -f "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-*
rc=0
"$binary" "${options[@]}" "$dir/corpus" >"$dir/log" 2>&1 || rc=$?
if [[ $rc -ne 0 ]]; then
    log "fuzz_$name: FAILED (exit $rc); the end of its log:"
    tail -n 80 "$dir/log"
    artifacts=build-fuzz/artifacts
    mkdir -p "$artifacts"
    for crash in "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-*; do
        [[ -e $crash ]] || continue
        cp "$crash" "$artifacts/fuzz_$name-${crash##*/}"
        log "input kept as $artifacts/fuzz_$name-${crash##*/} (replay: $binary FILE); base64:"
        base64 "$crash" | head -n 40
    done
    exit 1
fi
stat() { grep -oE "stat::$1: *[0-9]+" "$dir/log" | grep -oE '[0-9]+$' || echo '?'; }
echo "fuzz_$name: ok, $(stat number_of_executed_units) runs in ${seconds} s" \
    "($(stat average_exec_per_sec)/s), corpus $(find "$dir/corpus" -type f | wc -l) inputs," \
    "new coverage $(stat new_units_added)"

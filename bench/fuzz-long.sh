#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Long fuzzing: every libFuzzer target (or the ones named) for SECONDS each, one after the other,
# on the corpus kept from earlier long runs (build-fuzz/long/NAME/corpus, grown by each run, not
# in git) plus the checked-in seeds. Prints one line per target (runs, runs per second, corpus,
# new inputs) and a closing count; a crash's input is kept in build-fuzz/artifacts/ and its
# report shown (scripts/fuzz-target.sh). Builds build-fuzz first as scripts/test.sh does.
#
# Usage: bench/fuzz-long.sh [SECONDS] [TARGET...]     (default 600 s, every target)
#   NICE=19 bench/fuzz-long.sh 600     runs it at low priority beside other work
#   JOBS=2 bench/fuzz-long.sh 600      runs two targets at a time (one core each)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${1:-600}
shift || true
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    for source in tests/fuzz/fuzz_*.cpp; do
        name=${source##*/fuzz_}
        targets+=("${name%.cpp}")
    done
fi

cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DAXON_FUZZ=ON \
    -DAXON_SANITIZE=address,undefined -DAXON_BUILD_TESTS=OFF -DAXON_WERROR=ON >/dev/null
cmake --build build-fuzz --parallel "$(nproc)" >/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "fuzz-long: ${#targets[@]} targets, ${seconds} s each, $(date -u +%FT%TZ), $(nproc) cores," \
    "load $(cut -d' ' -f1-3 /proc/loadavg)"
jobs=${JOBS:-1}
failed=0
running=0
for name in "${targets[@]}"; do
    if ((running >= jobs)); then
        wait -n || failed=$((failed + 1))
        running=$((running - 1))
    fi
    nice -n "${NICE:-0}" bash scripts/fuzz-target.sh "$name" "$seconds" "build-fuzz/long/$name" &
    running=$((running + 1))
done
while ((running > 0)); do
    wait -n || failed=$((failed + 1))
    running=$((running - 1))
done
echo "fuzz-long: $((${#targets[@]} - failed)) of ${#targets[@]} targets clean, $(date -u +%FT%TZ)"
[[ $failed -eq 0 ]]

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The test command (README, .ci/run): installs what is missing, then builds and tests Axon in
# every configuration that matters, and ends with a one-line summary.
#
#   format    clang-format --dry-run --Werror over every tracked C++ file (.clang-format)
#   release   Release, -Werror, -march=native (PEXT sliders where BMI2 exists): ctest
#   asan      ASan + UBSan, -O1 -g1 with assertions: ctest
#   tsan      ThreadSanitizer: the multi-threaded search, the UCI sessions and `axon serve`
#   portable  `make EXE=... ARCH=x86-64`, as engine-testing frameworks call it: the baseline
#             instruction set (magic-bitboard sliders, scalar network code); perft suites and
#             the bench signature equal to the native build's
#   wasm      the core and perft tool built with em++; node's counts diffed against native ones;
#             the in-browser engine (single- and multi-threaded builds) under node: bench
#             signature, best moves and error handling equal to the native engine's
#   web       the front end (npm ci, tsc, esbuild into web/dist) and its unit tests; the browser
#             tests: Playwright driving Debian's chromium against `axon serve` and the
#             WASM-only static page (screenshots in build-browser/artifacts)
#   fuzz      clang + libFuzzer + ASan/UBSan: each tests/fuzz/fuzz_<name>.cpp runs FUZZ_SECONDS
#             on a temporary copy of tests/fuzz/corpus/<name>/
#
# Usage: scripts/test.sh [STEP...]        (default: every step, in the order above)
# Environment:
#   FUZZ_SECONDS   seconds per fuzz target (default 20)
#   JOBS           parallel build and test jobs (default: number of cores)
#   AXON_SKIP_DEPS=1  do not run scripts/install-deps.sh
# Build folders: build-release, build-asan, build-tsan, build-make, build-wasm, build-wasm-engine,
# build-fuzz (git-ignored),
# reused between runs, so a second run only rebuilds what changed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly ROOT=$PWD
readonly ALL_STEPS=(format release asan tsan portable wasm web fuzz)
readonly JOBS=${JOBS:-$(nproc)}
readonly FUZZ_SECONDS=${FUZZ_SECONDS:-20}
readonly SHARED_DATA=${AXON_SHARED_DATA:-$ROOT/../shared/data}
# Debian's emscripten needs the Debian-packaged node modules (see build-wasm-perft.sh).
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
# Sanitizer reports must fail the run and say where.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/axon-test.XXXXXX")
readonly WORK
trap 'rm -rf "$WORK"' EXIT

log() { echo "test.sh: $*"; }

# Records a short note on the step's result for the summary table.
note() { echo "$*" >>"$WORK/note.$CURRENT_STEP"; }

# configure DIR CMAKE_ARGS...: configures (or reconfigures) a build folder.
configure() {
    local dir=$1
    shift
    cmake -S . -B "$dir" "$@"
}

# build DIR [TARGET...]: every target, or only those named.
build() {
    local dir=$1 targets=()
    shift
    (($# > 0)) && targets=(--target "$@")
    cmake --build "$dir" --parallel "$JOBS" "${targets[@]}"
}

# Runs a build folder's ctest, keeping its closing line for the summary.
runCtest() {
    local dir=$1
    shift
    ctest --test-dir "$dir" --parallel "$JOBS" --output-on-failure "$@" | tee "$WORK/ctest.log"
    note "$(grep -E '^[0-9]+% tests passed' "$WORK/ctest.log" | tail -n 1)"
}

# ---------------------------------------------------------------------------------------------
# format: the layout .clang-format describes, so formatting never drifts between commits. It
# checks and changes nothing; `git ls-files -z '*.cpp' '*.h' | xargs -0 clang-format -i` fixes.
step_format() {
    local files
    mapfile -d '' files < <(git ls-files -z '*.cpp' '*.h' 2>/dev/null)
    if [[ ${#files[@]} -eq 0 ]]; then
        # Not a git checkout (a source tarball): every C++ file under the project's folders.
        mapfile -d '' files < <(find src tests bench \( -name '*.cpp' -o -name '*.h' \) -print0)
    fi
    clang-format --dry-run --Werror "${files[@]}" 2>"$WORK/format.log" || {
        grep -E '^[^ ].*: (error|warning):' "$WORK/format.log" | head -n 40
        log "$(grep -cE ': (error|warning):' "$WORK/format.log") lines differ from .clang-format"
        return 1
    }
    note "${#files[@]} files match .clang-format ($(clang-format --version | grep -oE '[0-9]+\.[0-9.]+' | head -n 1))"
}

# ---------------------------------------------------------------------------------------------
# release: the configuration players and testers run.
buildRelease() {
    configure build-release -DCMAKE_BUILD_TYPE=Release -DAXON_WERROR=ON
    build build-release
}

step_release() {
    buildRelease
    runCtest build-release
}

# The sanitizer builds' flags: -O1 keeps them quick, and -g1 (line tables and functions, no
# variables) is all a sanitizer's stack trace reads while compiling about a fifth faster than -g
# (GCC 12: search.cpp 11.9 -> 9.0 s, tests/unit/search_test.cpp 5.9 -> 4.6 s; these two builds
# are most of CI's time).
readonly SANITIZER_FLAGS="-O1 -g1"

# asan: memory errors and undefined behaviour, with assertions on.
step_asan() {
    configure build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$SANITIZER_FLAGS" \
        -DAXON_SANITIZE=address,undefined -DAXON_WERROR=ON
    build build-asan
    runCtest build-asan
}

# tsan: data races between search threads, and between the UCI reader and the search thread.
step_tsan() {
    configure build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$SANITIZER_FLAGS" \
        -DAXON_SANITIZE=thread -DAXON_WERROR=ON
    # Only what the step runs: the engine (cli tests) and the unit tests (of the files
    # tests/CMakeLists.txt keeps for this build, every one of which the filter below runs), not
    # the fuzz-seed replays, the tune build's tests or the server load tool.
    build build-tsan axon axon_tests
    # Long tests that add no thread interleavings of their own are left out to keep CI short:
    # the tournament CLI test (the runner's threads are cli.match's and the Match* tests'), the
    # skill-strength comparison (one search thread, like the other SkillSearch tests), and the
    # single-threaded network, conversion, PyTorch, kill-and-resume, genfens (one search thread
    # per process; 81 s under TSan), bench, the engine-only binary's and reproducibility (one
    # thread, by definition) command-line tests, and the grow loop's (its threads are datagen's
    # jobs and the gate's match runner, which cli.datagen and cli.match run here; its kill-and-
    # resume rounds ran past the 300 s limit under TSan on CI's two cores, 2026-12-04).
    TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1} \
        runCtest build-tsan -R 'Search|TranspositionTable|History|Bench|Match|Server|Uci|Skill|cli\.' \
        -E 'cli\.(match_tournament|net|convert|torch_interop|wdl_data|kill_resume|genfens|bench_deterministic|engine_only|reproducibility|grow)|WeakerSettingsPlayWorseMoves'
}

# portable: the wrapper engine-testing frameworks call (OpenBench: make EXE=name ARCH=...
# [CXX=...]), building for the baseline x86-64 instruction set: no BMI2, so magic-bitboard
# sliders instead of PEXT, and the scalar network code. The unit tests of those paths run in the
# native build (NnSimdBackend/scalar, the magic tables' own tests); here the whole engine built
# that way must count perft and search bench exactly as the native build does.
# The engine's build needs a C++ compiler and make alone (issue 48): it runs with a PATH that
# holds only those, the compiler's assembler and linker and the few file tools make's recipes
# call (no cmake, pkg-config or git), and every <header> its sources include must be the
# standard library's or the operating system's, never a third-party library's. `touch` is GCC's:
# its LTO driver keeps each partition's timestamp with `-touch` (without it every link printed
# "Error 127 (ignored)" per partition).
compilerOnlyPath() {
    local bin=$WORK/compiler-only-bin tool
    mkdir -p "$bin"
    for tool in make g++ as ld cp mv mkdir rm cat cut cmp nproc touch; do
        ln -sf "$(command -v "$tool")" "$bin/$tool"
    done
    echo "$bin"
}

checkEngineIncludes() {
    local sources headers foreign
    sources=$(make -s print-sources)
    headers=$(ls src/{chess,util,tablebase,eval,search,engine,uci}/*.h src/nn/*.h)
    # shellcheck disable=SC2086 # file lists, split on purpose
    foreign=$(grep -ho '^#include <[^>]*>' $sources $headers | sort -u | sed 's/#include <\(.*\)>/\1/' |
        grep -Ev '^(sys/[a-z]+|fcntl|unistd|signal|windows|io|malloc|immintrin|arm_neon|wasm_simd128|emscripten[a-z/_]*)\.h$' |
        grep -Ev '^[a-z_]+$' || true)
    if [[ -n $foreign ]]; then
        log "the compiler-only engine includes headers outside the standard library: $foreign"
        return 1
    fi
}

step_portable() {
    checkEngineIncludes
    PATH=$(compilerOnlyPath) make EXE="$WORK/axon-portable" ARCH=x86-64 WERROR=ON >/dev/null
    # The README's first command run again while its server is up: make replaces the running
    # binary (nothing to rebuild here, only the copy), where a plain cp says "Text file busy".
    mkfifo "$WORK/portable-stdin"
    "$WORK/axon-portable" <"$WORK/portable-stdin" >/dev/null &
    local running=$!
    exec 3>"$WORK/portable-stdin" # the engine's input held open: it waits for commands
    sleep 0.5
    local replaced=0
    PATH=$(compilerOnlyPath) make EXE="$WORK/axon-portable" ARCH=x86-64 >/dev/null || replaced=$?
    kill -0 "$running" || { log "the engine started for the rebuild check exited early"; return 1; }
    exec 3>&- # end of input: the engine quits
    wait "$running" || true
    if [[ $replaced -ne 0 ]]; then
        log "make could not replace a running $WORK/axon-portable"
        return 1
    fi
    head -n 120 "$SHARED_DATA/perft/fischer.epd" >"$WORK/fischer-head.epd"
    head -n 800 "$SHARED_DATA/perft/random.perft" >"$WORK/random-head.perft"
    local suite
    for suite in "$SHARED_DATA/perft/standard.epd --max-nodes 20000000" \
        "$WORK/fischer-head.epd --max-nodes 2000000" \
        "$SHARED_DATA/perft/tricky.perft --max-nodes 50000000" \
        "$WORK/random-head.perft --max-nodes 1000000"; do
        # shellcheck disable=SC2086 # the suite and its options, split on purpose
        "$WORK/axon-portable" perft --suite $suite >"$WORK/portable-perft.log" || {
            log "portable perft failed: $suite"
            grep -A1 '^FAIL' "$WORK/portable-perft.log" | head -n 40
            return 1
        }
    done
    # bench is the search's signature: the same node count whatever the instruction set.
    buildRelease
    local native portable
    native=$(build-release/axon bench | tail -n 1 | cut -d' ' -f1)
    portable=$("$WORK/axon-portable" bench | tail -n 1 | cut -d' ' -f1)
    if [[ $native != "$portable" ]]; then
        log "bench differs: native $native nodes, portable $portable nodes"
        return 1
    fi
    note "make EXE=... ARCH=x86-64 with a compiler alone: perft suites pass; bench $native nodes on both builds"
}

# ---------------------------------------------------------------------------------------------
# wasm: the chess core compiled by em++ must count exactly what the native build counts.

# Drops the timing from the closing "N checks, ..." line, which is all that may differ.
withoutTimes() { sed -E 's/, [0-9.]+ s, [0-9]+ nodes\/s$//' "$1"; }

# comparePerft LABEL SUITE [OPTIONS...]: runs the suite natively and under node; both must pass
# every check, and their outputs must be equal line for line.
comparePerft() {
    local label=$1 suite=$2
    shift 2
    local native=$WORK/$label.native wasm=$WORK/$label.wasm
    local rcNative=0 rcWasm=0
    build-release/axon perft --suite "$suite" "$@" >"$native" || rcNative=$?
    node --no-experimental-fetch build-wasm/axon_perft_wasm.js "$suite" "$@" >"$wasm" || rcWasm=$?
    if [[ $rcNative -ne 0 || $rcWasm -ne 0 ]]; then
        log "$label: native exit $rcNative, wasm exit $rcWasm"
        grep -A1 '^FAIL' "$native" "$wasm" | head -n 40 || true
        return 1
    fi
    if ! diff -u <(withoutTimes "$native") <(withoutTimes "$wasm") >"$WORK/$label.diff"; then
        log "$label: native and wasm outputs differ"
        head -n 60 "$WORK/$label.diff"
        return 1
    fi
    log "$label: native and wasm agree: $(tail -n 1 "$native" | cut -d, -f1-3);" \
        "wasm $(tail -n 1 "$wasm" | cut -d, -f4- | sed 's/^ //')"
}

step_wasm() {
    buildRelease
    bash scripts/build-wasm-perft.sh build-wasm
    # Small depths of every suite: the standard set, Chess960 (Shredder-FEN castling), the
    # tricky positions (X-FEN, en-passant pins) and a slice of the random positions.
    head -n 120 "$SHARED_DATA/perft/fischer.epd" >"$WORK/fischer-head.epd"
    head -n 800 "$SHARED_DATA/perft/random.perft" >"$WORK/random-head.perft"
    comparePerft standard "$SHARED_DATA/perft/standard.epd" --max-nodes 200000
    comparePerft fischer "$WORK/fischer-head.epd" --max-nodes 50000
    comparePerft tricky "$SHARED_DATA/perft/tricky.perft" --max-nodes 1000000
    comparePerft random "$WORK/random-head.perft" --max-nodes 20000
    # The engine the web page runs: same search, same bench, same moves as the native one.
    bash scripts/build-wasm-engine.sh build-wasm-engine
    bash scripts/test-wasm-engine.sh build-wasm-engine build-release/axon
    note "perft: 4 suites equal; engine: bench and moves equal (st, mt)"
}

# ---------------------------------------------------------------------------------------------
# web: the browser app built from its lock file, then driven in a real browser.
step_web() {
    buildRelease
    # The wasm step has built the engine when it ran; otherwise build-web.sh builds it.
    if [[ -f build-wasm-engine/engine/axon-engine-worker.js ]]; then
        AXON_SKIP_WASM=1 bash scripts/build-web.sh build-wasm-engine
    else
        bash scripts/build-web.sh build-wasm-engine
    fi
    # build-web.sh has typechecked the app and the tests (npm run typecheck): the unit tests
    # alone here, not npm test, which would typecheck again.
    (cd web && node run-tests.mjs)
    bash scripts/browser-test.sh build-release/axon | tee "$WORK/browser.log"
    note "$(tail -n 1 "$WORK/browser.log")"
}

# ---------------------------------------------------------------------------------------------
# fuzz: every parser against libFuzzer's mutations, starting from the checked-in seeds.

# fuzzTarget NAME: runs one target (scripts/fuzz-target.sh), its output in $WORK/fuzz-NAME.out
# and its exit status in $WORK/fuzz-NAME.rc; on a crash the output holds the report, and the
# input is kept in build-fuzz/artifacts.
fuzzTarget() {
    local rc=0
    bash scripts/fuzz-target.sh "$1" "$FUZZ_SECONDS" "$WORK/fuzz-$1" >"$WORK/fuzz-$1.out" 2>&1 || rc=$?
    echo "$rc" >"$WORK/fuzz-$1.rc"
}

step_fuzz() {
    configure build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$SANITIZER_FLAGS" -DAXON_FUZZ=ON \
        -DAXON_SANITIZE=address,undefined -DAXON_BUILD_TESTS=OFF -DAXON_WERROR=ON
    local source name names=() failed=0 running=0
    for source in tests/fuzz/fuzz_*.cpp; do
        name=${source##*/fuzz_}
        names+=("${name%.cpp}")
    done
    # Only the fuzz targets and the libraries they link: not the axon binary, the trainer or the
    # load tool, which no target calls.
    build build-fuzz "${names[@]/#/fuzz_}"
    # Each libFuzzer process is single-threaded: JOBS targets at a time keep every core busy
    # (15 targets at 20 s: 5 minutes one after the other, 2.5 on two cores).
    for name in "${names[@]}"; do
        if ((running >= JOBS)); then
            wait -n || true
            running=$((running - 1))
        fi
        fuzzTarget "$name" &
        running=$((running + 1))
    done
    wait || true
    # Results in the targets' order, each judged by its own exit status (a missing one fails).
    for name in "${names[@]}"; do
        if [[ $(cat "$WORK/fuzz-$name.rc" 2>/dev/null) == 0 ]]; then
            log "$(cat "$WORK/fuzz-$name.out")"
        else
            cat "$WORK/fuzz-$name.out" 2>/dev/null || log "fuzz_$name: no result"
            failed=$((failed + 1))
        fi
    done
    note "$((${#names[@]} - failed))/${#names[@]} targets clean, ${FUZZ_SECONDS}s each, $JOBS at a time"
    [[ $failed -eq 0 ]]
}

# ---------------------------------------------------------------------------------------------

describeMachine() {
    log "$(nproc) cores, $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)"
    log "$(c++ --version | head -n 1); $(cmake --version | head -n 1)"
    log "$(clang++ --version 2>/dev/null | head -n 1 || echo 'no clang++')"
    log "$(em++ --version 2>/dev/null | head -n 1 || echo 'no em++'); node $(node --version 2>/dev/null || echo missing)"
}

main() {
    local steps=("$@") step
    [[ ${#steps[@]} -eq 0 ]] && steps=("${ALL_STEPS[@]}")
    for step in "${steps[@]}"; do
        if ! declare -F "step_$step" >/dev/null; then
            log "unknown step '$step' (steps: ${ALL_STEPS[*]})"
            exit 2
        fi
    done

    if [[ ${AXON_SKIP_DEPS:-0} != 1 ]]; then
        bash scripts/install-deps.sh
    fi
    describeMachine

    local passed=0 failed=0 start rc summary=()
    local total=$SECONDS
    for step in "${steps[@]}"; do
        CURRENT_STEP=$step
        echo
        log "=== $step"
        start=$SECONDS
        # A subshell with errexit of its own: any failing command ends the step (not the
        # script), so the later steps still run and the summary lists every failure.
        set +e
        (
            set -e
            "step_$step"
        )
        rc=$?
        set -e
        local status=passed
        if [[ $rc -ne 0 ]]; then
            status=FAILED
            failed=$((failed + 1))
        else
            passed=$((passed + 1))
        fi
        local notes=""
        [[ -f $WORK/note.$step ]] && notes=$(paste -sd ';' "$WORK/note.$step" | sed 's/;/; /g')
        summary+=("$(printf '%-9s %-6s %5ds  %s' "$step" "$status" $((SECONDS - start)) "$notes")")
        log "=== $step $status in $((SECONDS - start))s"
    done

    echo
    log "summary ($((SECONDS - total))s in all):"
    printf '  %s\n' "${summary[@]}"
    echo "summary: $passed passed, $failed failed"
    [[ $failed -eq 0 ]]
}

main "$@"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs with apt-get what building and testing Axon need (Debian 12 package names; Ubuntu
# works where its names match). Idempotent: when everything is already installed it only asks
# dpkg and returns at once, without touching the network. While another apt or dpkg process holds
# the package manager's lock (unattended-upgrades, another apt-get), it waits, saying which process
# it waits for, up to AXON_APT_LOCK_TIMEOUT seconds (600), then stops with what to do.
#
# Usage: scripts/install-deps.sh [--engine | --web | --bench | --torch | --release]
#   (none)    everything scripts/test.sh needs
#   --engine  only what the full tool needs (`make tool`; the engine alone, `make EXE=...`,
#             needs nothing but g++ and make)
#   --release the tool's packages plus scripts/release.sh's cross compilers, wine and qemu
#   --web     the engine's packages plus what scripts/build-web.sh needs (the browser app and
#             the in-browser WebAssembly engine): emscripten and node (npm comes with node)
#   --bench   everything (stockfish, which bench/perft.sh compares with, is a test package)
#   --torch   the same as none: PyTorch (CPU) and numpy, for scripts/torch_train.py,
#             bench/trainer-vs-torch.sh and cli.torch_interop, are test packages
set -euo pipefail

# What the full tool's build needs (make tool), and what the tests add, and why.
readonly ENGINE_PACKAGES=(
    g++ cmake make          # the native builds
    libcli11-dev            # the axon command line
    libcivetweb-dev         # `axon serve`: HTTP and WebSocket server
    nlohmann-json3-dev      # `axon serve`: the JSON protocol
    libzstd-dev pkgconf     # `axon convert`: .pgn.zst inputs (found through pkg-config)
    libbz2-dev              # `axon convert --from pgn`: OpenBench's .pgn.bz2 uploads
)
readonly RELEASE_PACKAGES=(
    g++-mingw-w64-x86-64-posix # the Windows binaries (POSIX threads, for std::thread)
    wine                    # runs them for their checks (wine64 comes with it)
    g++-aarch64-linux-gnu   # the aarch64 Linux binary
    qemu-user               # runs it, and the x86-64 builds on an emulated older CPU
)
readonly WEB_PACKAGES=(
    emscripten nodejs       # the in-browser engine (em++) and the front end's build (npm, esbuild)
)
readonly TEST_PACKAGES=(
    libgtest-dev libgmock-dev # unit tests
    clang                   # libFuzzer targets (AXON_FUZZ=ON)
    clang-format            # the format step: every C++ file as .clang-format lays it out
    emscripten nodejs       # the WebAssembly perft build and running it
    fairymax                # a real CECP (xboard) engine for the match runner's tests
    curl                    # the `axon serve` command-line test fetches pages
    bzip2                   # the web unit tests read the .pgn.bz2 files of ../shared/data/pgn
    zstd                    # cli.docs_games reads the games behind the docs (docs/games/*.pgn.zst)
    chromium                # the browser tests (tests/browser, driven by playwright-core)
    stockfish               # `axon label`'s real-teacher test (cli.label_stockfish); bench/perft.sh
    python3                 # bench/spsa.py --self-test (the SPSA update rule)
    # cli.torch_interop: scripts/torch_train.py's nets against Axon's evaluation (docs/training.md).
    # 146 MB of packages, 634 MB installed (OpenCV and Qt come with libtorch), 54 s to install on
    # Debian 12 with part of it cached; the test itself takes 5 s in Release, 6 s under ASan.
    python3-torch python3-numpy
)
# libFuzzer and clang's sanitizer runtimes for the distribution's default clang: the unversioned
# package follows it (on Debian 12 it installs libclang-rt-14-dev); where it does not exist,
# Debian 12's versioned name.
readonly CLANG_RT_CANDIDATES=(libclang-rt-dev libclang-rt-14-dev)

log() { echo "install-deps: $*" >&2; }

isInstalled() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# True when apt knows a package of that name (it has an installation candidate).
isKnown() {
    apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [^(]'
}

# Runs a command as root: directly when we are root, through sudo otherwise.
asRoot() {
    if [[ $EUID -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        log "need root (or sudo) to run: $*"
        exit 1
    fi
}

# The locks apt and dpkg take: another apt-get, unattended-upgrades or a package manager window
# holding one makes apt-get fail at once ("Could not get lock ..."), so we wait for them.
readonly APT_LOCKS=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock)
# Seconds to wait for them (AXON_APT_LOCK_TIMEOUT), then give up and say what holds them.
readonly APT_LOCK_TIMEOUT=${AXON_APT_LOCK_TIMEOUT:-600}

# The processes holding any of the locks, as "PID (command)" words; empty when none does. fuser
# (psmisc) where it exists, else /proc's open files (the locks are fcntl locks on files apt keeps
# open, so an open file is what shows; this sees every process only as root).
lockHolders() {
    local pids=() pid lock fd wanted
    if command -v fuser >/dev/null; then
        read -r -a pids <<<"$(fuser "${APT_LOCKS[@]}" 2>/dev/null || true)"
    else
        for fd in /proc/[0-9]*/fd/*; do
            lock=$(readlink "$fd" 2>/dev/null) || continue
            for wanted in "${APT_LOCKS[@]}"; do
                if [[ $lock == "$wanted" ]]; then
                    pid=${fd#/proc/}
                    pids+=("${pid%%/*}")
                fi
            done
        done
    fi
    local out=() seen=" "
    for pid in "${pids[@]}"; do
        pid=${pid//[^0-9]/}
        [[ -n $pid && $pid != "$$" && $seen != *" $pid "* ]] || continue
        seen+="$pid "
        out+=("$pid ($(tr '\0\n' '  ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-60 | sed 's/ *$//'))")
    done
    echo "${out[*]}"
}

# Waits while another process holds apt's or dpkg's lock, saying what it waits for every 15 s;
# after APT_LOCK_TIMEOUT seconds it stops with what to do.
waitForAptLocks() {
    local holders start=$SECONDS waited=0 told=0
    holders=$(lockHolders)
    [[ -z $holders ]] && return 0
    log "waiting for another package manager to finish: $holders holds the apt/dpkg lock (/var/lib/dpkg/lock-frontend); up to ${APT_LOCK_TIMEOUT} s (AXON_APT_LOCK_TIMEOUT)"
    while [[ -n $holders ]]; do
        waited=$((SECONDS - start))
        if ((waited >= APT_LOCK_TIMEOUT)); then
            log "the apt/dpkg lock is still held after ${waited} s by $holders: let it finish (or close the program) and run this script again"
            exit 1
        fi
        if ((waited - told >= 15)); then
            log "still waiting (${waited} s) for $holders to release the apt/dpkg lock"
            told=$waited
        fi
        sleep 2
        holders=$(lockHolders)
    done
    log "the apt/dpkg lock is free after $((SECONDS - start)) s"
}

# apt-get as root, once the locks are free; DPkg::Lock::Timeout also covers a process that takes
# the lock between our look and apt-get's own (apt 1.9.11 and newer; older apt ignores it).
aptGet() {
    waitForAptLocks
    asRoot env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout="$APT_LOCK_TIMEOUT" "$@"
}

aptUpdated=0
aptUpdate() {
    if [[ $aptUpdated -eq 0 ]]; then
        log "apt-get update"
        aptGet update -qq
        aptUpdated=1
    fi
}

# Sets `picked` to the first candidate already installed, else the first apt knows (updating the
# package lists once if none is known yet, as on a fresh machine whose lists are empty).
picked=""
pickPackage() {
    local name attempt
    for name in "$@"; do
        if isInstalled "$name"; then picked=$name; return; fi
    done
    for attempt in 1 2; do
        for name in "$@"; do
            if isKnown "$name"; then picked=$name; return; fi
        done
        if [[ $attempt -eq 1 ]]; then aptUpdate; fi
    done
    log "none of these packages exists here: $*"
    exit 1
}

main() {
    local wanted=("${ENGINE_PACKAGES[@]}") withClangRt=1
    case "${1:-}" in
    "") wanted+=("${TEST_PACKAGES[@]}") ;;
    --engine) withClangRt=0 ;;
    --web)
        wanted+=("${WEB_PACKAGES[@]}")
        withClangRt=0
        ;;
    --bench) wanted+=("${TEST_PACKAGES[@]}") ;;
    --torch) wanted+=("${TEST_PACKAGES[@]}") ;;
    --release)
        wanted+=("${RELEASE_PACKAGES[@]}")
        withClangRt=0
        ;;
    *)
        log "usage: $0 [--engine | --web | --bench | --torch | --release]"
        exit 2
        ;;
    esac

    local missing=() pkg
    for pkg in "${wanted[@]}"; do
        isInstalled "$pkg" || missing+=("$pkg")
    done
    if [[ $withClangRt -eq 1 ]]; then
        pickPackage "${CLANG_RT_CANDIDATES[@]}"
        isInstalled "$picked" || missing+=("$picked")
    fi

    if [[ ${#missing[@]} -eq 0 ]]; then
        log "all dependencies present"
    else
        log "installing: ${missing[*]}"
        aptUpdate
        aptGet install -y -qq --no-install-recommends "${missing[@]}"
    fi
    # Some node distributions (NodeSource's) bundle npm; Debian's packages it apart.
    if [[ ${1:-} != --engine ]] && ! command -v npm >/dev/null; then
        log "installing: npm"
        aptUpdate
        aptGet install -y -qq --no-install-recommends npm
    fi
}

main "$@"

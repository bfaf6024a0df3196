#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the WebAssembly perft tool (src/wasm/perft_main.cpp and the whole chess core) with
# Debian's em++ through emcmake: -O3, no exceptions, NODERAWFS so it reads real files under node.
# This is the guard that keeps the core compiling for the browser.
#
# Usage: scripts/build-wasm-perft.sh [BUILD_DIR]     (default: build-wasm)
# Then:  NODE_PATH=/usr/share/nodejs node --no-experimental-fetch BUILD_DIR/axon_perft_wasm.js \
#            SUITE [--max-depth D] [--max-nodes N]
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly BUILD_DIR=${1:-build-wasm}

# Debian's emscripten runs its JavaScript tools with the system node, whose module path lacks
# the Debian-packaged modules (acorn) it needs.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

if ! command -v emcmake >/dev/null; then
    echo "build-wasm-perft: emcmake not found (run scripts/install-deps.sh)" >&2
    exit 1
fi

# The EMSCRIPTEN branch of CMakeLists.txt builds only the core and the perft tool, with
# -fno-exceptions and no -march.
emcmake cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DAXON_WERROR=ON >/dev/null
cmake --build "$BUILD_DIR" --target axon_perft_wasm --parallel "${JOBS:-$(nproc)}"
echo "built $BUILD_DIR/axon_perft_wasm.js"

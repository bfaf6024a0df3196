#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the in-browser engine (docs/wasm-engine.md) with Debian's em++ through emcmake: -O3,
# SIMD128, no exceptions; once without threads (axon-st) and once with pthreads (axon-mt), each
# in its own CMake folder since shared memory needs every object compiled with -pthread. Leaves
# the files a web page serves in BUILD_DIR/engine:
#   axon-st.js axon-st.wasm axon-mt.js axon-mt.wasm axon-mt.worker.js axon-engine-worker.js
#
# Usage: scripts/build-wasm-engine.sh [BUILD_DIR]     (default: build-wasm-engine)
# Test:  scripts/test-wasm-engine.sh BUILD_DIR
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly BUILD_DIR=${1:-build-wasm-engine}

# Debian's emscripten runs its JavaScript tools with the system node, whose module path lacks
# the Debian-packaged modules (acorn) its optimiser needs.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

if ! command -v emcmake >/dev/null; then
    echo "build-wasm-engine: emcmake not found (run scripts/install-deps.sh)" >&2
    exit 1
fi

for kind in st mt; do
    threads=OFF
    [[ $kind == mt ]] && threads=ON
    emcmake cmake -S . -B "$BUILD_DIR/$kind" -DCMAKE_BUILD_TYPE=Release -DAXON_WERROR=ON \
        -DAXON_WASM_THREADS=$threads >/dev/null
    cmake --build "$BUILD_DIR/$kind" --target axon_wasm_engine --parallel "${JOBS:-$(nproc)}"
done

mkdir -p "$BUILD_DIR/engine"
cp "$BUILD_DIR"/st/axon-st.{js,wasm} "$BUILD_DIR"/mt/axon-mt.{js,wasm,worker.js} \
    web/engine/axon-engine-worker.js "$BUILD_DIR/engine/"
echo "built $BUILD_DIR/engine:"
ls -l "$BUILD_DIR/engine"

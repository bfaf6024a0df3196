#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Tests the in-browser engine built by scripts/build-wasm-engine.sh under node, both builds
# (tests/wasm/engine-test.cjs): `bench` must count exactly the native engine's nodes, `go nodes`
# searches must print the native engine's lines and best moves, malformed UCI must get
# `info string error` and leave the engine working, plus each build's search behaviour.
#
# Usage: scripts/test-wasm-engine.sh [BUILD_DIR] [NATIVE_AXON]
#   BUILD_DIR    as given to build-wasm-engine.sh (default: build-wasm-engine)
#   NATIVE_AXON  the native engine to compare with (default: $AXON, ./axon, build-release/axon
#                or build/axon)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly BUILD_DIR=${1:-build-wasm-engine}
AXON=${2:-${AXON:-}}
source bench/lib/find-axon.sh

for file in axon-st.js axon-st.wasm axon-mt.js axon-mt.wasm axon-mt.worker.js axon-engine-worker.js; do
    [[ -f $BUILD_DIR/engine/$file ]] || { echo "test-wasm-engine: no $BUILD_DIR/engine/$file (run scripts/build-wasm-engine.sh)" >&2; exit 2; }
done

# The bench signature: the native engine's node count, which the WebAssembly builds must equal.
benchNodes=$("$AXON" bench | tail -1 | cut -d' ' -f1)
echo "native $AXON: bench $benchNodes nodes"

status=0
for build in st mt; do
    # Debian's emscripten 3.1.6 loader takes node 18+'s fetch for a browser's and fails.
    node --no-experimental-fetch tests/wasm/engine-test.cjs "$BUILD_DIR/engine" "$build" "$AXON" "$benchNodes" ||
        status=1
done
exit $status

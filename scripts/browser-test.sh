#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Real-browser tests of the web front end (tests/browser/, Playwright driving Debian's
# chromium): the page served by `axon serve` (server engine), by python3 -m http.server (WASM
# engine, st build: no COOP/COEP) and by a static server that sends COOP/COEP (WASM engine, mt
# build). Screenshots and a log go to build-browser/artifacts/. Ends with a summary line and
# exits non-zero on any failure.
#
# Usage: scripts/browser-test.sh [AXON_BINARY=build-release/axon]
# Needs web/dist (scripts/build-web.sh), node, npm and chromium (apt-get install -y chromium).
# Env: AXON_WEB_DIST (default web/dist), CHROMIUM (default /usr/bin/chromium),
#      AXON_GAME_MOVES (user moves of the test game, default 4),
#      AXON_MODES (comma list of server,wasm-st,wasm-mt,no-engine to run; default all that can run).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
axon=${1:-build-release/axon}
[[ -x $axon ]] || { echo "browser-test: no axon binary at $axon (cmake --build build-release)" >&2; exit 2; }
axon=$(cd "$(dirname "$axon")" && pwd)/$(basename "$axon")
dist=$(realpath -m "${AXON_WEB_DIST:-web/dist}")
[[ -f $dist/index.html ]] || { echo "browser-test: no $dist/index.html (run scripts/build-web.sh)" >&2; exit 2; }
artifacts=$root/build-browser/artifacts
BROWSER_TESTS_DIR=$root/tests/browser
SERVER_LOG_DIR=$artifacts/servers
# shellcheck source=tests/browser/servers.sh
source "$BROWSER_TESTS_DIR/servers.sh"

start=$(date +%s)
rm -rf "$artifacts"
mkdir -p "$artifacts" "$SERVER_LOG_DIR"
trap stop_servers EXIT
trap 'exit 130' INT TERM
ensure_browser_deps

# The tablebase panel's test reads the shared 3-4-piece tables through axon serve --syzygy-path.
export AXON_SYZYGY=${AXON_SYZYGY:-$(realpath -m "${AXON_SHARED_DATA:-$root/../shared/data}")/syzygy}
start_axon_serve "$axon" "$dist"
start_python_static "$dist"
modes="server wasm-st"
not_run=""
if [[ -f $dist/engine/axon-mt.wasm ]]; then
    start_node_static AXON_COI_URL "$dist" --coi
    modes+=" wasm-mt"
else
    not_run=" (wasm-mt not run: no engine/axon-mt.wasm)"
fi
start_node_static AXON_NOENGINE_URL "$dist" --hide /engine/
modes+=" no-engine"
if [[ -n ${AXON_MODES:-} ]]; then
    wanted=" ${AXON_MODES//,/ } "
    kept=""
    for m in $modes; do [[ $wanted == *" $m "* ]] && kept+=" $m"; done
    modes=${kept# }
    not_run+=" (AXON_MODES=$AXON_MODES)"
fi
echo "browser-test: modes $modes$not_run; axon serve $AXON_SERVER_URL, static $AXON_STATIC_URL${AXON_COI_URL:+, COOP/COEP $AXON_COI_URL}, no engine files $AXON_NOENGINE_URL"
echo "browser-test: $("${CHROMIUM:-/usr/bin/chromium}" --version 2>/dev/null | head -n 1); node $(node --version)"

export AXON_BIN=$axon AXON_ARTIFACTS=$artifacts AXON_WEB_DIST=$dist
status=0
# node's own WebSocket for the SAN referee where this node has one behind a flag (20.10+);
# otherwise the tests open it inside chromium.
node_flags=()
if node --experimental-websocket --no-warnings=ExperimentalWarning -e 0 2>/dev/null; then
    node_flags=(--experimental-websocket --no-warnings=ExperimentalWarning)
fi
# A bound on each test file besides the tests' own bounded waits (node 20.11+).
if node --test-timeout=1000 -e 0 2>/dev/null; then node_flags+=(--test-timeout=600000); fi
(cd "$BROWSER_TESTS_DIR" && node "${node_flags[@]}" --test --test-reporter=spec frontend.test.mjs) \
    2>&1 | tee "$artifacts/node-test.out" || status=$?
# The spec reporter's totals (the same numbers node:test's own summary prints).
count() { grep -E "^ℹ $1 [0-9]+" "$artifacts/node-test.out" | tail -n 1 | grep -oE '[0-9]+$' || echo "?"; }
pass=$(count pass) fail=$(count fail) skipped=$(count skipped) todo=$(count todo) cancelled=$(count cancelled)
if [[ $fail != 0 || $cancelled != 0 || $pass == "?" ]] && [[ $status == 0 ]]; then status=1; fi
shots=$(find "$artifacts" -name '*.png' | wc -l)
echo "browser-test: modes ${modes// /, }$not_run: $pass passed, $fail failed, $cancelled cancelled, $skipped skipped, $todo todo;" \
    "$shots screenshots and a log in ${artifacts#"$root"/}; $(($(date +%s) - start)) s; $([[ $status == 0 ]] && echo OK || echo FAILED)"
exit "$status"

# shellcheck shell=bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by scripts/browser-test.sh and bench/wasm-browser-nps.sh: starts the servers the
# browser runs need on free loopback ports and stops every one of them on exit.
#   start_axon_serve BIN WEB_ROOT    -> AXON_SERVER_URL  (axon serve --port 0, COOP/COEP)
#   start_python_static DIR          -> AXON_STATIC_URL  (python3 -m http.server, no COOP/COEP)
#   start_node_static VAR DIR ARGS.. -> $VAR             (tests/browser/static-server.mjs)
# Each prints its URL once it is up; the logs go to $SERVER_LOG_DIR.

SERVER_PIDS=()
SERVER_LOG_DIR=${SERVER_LOG_DIR:-$(mktemp -d)}

stop_servers() {
    local pid
    for pid in "${SERVER_PIDS[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${SERVER_PIDS[@]}"; do
        # Give each a few seconds to exit cleanly, then make sure.
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    SERVER_PIDS=()
}

# wait_for_url LOGFILE REGEX NAME: echoes the first match of REGEX in LOGFILE (20 s at most).
wait_for_url() {
    local url=""
    for _ in $(seq 200); do
        url=$(grep -oE "$2" "$1" | head -n 1 || true)
        [[ -n $url ]] && { echo "$url"; return 0; }
        sleep 0.1
    done
    echo "$3 did not start; its output:" >&2
    cat "$1" >&2
    return 1
}

start_axon_serve() {
    local log=$SERVER_LOG_DIR/axon-serve.log
    # The shared 3-4-piece tables, when there, for the tablebase panel's test.
    local tables=()
    [[ -n ${AXON_SYZYGY:-} && -d $AXON_SYZYGY ]] && tables=(--syzygy-path "$AXON_SYZYGY")
    "$1" serve --port 0 --web-root "$2" --hash 16 --max-think-ms 10000 "${tables[@]}" >"$log" 2>&1 &
    SERVER_PIDS+=($!)
    AXON_SERVER_URL=$(wait_for_url "$log" 'http://127\.0\.0\.1:[0-9]+/' 'axon serve') || return 1
    export AXON_SERVER_URL
}

start_python_static() {
    local log=$SERVER_LOG_DIR/python-static.log
    python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$1" >"$log" 2>&1 &
    SERVER_PIDS+=($!)
    AXON_STATIC_URL=$(wait_for_url "$log" 'http://127\.0\.0\.1:[0-9]+/' 'python3 -m http.server') || return 1
    export AXON_STATIC_URL
}

start_node_static() {
    local var=$1 dir=$2
    shift 2
    local log=$SERVER_LOG_DIR/node-static-$var.log
    node "$BROWSER_TESTS_DIR/static-server.mjs" --root "$dir" "$@" >"$log" 2>&1 &
    SERVER_PIDS+=($!)
    local url
    url=$(wait_for_url "$log" 'http://127\.0\.0\.1:[0-9]+/' "static server ($var)") || return 1
    printf -v "$var" '%s' "$url"
    export "${var?}"
}

# ensure_browser_deps: node_modules of tests/browser from the lock file, and chromium.
ensure_browser_deps() {
    command -v node >/dev/null || { echo "node is not installed (apt-get install -y nodejs npm)" >&2; return 2; }
    [[ -x ${CHROMIUM:-/usr/bin/chromium} ]] || { echo "no ${CHROMIUM:-/usr/bin/chromium} (apt-get install -y chromium)" >&2; return 2; }
    if [[ ! -f $BROWSER_TESTS_DIR/node_modules/.package-lock.json ||
        $BROWSER_TESTS_DIR/package-lock.json -nt $BROWSER_TESTS_DIR/node_modules/.package-lock.json ]]; then
        (cd "$BROWSER_TESTS_DIR" && npm ci --no-audit --no-fund --loglevel=error) || return 2
    fi
}

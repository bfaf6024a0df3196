#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `axon serve` as a user runs it: started in the background on a free port, the front page
# fetched with curl (headers included), a traversal refused, another site's page refused a
# WebSocket and a rebound Host refused a page, bad flags rejected with a message, a warning for
# a non-loopback bind, and SIGTERM ending it cleanly (exit status 0).
set -euo pipefail
axon=$1
work=$(mktemp -d)
pid=""
cleanup() {
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
    rm -rf "$work"
}
trap cleanup EXIT

out="" # the running server's output file
fail() {
    echo "FAIL: $*" >&2
    [[ -n $out && -f $out ]] && sed 's/^/  serve: /' "$out" >&2
    exit 1
}

# Waits until the running server's output matches a pattern, for 10 s (it starts in 0.3-0.5 s
# under TSan on two busy cores). Each server writes a file of its own: when the second wrote over
# the first's, this could read the first's 'Axon is serving' before the second's shell had
# truncated the file, and then find no warning in the emptied file (CI's tsan step failed so once,
# 'no warning for 0.0.0.0', the server alive and its output empty; cli.serve's steps in a loop
# under TSan did so in 2 of 80 runs).
wait_for_output() {
    local pattern=$1 what=$2
    for _ in $(seq 100); do
        grep -qE "$pattern" "$out" && return 0
        kill -0 "$pid" 2>/dev/null || fail "$what: serve exited early"
        sleep 0.1
    done
    fail "$what: nothing matching '$pattern' within 10 s"
}

# Bad flags: a message and a non-zero exit, never a crash.
for bad in "--port 70000" "--threads 0" "--web-root $work/missing" "--host example.org" \
    "--allow-origin localhost:5173" "--allow-host http://a.example" "--frobnicate" \
    "--local-analysis forever" "--threads 4 --max-threads 2" "--hash 64 --max-hash 32" \
    "--max-threads 8 --total-threads 4" "--hash 64 --max-sessions 4 --total-hash 200"; do
    rc=0
    # shellcheck disable=SC2086
    timeout 10 "$axon" serve $bad >"$work/bad" 2>&1 || rc=$?
    [[ $rc -ne 0 && $rc -lt 124 ]] || fail "'serve $bad' exited $rc"
    [[ -s $work/bad ]] || fail "'serve $bad' printed nothing"
done

mkdir -p "$work/web"
echo '<title>Axon test page</title>' >"$work/web/index.html"
echo 'secret' >"$work/secret.txt"
out=$work/loopback.out
"$axon" serve --port 0 --web-root "$work/web" --hash 4 >"$out" 2>&1 &
pid=$!
wait_for_output 'http://127\.0\.0\.1:[0-9]+/' "loopback server"
url=$(grep -oE 'http://127\.0\.0\.1:[0-9]+/' "$out" | head -n 1)

curl -sS -D "$work/headers" -o "$work/body" "$url" || fail "curl $url failed"
grep -q '^HTTP/1.1 200' "$work/headers" || fail "no 200 for /"
grep -qi '^Cross-Origin-Opener-Policy: same-origin' "$work/headers" || fail "no COOP header"
grep -qi '^Cross-Origin-Embedder-Policy: require-corp' "$work/headers" || fail "no COEP header"
grep -q 'Axon test page' "$work/body" || fail "wrong page served"
code=$(curl -sS -o /dev/null -w '%{http_code}' "${url}missing.js")
[[ $code == 404 ]] || fail "missing file gave $code"
code=$(curl -sS --path-as-is -o "$work/traversal" -w '%{http_code}' "${url}../secret.txt")
[[ $code == 403 || $code == 404 ]] || fail "traversal gave $code"
! grep -q secret "$work/traversal" || fail "traversal served the file"

# Cross-site WebSocket hijacking and DNS rebinding, as a page on another site would try them.
port=${url##*:}
port=${port%/}
handshake() { # HOST ORIGIN: the status of a WebSocket handshake to /ws
    curl -sS -o /dev/null --max-time 2 -w '%{http_code}' -H "Host: $1" -H "Origin: $2" \
        -H 'Upgrade: websocket' -H 'Connection: Upgrade' -H 'Sec-WebSocket-Version: 13' \
        -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' "${url}ws" 2>/dev/null || true
}
code=$(handshake "127.0.0.1:$port" "http://evil.example.com")
[[ $code == 403 ]] || fail "a foreign origin's WebSocket gave $code"
code=$(handshake "evil.example.com:$port" "http://evil.example.com:$port")
[[ $code == 403 ]] || fail "a rebound Host's WebSocket gave $code"
code=$(handshake "127.0.0.1:$port" "http://localhost:$port")
[[ $code == 101 ]] || fail "the server's own page's WebSocket gave $code"
code=$(curl -sS -o /dev/null -w '%{http_code}' -H "Host: evil.example.com:$port" "$url")
[[ $code == 403 ]] || fail "a page under a rebound Host gave $code"
grep -q "refused a WebSocket from 127.0.0.1: WebSocket from origin 'http://evil.example.com'" \
    "$out" || fail "no log line for the refused WebSocket"

# A second server on the same port is refused with a message.
rc=0
timeout 10 "$axon" serve --port "$port" >"$work/second" 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "second server on port $port exited $rc"
grep -q 'cannot listen' "$work/second" || fail "no message for a taken port"

kill -TERM "$pid"
rc=0
for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
wait "$pid" || rc=$?
pid=""
[[ $rc -eq 0 ]] || fail "serve exited $rc after SIGTERM"
grep -q 'stopped' "$out" || fail "no clean shutdown message"

# Listening beyond loopback works, with a warning that anyone on the network can use it.
out=$work/any.out
"$axon" serve --host 0.0.0.0 --port 0 --hash 1 >"$out" 2>&1 &
pid=$!
wait_for_output 'Axon is serving' "serve --host 0.0.0.0"
grep -q 'WARNING: listening on 0.0.0.0, not loopback' "$out" || fail "no warning for 0.0.0.0"
kill -TERM "$pid"
wait "$pid" || fail "serve --host 0.0.0.0 exited badly after SIGTERM"
pid=""
echo "serve CLI: ok"

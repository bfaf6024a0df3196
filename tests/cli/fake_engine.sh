#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A misbehaving UCI engine for the match runner's tests. It answers the handshake properly, then
# on `go` does what its mode says: crash (exit), hang (never answer), illegal (an illegal move),
# garbage (a malformed move), or slow (answers 2 s late, which loses on any short clock).
mode=${1:-crash}
while IFS= read -r line; do
    case $line in
    uci) echo "id name Fake-$mode"; echo "uciok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
    go*)
        case $mode in
        crash) exit 3 ;;
        hang) while true; do sleep 1; done ;;
        illegal) echo "info depth 1 score cp 0"; echo "bestmove e1e8" ;;
        garbage) echo "bestmove xyz" ;;
        slow) sleep 2; echo "bestmove 0000" ;;
        esac
        ;;
    esac
done

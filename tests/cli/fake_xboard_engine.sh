#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A CECP (xboard) engine for the match runner's tests. It plays legal chess only by asking
# `axon` for its move (AXON_FOR_FAKE names the binary, run as a coprocess): it keeps the moves
# it was told in force mode and, on `go`, asks axon at depth 1. Modes change its behaviour:
#   good       protocol 2 with done=1, ping, setboard, usermove, san=0
#   slowstart  sends done=0, waits 3 s, then done=1 (the runner must keep waiting)
#   nodone     protocol 2 features but never done=1 (the runner goes on after 2 s)
#   nosetboard as good but setboard=0 (only start-position books can be played)
#   illegal    answers every go with an illegal move
#   hang       never answers go
#   resign     resigns on its first go
#   claim      claims "1-0 {White mates}" before each move (a claim the runner must ignore)
mode=${1:-good}
axon=${AXON_FOR_FAKE:?AXON_FOR_FAKE must name the axon binary}
fen="startpos"
moves=()

coproc AXON { exec "$axon" 2>/dev/null; }

# Asks axon for the best move from the current position at depth 1.
bestMove() {
    local position="position $fen" reply
    [[ $fen != startpos ]] && position="position fen $fen"
    ((${#moves[@]})) && position+=" moves ${moves[*]}"
    printf '%s\ngo depth 1\n' "$position" >&"${AXON[1]}"
    while IFS= read -r reply <&"${AXON[0]}"; do
        [[ $reply == bestmove* ]] && { reply=${reply#bestmove }; echo "${reply%% *}"; return; }
    done
}

features() {
    local setboard=1
    [[ $mode == nosetboard ]] && setboard=0
    echo "feature ping=1 setboard=$setboard usermove=1 san=0 time=1 sigint=0 myname=\"Fake-xboard-$mode\""
}

while IFS= read -r line; do
    case $line in
    xboard) ;;
    protover*)
        case $mode in
        slowstart) echo "feature done=0"; features; sleep 3; echo "feature done=1" ;;
        nodone) features ;;
        *) features; echo "feature done=1" ;;
        esac
        ;;
    accepted* | rejected* | post | easy | hard | force | level* | st* | sd* | time* | otim* | option* | variant*) ;;
    new) fen="startpos"; moves=() ;;
    "setboard "*) fen=${line#setboard }; moves=() ;;
    "ping "*) echo "pong ${line#ping }" ;;
    "usermove "*) moves+=("${line#usermove }") ;;
    quit) exit 0 ;;
    go)
        case $mode in
        hang) while true; do sleep 1; done ;;
        illegal) echo "move e1e8" ;;
        resign) echo "resign" ;;
        *)
            [[ $mode == claim ]] && echo "1-0 {White mates}"
            m=$(bestMove)
            echo " 1 17 0 20 $m"
            moves+=("$m")
            echo "move $m"
            ;;
        esac
        ;;
    *) echo "Error (unknown command): $line" ;;
    esac
done

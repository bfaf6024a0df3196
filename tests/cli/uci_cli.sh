#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Drives `axon` over pipes as a GUI would: the handshake, bad input that must be answered with
# `info string` errors while the engine stays usable, a search interrupted by stop, and a whole
# self-played game.
set -euo pipefail
axon=$1

coproc ENGINE { "$axon"; }
# Bash unsets ENGINE_PID once it reaps the coprocess, which may be before the closing `wait` (the
# engine quits at once): the PID is kept here, and wait still gives that child's status.
enginePid=$ENGINE_PID
exec 3>&"${ENGINE[1]}" 4<&"${ENGINE[0]}"

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
send() { echo "$*" >&3; }
# expect PATTERN [SECONDS]: reads lines until one matches the extended regex; prints it.
expect() {
    local pattern=$1 seconds=${2:-20} line
    while IFS= read -r -t "$seconds" line <&4; do
        if [[ $line =~ $pattern ]]; then
            printf '%s\n' "$line"
            return 0
        fi
    done
    fail "no line matching '$pattern' within ${seconds}s"
}
# expectClean PATTERN: like expect, but any error on the way is a failure.
expectClean() {
    local pattern=$1 line
    while IFS= read -r -t 20 line <&4; do
        [[ $line == "info string error"* ]] && fail "unexpected: $line"
        if [[ $line =~ $pattern ]]; then
            printf '%s\n' "$line"
            return 0
        fi
    done
    fail "no line matching '$pattern' within 20s"
}

send uci
expect '^option name Hash type spin' >/dev/null
expect '^uciok$' >/dev/null
send isready
expect '^readyok$' >/dev/null

# Every malformed command gets an error and changes nothing.
for bad in "frobnicate" "position" "position fen not a fen" "position startpos moves e2e5" \
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1" "setoption name Hash value abc" \
    "setoption name Hash value 0" "setoption name NoSuchOption value 1" "setoption" \
    "go depth -3" "go nodes xyz" "go wtime" "go sideways" "bench abc" "bench 0" \
    "setoption name UCI_Elo value 5000" "setoption name UCI_Elo value 100" \
    "setoption name Skill Level value 21" "setoption name UCI_LimitStrength value maybe" \
    "setoption name UCI_ShowWDL value 1"; do
    send "$bad"
    expect '^info string error' >/dev/null || fail "no error for '$bad'"
done
send isready
expect '^readyok$' >/dev/null

# The position survives rejected input: e2e4 was played, the bad move list was ignored.
send "position startpos moves e2e4"
send "position startpos moves e2e4 e7e5 e1e3"
expect '^info string error' >/dev/null
send d
expect '^Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1$' >/dev/null

send "go depth 6"
expect '^info depth 6 .* pv ' >/dev/null
best=$(expect '^bestmove ')
[[ $best =~ ^bestmove\ [a-h][1-8][a-h][1-8] ]] || fail "bad bestmove line: $best"

# An infinite search answers isready while thinking and stops on request.
send "position startpos"
send "go infinite"
sleep 0.3
send isready
expect '^readyok$' 5 >/dev/null
send stop
expect '^bestmove [a-h][1-8][a-h][1-8]' 5 >/dev/null

# Pondering: no best move before ponderhit, then one within the clock's budget.
send "position startpos moves e2e4"
send "go ponder wtime 2000 btime 2000 winc 0 binc 0"
sleep 0.5
send isready
line=$(expect '^(readyok|bestmove)' 5)
[[ $line == readyok ]] || fail "best move while pondering: $line"
send ponderhit
expect '^bestmove [a-h][1-8][a-h][1-8]' 5 >/dev/null

# Evaluation breakdown.
send eval
expect '^final \(side to move\) -?[0-9]+ cp$' >/dev/null

# Options take effect.
send "setoption name Threads value 2"
send "setoption name Hash value 32"
send "setoption name MultiPV value 3"
send "position startpos"
send "go depth 5"
expect '^info depth 5 .* multipv 3 ' >/dev/null
expect '^bestmove ' >/dev/null
send "setoption name MultiPV value 1"
send "setoption name Threads value 1"

# WDL: shown only when asked for, per mille, summing to 1000.
send "setoption name UCI_ShowWDL value true"
send "go depth 5"
line=$(expectClean '^info depth 5 ')
[[ $line =~ \ score\ cp\ -?[0-9]+\ wdl\ ([0-9]+)\ ([0-9]+)\ ([0-9]+)\  ]] || fail "no wdl in: $line"
((BASH_REMATCH[1] + BASH_REMATCH[2] + BASH_REMATCH[3] == 1000)) || fail "wdl does not sum to 1000: $line"
expect '^bestmove ' >/dev/null
send "setoption name UCI_ShowWDL value false"
send "go depth 5"
while IFS= read -r -t 20 line <&4; do
    [[ $line == *" wdl "* ]] && fail "wdl shown while UCI_ShowWDL is off: $line"
    [[ $line == bestmove* ]] && break
done

# Strength limits: legal moves, one shown line, and a fixed Skill Seed repeats the choice.
send "setoption name UCI_LimitStrength value true"
send "setoption name UCI_Elo value 1400"
limited=()
for round in 1 2; do
    send "setoption name Skill Seed value 42"
    send "ucinewgame"
    send "position startpos moves e2e4"
    send "go wtime 10000 btime 10000"
    while IFS= read -r -t 20 line <&4; do
        [[ $line == "info string error"* ]] && fail "unexpected: $line"
        [[ $line =~ multipv\ ([0-9]+) && ${BASH_REMATCH[1]} != 1 ]] && fail "internal line shown: $line"
        [[ $line == bestmove* ]] && break
    done
    [[ $line =~ ^bestmove\ [a-h][1-8][a-h][1-8] ]] || fail "bad bestmove line: $line"
    limited+=("$(awk '{print $2}' <<<"$line")")
done
[[ ${limited[0]} == "${limited[1]}" ]] || fail "same seed, different moves: ${limited[*]}"
send "setoption name UCI_LimitStrength value false"
send "setoption name Skill Level value 3"
send "go nodes 20000"
expectClean '^bestmove [a-h][1-8][a-h][1-8]' >/dev/null
send "setoption name Skill Level value 20"
send "setoption name Skill Seed value 0"

# A whole game against itself, at a few thousand nodes a move.
moves=()
for ((ply = 0; ply < 160; ++ply)); do
    send "position startpos moves ${moves[*]}"
    send "go nodes 3000"
    line=$(expectClean '^bestmove ')
    move=$(awk '{print $2}' <<<"$line")
    [[ $move == "0000" || $move == "(none)" ]] && break
    [[ $move =~ ^[a-h][1-8][a-h][1-8][nbrq]?$ ]] || fail "bad move '$move' at ply $ply"
    moves+=("$move")
done
send "position startpos moves ${moves[*]}"
send isready
expectClean '^readyok$' >/dev/null
send quit
wait "$enginePid" || fail "engine exited with an error"
echo "UCI session ok: ${#moves[@]} plies played"

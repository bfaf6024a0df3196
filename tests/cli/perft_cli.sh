#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `axon perft` driven as a user would: counts, divide output, and bad input.
set -euo pipefail
axon=$1

"$axon" perft 4 | grep -qx 'Nodes searched: 197281'
# Divide lists every root move with its count.
[ "$("$axon" perft 2 | grep -cE '^[a-h][1-8][a-h][1-8][nbrq]?: [0-9]+$')" -eq 20 ]
"$axon" perft 3 --threads 2 --no-divide | grep -qx 'Nodes searched: 8902'
# Chess960 castling is printed king-takes-rook.
"$axon" perft 1 "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9" | grep -q 'Nodes searched: 21'

# A bad FEN is an error with a message and a non-zero status.
if out=$("$axon" perft 2 not a fen 2>&1); then
    echo "a bad FEN was accepted: $out"
    exit 1
fi
grep -q 'error: FEN' <<<"$out"
echo "perft CLI ok"

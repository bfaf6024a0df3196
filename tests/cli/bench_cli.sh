#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `bench` is the engine's signature: the same node count on every run, from the shell and UCI.
set -euo pipefail
axon=$1
depth=7
first=$("$axon" bench $depth | tail -n 1)
second=$("$axon" bench $depth | tail -n 1)
[[ $first =~ ^[0-9]+\ nodes\ [0-9]+\ nps$ ]] || { echo "bad last line: $first"; exit 1; }
viaUci=$(printf 'bench %s\nquit\n' $depth | "$axon" | grep -E '^[0-9]+ nodes [0-9]+ nps$')
nodes() { awk '{print $1}' <<<"$1"; }
if [[ $(nodes "$first") != $(nodes "$second") || $(nodes "$first") != $(nodes "$viaUci") ]]; then
    echo "bench differs: '$first' / '$second' / '$viaUci'"
    exit 1
fi
echo "bench depth $depth: $(nodes "$first") nodes, reproducible"

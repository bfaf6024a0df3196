#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# How large a network's evaluations are against another's on the same positions: the least-squares
# factor through zero (network = factor x reference) and the mean |eval| of each, from the UCI
# `eval` command's network line (static evaluation, side to move) on a random sample of an EPD
# book. The search's margins are tuned on the shipped network, so a factor far from 1 says the
# search sees the candidate's scores on another scale (docs/nets.md, "Deeper screens").
#
# Usage: bench/eval-scale.py [--axon ./axon] [--book EPD] [--positions 3000] [--seed 1]
#                            [--reference NET] NET...   (reference: the embedded network)
import argparse
import random
import subprocess
import sys


def evaluations(axon, net, fens):
    cmd = "uci\n"
    if net:
        cmd += f"setoption name EvalFile value {net}\n"
    cmd += "".join(f"position fen {fen}\neval\n" for fen in fens) + "quit\n"
    run = subprocess.run([axon], input=cmd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"eval-scale: {axon} exited with {run.returncode}: {run.stderr.strip()[-500:]}")
    out = run.stdout
    # A network that does not load leaves the embedded one in place: refuse, or it would be
    # compared with itself and read as a factor of 1.
    errors = [line for line in out.splitlines() if line.startswith("info string error")]
    if errors:
        sys.exit(f"eval-scale: {net}: {errors[0][len('info string '):]}")
    scores = [int(line.split()[4]) for line in out.splitlines()
              if line.startswith("network (side to move)")]
    if len(scores) != len(fens):
        sys.exit(f"eval-scale: {net or 'the embedded network'}: {len(scores)} evaluations for "
                 f"{len(fens)} positions (a network that does not load?)")
    return scores


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--axon", default="./axon")
    ap.add_argument("--book", default="../shared/data/books/UHO_4060_v4.epd")
    ap.add_argument("--positions", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reference", default="")
    ap.add_argument("nets", nargs="+")
    a = ap.parse_args()
    try:
        with open(a.book) as f:
            fens = [" ".join(line.split(";")[0].split()[:4]) + " 0 1" for line in f if line.strip()]
    except OSError as e:
        sys.exit(f"eval-scale: cannot read the book: {e}")
    if not fens:
        sys.exit(f"eval-scale: no positions in {a.book}")
    random.seed(a.seed)
    fens = random.sample(fens, min(a.positions, len(fens)))
    ref = evaluations(a.axon, a.reference, fens)
    ref_sq = sum(x * x for x in ref)
    if ref_sq == 0:
        sys.exit("eval-scale: the reference scores every position 0; no factor to fit")
    print(f"{len(fens)} positions of {a.book} (seed {a.seed}); reference "
          f"{a.reference or 'the embedded network'}: mean |eval| {sum(map(abs, ref)) / len(ref):.0f} cp")
    for net in a.nets:
        ev = evaluations(a.axon, net, fens)
        factor = sum(x * y for x, y in zip(ref, ev)) / ref_sq
        print(f"{net}: {factor:.3f} x the reference, mean |eval| {sum(map(abs, ev)) / len(ev):.0f} cp")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fits Axon's WDL model (src/search/wdl.cpp) to games by maximum likelihood.

The model, for a search score s (centipawns, side to move) and material m (pawn 1, minor 3,
rook 5, queen 9, both sides, clamped to [17, 78]):
    win  = 1 / (1 + exp((a(m) - s) / b(m)))
    loss = 1 / (1 + exp((a(m) + s) / b(m)))
    draw = 1 - win - loss
with a and b cubic polynomials in x = m / 58. Samples come from `axon wdl-data GAMES.pgn`
(one "material score result" line per evaluated move); the script runs it on each PGN given.
Plain python3 and its standard library only.

Usage: scripts/fit-wdl.py [--axon build/axon] GAMES.pgn [...]
"""
import argparse
import collections
import math
import subprocess
import sys

MIN_MATERIAL, MAX_MATERIAL, NORM = 17, 78, 58.0
# Scores beyond this carry no information on the draw/decisive boundary and would dominate.
SCORE_CLAMP = 1500
# a and b are fitted as their values at these x = m / 58 (well-conditioned for the simplex),
# then converted to cubic coefficients.
NODES = [MIN_MATERIAL / NORM, 40 / NORM, 58 / NORM, MAX_MATERIAL / NORM]


def read_samples(axon, pgns):
    counts = collections.Counter()  # (material, score) -> [wins, draws, losses]
    table = collections.defaultdict(lambda: [0, 0, 0])
    total = 0
    for pgn in pgns:
        proc = subprocess.run([axon, "wdl-data", pgn], capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"fit-wdl: axon wdl-data {pgn} failed: {proc.stderr.strip()}")
        sys.stderr.write(proc.stderr)
        for line in proc.stdout.splitlines():
            parts = line.split()
            if len(parts) != 3:
                sys.exit(f"fit-wdl: unexpected line from axon wdl-data: {line!r}")
            m, s, r = int(parts[0]), int(parts[1]), float(parts[2])
            s = max(-SCORE_CLAMP, min(SCORE_CLAMP, s))
            table[(m, s)][0 if r == 1 else 1 if r == 0.5 else 2] += 1
            total += 1
    counts.update()
    return table, total


def lagrange_to_cubic(values):
    """Cubic coefficients (x^3 .. x^0) of the polynomial through (NODES[i], values[i])."""
    coeffs = [0.0, 0.0, 0.0, 0.0]
    for i, xi in enumerate(NODES):
        # Basis polynomial: prod (x - xj) / (xi - xj), expanded.
        poly = [1.0]  # highest power first
        denom = 1.0
        for j, xj in enumerate(NODES):
            if j == i:
                continue
            poly = [c for c in poly] + [0.0]
            for k in range(len(poly) - 1, 0, -1):
                poly[k] -= xj * poly[k - 1]
            denom *= xi - xj
        for k in range(4):
            coeffs[k] += values[i] * poly[k] / denom
    return coeffs


def poly(c, x):
    return ((c[0] * x + c[1]) * x + c[2]) * x + c[3]


def probabilities(a, b, s):
    win = 1.0 / (1.0 + math.exp(max(-700.0, min(700.0, (a - s) / b))))
    loss = 1.0 / (1.0 + math.exp(max(-700.0, min(700.0, (a + s) / b))))
    return win, max(1e-12, 1.0 - win - loss), loss


def negative_log_likelihood(params, table):
    ca, cb = lagrange_to_cubic(params[:4]), lagrange_to_cubic(params[4:])
    cache = {}
    total = 0.0
    for (m, s), (w, d, l) in table.items():
        if m not in cache:
            x = m / NORM
            cache[m] = (poly(ca, x), poly(cb, x))
        a, b = cache[m]
        if b <= 1.0 or a <= 0.0:
            return float("inf")
        pw, pd, pl = probabilities(a, b, s)
        total -= w * math.log(max(pw, 1e-12)) + d * math.log(pd) + l * math.log(max(pl, 1e-12))
    return total


def nelder_mead(f, start, step, iterations=4000, tolerance=1e-7):
    n = len(start)
    simplex = [list(start)]
    for i in range(n):
        p = list(start)
        p[i] += step[i]
        simplex.append(p)
    values = [f(p) for p in simplex]
    for _ in range(iterations):
        order = sorted(range(n + 1), key=lambda i: values[i])
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        if abs(values[-1] - values[0]) <= tolerance * (abs(values[0]) + 1e-9):
            break
        centroid = [sum(p[k] for p in simplex[:-1]) / n for k in range(n)]
        worst = simplex[-1]
        reflected = [centroid[k] + (centroid[k] - worst[k]) for k in range(n)]
        fr = f(reflected)
        if fr < values[0]:
            expanded = [centroid[k] + 2 * (centroid[k] - worst[k]) for k in range(n)]
            fe = f(expanded)
            simplex[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = reflected, fr
        else:
            contracted = [centroid[k] + 0.5 * (worst[k] - centroid[k]) for k in range(n)]
            fc = f(contracted)
            if fc < values[-1]:
                simplex[-1], values[-1] = contracted, fc
            else:
                best = simplex[0]
                simplex = [best] + [[best[k] + 0.5 * (p[k] - best[k]) for k in range(n)] for p in simplex[1:]]
                values = [values[0]] + [f(p) for p in simplex[1:]]
    i = min(range(n + 1), key=lambda i: values[i])
    return simplex[i], values[i]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--axon", default="build/axon", help="axon binary (for `axon wdl-data`)")
    parser.add_argument("pgn", nargs="+", help="games with eval comments (axon match --pgn)")
    args = parser.parse_args()

    table, total = read_samples(args.axon, args.pgn)
    if total < 100:
        sys.exit(f"fit-wdl: only {total} samples; need at least 100")
    outcomes = [sum(v[k] for v in table.values()) for k in range(3)]
    print(f"samples {total}: wins {outcomes[0]}, draws {outcomes[1]}, losses {outcomes[2]} (side to move)")

    f = lambda p: negative_log_likelihood(p, table)
    params = [150.0] * 4 + [60.0] * 4
    best = f(params)
    # Restarts let the simplex escape the flat directions it collapses onto.
    for _ in range(6):
        params, value = nelder_mead(f, params, [20.0] * 4 + [10.0] * 4)
        if best - value < 1e-3:
            break
        best = value
    ca, cb = lagrange_to_cubic(params[:4]), lagrange_to_cubic(params[4:])
    print(f"negative log-likelihood {f(params):.1f} ({f(params) / total:.4f} per sample)")
    print("a(m) and b(m) at m = 17, 40, 58, 78: "
          + ", ".join(f"{poly(ca, m / NORM):.1f}/{poly(cb, m / NORM):.1f}" for m in (17, 40, 58, 78)))
    print("// Paste into src/search/wdl.cpp:")
    print("constexpr std::array<double, 4> kA = {" + ", ".join(f"{c:.8g}" for c in ca) + "};")
    print("constexpr std::array<double, 4> kB = {" + ", ".join(f"{c:.8g}" for c in cb) + "};")

    # Calibration check: predicted and observed expected score by score bucket.
    buckets = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for (m, s), (w, d, l) in table.items():
        x = m / NORM
        pw, pd, pl = probabilities(poly(ca, x), poly(cb, x), s)
        n = w + d + l
        key = max(-4, min(4, round(s / 100)))
        buckets[key][0] += n
        buckets[key][1] += n * (pw + pd / 2)
        buckets[key][2] += w + d / 2
    print("score bucket (pawns): samples, predicted score, observed score")
    for key in sorted(buckets):
        n, predicted, observed = buckets[key]
        print(f"  {key:+d}: {n:6d} {predicted / n:.3f} {observed / n:.3f}")


if __name__ == "__main__":
    main()

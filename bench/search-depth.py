#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Depth reached at a fixed node count on Lichess puzzle positions, for each engine given.

Sends every puzzle's position after the opponent's first move (the position the solver faces)
to each UCI engine with `go nodes N`, one engine process at a time, `ucinewgame` before each, and
reads the last completed iteration's depth and seldepth (the last `info depth` line with a PV
that is not a bound). Prints the median depth and seldepth per engine and the mean depth with
each search capped at 30 plies (a found mate lets the iterations run on to the depth limit).

Usage: bench/search-depth.py [--nodes 20000] [--count 200] [--min-rating 2000]
                             [--csv ../shared/data/puzzles/lichess_puzzles_dev.csv] ENGINE...
"""
import argparse
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from uci_driver import UciDriver, last_exact_iteration  # noqa: E402


def depths(engine_path, rows, nodes):
    """The (depth, seldepth) of each search; each `go` is answered before the next is sent."""
    engine = UciDriver(engine_path)
    engine.send("setoption name Hash value 16")
    results = []
    for row in rows:
        first = row["Moves"].split()[0]
        engine.send("ucinewgame")
        engine.send(f"position fen {row['FEN']} moves {first}")
        engine.send(f"go nodes {nodes}")
        words = last_exact_iteration(engine.read_until("bestmove"))
        if words is None or "seldepth" not in words:
            sys.exit(f"search-depth: {engine_path}: no completed iteration for {row['FEN']}")
        results.append((int(words[2]), int(words[words.index("seldepth") + 1])))
    engine.quit()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engines", nargs="+", metavar="ENGINE")
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--min-rating", type=int, default=2000)
    parser.add_argument("--csv", default="../shared/data/puzzles/lichess_puzzles_dev.csv")
    args = parser.parse_args()
    with open(args.csv, newline="") as f:
        rows = [r for r in csv.DictReader(f) if int(r["Rating"]) >= args.min_rating]
    rows = rows[: args.count]
    if not rows:
        sys.exit("search-depth: no puzzle matches")
    print(f"{len(rows)} puzzles rated {args.min_rating}+, {args.nodes} nodes a search")
    for engine in args.engines:
        found = depths(engine, rows, args.nodes)
        ds = [d for d, _ in found]
        print(f"{engine}: median depth {statistics.median(ds)}, median seldepth "
              f"{statistics.median(s for _, s in found)}, mean depth capped at 30 "
              f"{sum(min(d, 30) for d in ds) / len(ds):.2f}")


if __name__ == "__main__":
    main()

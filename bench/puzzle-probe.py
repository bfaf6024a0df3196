#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where a missed first move of a puzzle is lost: the search, or what it sees.

Takes two `axon puzzles --json` files on the same puzzles (engine A, the one studied, and a
reference B, e.g. Stockfish) and picks the puzzles whose first move A got wrong and B right.
For each (a random sample of --count, seeded), it asks engine ENGINE three searches of --nodes
nodes from the position the solver faces, `ucinewgame` before each: the full search, the
solution's move alone (`go searchmoves`) and the full search's move alone. A solution that
scores far above the full search when searched alone was under-searched by the full search
(reduced, pruned below it); one that scores no better is beyond what the search sees at these
nodes. Prints a line per puzzle, then how many scored more than --margin cp above the full
search. Mate scores count as +/-30000.

Usage: bench/puzzle-probe.py --a main.json --b stockfish.json [--nodes 20000] [--count 60]
                             [--margin 100] [--seed 1]
                             [--csv ../shared/data/puzzles/lichess_puzzles_dev.csv] ENGINE
"""
import argparse
import csv
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from uci_driver import UciDriver, last_exact_iteration  # noqa: E402


def results_by_id(path):
    with open(path) as f:
        return {r["id"]: r for r in json.load(f)["results"]}


def search(engine, position, nodes, searchmoves=""):
    """(best move, score in cp or +/-30000 for a mate, depth) of the last exact iteration."""
    engine.send("ucinewgame")
    engine.send(position)
    engine.send(f"go nodes {nodes}" + (f" searchmoves {searchmoves}" if searchmoves else ""))
    lines = engine.read_until("bestmove")
    parts = lines[-1].split()
    best = parts[1] if len(parts) > 1 else "(none)"
    words = last_exact_iteration(lines)
    if words is None:
        return best, None, None
    i = words.index("score")
    value = int(words[i + 2])
    score = value if words[i + 1] == "cp" else (30000 if value > 0 else -30000)
    return best, score, int(words[2])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine", metavar="ENGINE")
    parser.add_argument("--a", required=True, help="puzzles --json of the engine studied")
    parser.add_argument("--b", required=True, help="puzzles --json of the reference engine")
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--margin", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--csv", default="../shared/data/puzzles/lichess_puzzles_dev.csv")
    args = parser.parse_args()
    a, b = results_by_id(args.a), results_by_id(args.b)
    with open(args.csv, newline="") as f:
        rows = {r["PuzzleId"]: r for r in csv.DictReader(f) if r["PuzzleId"] in a}
    ids = sorted(p for p in a if p in b and p in rows and not a[p]["first_move_agrees"]
                 and b[p]["first_move_agrees"])
    random.Random(args.seed).shuffle(ids)
    ids = ids[: args.count]
    if not ids:
        sys.exit("puzzle-probe: no puzzle whose first move A missed and B found")
    engine = UciDriver(args.engine)
    engine.send("setoption name Hash value 16")
    under_searched = 0
    for pid in ids:
        row = rows[pid]
        moves = row["Moves"].split()
        position = f"position fen {row['FEN']} moves {moves[0]}"
        played, full, full_depth = search(engine, position, args.nodes)
        _, alone, alone_depth = search(engine, position, args.nodes, moves[1])
        _, played_alone, _ = search(engine, position, args.nodes, played)
        under_searched += alone is not None and full is not None and alone > full + args.margin
        print(f"{pid} rating {row['Rating']} solution {moves[1]} played {played}: full search "
              f"{full} (depth {full_depth}), solution alone {alone} (depth {alone_depth}), "
              f"played move alone {played_alone}", flush=True)
    engine.quit()
    print(f"{under_searched} of {len(ids)} solutions score more than {args.margin} cp above "
          f"the full search when searched alone ({args.nodes} nodes)")


if __name__ == "__main__":
    main()

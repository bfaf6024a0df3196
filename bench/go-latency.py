#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The fixed cost of one search: N consecutive tiny searches (`go depth 1` by default) through
# the UCI binaries, each waited for (bestmove) before the next, so what is timed is starting,
# stopping and reporting a search rather than searching. Two builds alternate over ROUNDS rounds
# in one run and the ratio of their medians is printed (the reference is measured beside the
# candidate, so machine load moves both).
#
# Usage: bench/go-latency.py NEW_BINARY OLD_BINARY [--threads T] [--go "go depth 1"]
#                            [--searches N] [--rounds R]
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from uci_driver import UciDriver  # noqa: E402


def time_searches(binary, threads, go, searches):
    engine = UciDriver(binary)
    engine.send(f"setoption name Threads value {threads}")
    engine.send("isready")
    engine.read_until("readyok")
    engine.send("position startpos")
    for _ in range(20):  # warm-up: first-touch of tables, thread start-up
        engine.send(go)
        engine.read_until("bestmove")
    start = time.perf_counter()
    for _ in range(searches):
        engine.send(go)
        engine.read_until("bestmove")
    elapsed = time.perf_counter() - start
    engine.quit()
    return elapsed / searches * 1e6


def main():
    ap = argparse.ArgumentParser(description="The fixed cost of one search, two builds compared")
    ap.add_argument("new")
    ap.add_argument("old")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--go", default="go depth 1")
    ap.add_argument("--searches", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    times = {args.new: [], args.old: []}
    for _ in range(args.rounds):
        for binary in (args.new, args.old):
            times[binary].append(time_searches(binary, args.threads, args.go, args.searches))
    for binary, values in times.items():
        print(f"{binary}: threads {args.threads}, '{args.go}' x{args.searches}: "
              + ", ".join(f"{v:.0f}" for v in values) + " us per search")
    new, old = statistics.median(times[args.new]), statistics.median(times[args.old])
    print(f"median new/old: {new:.0f} / {old:.0f} us = {new / old:.2f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What `axon datagen --syzygy` changes in the data (issue 47, section 4).

Plays the same self-play games twice, with one seed and fixed nodes, so that the games are move
for move the same until the tables would end them: once without tables (every game played out)
and once with `--syzygy DIRS` (a game ends on reaching a table position, with the table's
result). For every game the first run played past the point where the second stopped, it
compares the played-out result with the tables' one and counts the positions on each side of
that point. Prints:
  - the games that reach the tables, and how many of them the play-out scored wrongly (a table
    win drawn by the fifty-move rule or a repetition, a table draw won or lost by a blunder);
  - the training records of those games: the ones before the table position that carry the
    wrong result without tables, and the ones after it that only the first run spends time on;
  - the time each run took (the positions a second; the runs must not share the machine with a
    changing load for that figure to mean anything).
Exit status 1 when a game differs before the table position (the runs were not deterministic).

Usage: bench/datagen-tablebase.py [--games N] [--seed S] [--soft-nodes N] [--axon ./axon]
                                  [--work DIR] SYZYGY_DIRS
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

DUMP_LINE = re.compile(r"^(?P<fen>[^;]*) ; score [^;]*; result (?P<result>\w+); best (?P<best>\S+);"
                       r" ply \d+; game (?P<game>\d+)(?P<filtered>; filtered .*)?$")


def run_datagen(axon, out, args, syzygy):
    cmd = [axon, "datagen", "--out", out, "--games", str(args.games), "--format", "games",
           "--seed", str(args.seed), "--threads", "1", "--soft-nodes", str(args.soft_nodes),
           "--chunk-games", "1000"]
    if syzygy:
        cmd += ["--syzygy", syzygy]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    seconds = None
    for line in proc.stdout.splitlines() + proc.stderr.splitlines():
        m = re.match(r"^time\s+([0-9.]+) s", line)
        if m:
            seconds = float(m.group(1))
    return seconds


def read_games(axon, out):
    """{(file, game index): [(fen, white result, trained on)]} from `axon data dump`."""
    games = collections.defaultdict(list)
    for name in sorted(os.listdir(out)):
        if not name.endswith(".games"):
            continue
        dump = subprocess.run([axon, "data", "dump", os.path.join(out, name)],
                              capture_output=True, text=True, check=True).stdout
        for line in dump.splitlines():
            m = DUMP_LINE.match(line)
            if not m:
                sys.exit(f"unexpected dump line: {line}")
            fen = m.group("fen").strip()
            white_to_move = fen.split()[1] == "w"
            result = m.group("result")
            if not white_to_move:  # the dump gives the mover's result
                result = {"win": "loss", "loss": "win", "draw": "draw"}[result]
            games[(name, int(m.group("game")))].append(
                (fen, m.group("best"), result, m.group("filtered") is None))
    return games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("syzygy")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--soft-nodes", type=int, default=300)
    parser.add_argument("--axon", default="./axon")
    parser.add_argument("--work", default=None, help="keep the two runs' data here")
    args = parser.parse_args()
    axon = args.axon
    work = args.work or tempfile.mkdtemp(prefix="datagen-tablebase.")
    plain, tables = os.path.join(work, "plain"), os.path.join(work, "tables")
    for d in (plain, tables):
        shutil.rmtree(d, ignore_errors=True)
    t_plain = run_datagen(axon, plain, args, None)
    t_tables = run_datagen(axon, tables, args, args.syzygy)
    a, b = read_games(axon, plain), read_games(axon, tables)
    if set(a) != set(b):
        sys.exit(f"the runs hold different games: {len(a)} and {len(b)}")

    reached = wrong = 0
    kinds = collections.Counter()  # (table result, played result) of the wrong ones
    records_total = sum(p[3] for g in a.values() for p in g)
    records_wrong = records_after = plies_after = 0
    diverged = 0
    for key, played in a.items():
        stopped = b[key]
        n = len(stopped)
        if [p[:2] for p in played[:n]] != [p[:2] for p in stopped]:
            diverged += 1
            continue
        if len(played) == n:
            continue  # not ended by the tables: the same game and result in both runs
        reached += 1
        played_result, table_result = played[0][2], stopped[0][2]
        plies_after += len(played) - n
        records_after += sum(p[3] for p in played[n:])
        if played_result != table_result:
            wrong += 1
            kinds[(table_result, played_result)] += 1
            records_wrong += sum(p[3] for p in played[:n])

    pct = lambda x, y: 100.0 * x / y if y else 0.0
    print(f"games {len(a)} at {args.soft_nodes} soft nodes, seed {args.seed}, tables {args.syzygy}")
    print(f"reach the tables: {reached} ({pct(reached, len(a)):.1f} %)")
    print(f"played-out result differs from the tables': {wrong} of {reached} "
          f"({pct(wrong, reached):.1f} %)")
    for (table_result, played_result), count in sorted(kinds.items()):
        print(f"  tables say White {table_result}, the play-out {played_result}: {count}")
    print(f"training records without tables: {records_total}")
    print(f"  with the wrong result (before the table position): {records_wrong} "
          f"({pct(records_wrong, records_total):.2f} %)")
    print(f"  after the table position (not generated with tables): {records_after} "
          f"({pct(records_after, records_total):.2f} %); plies searched there: {plies_after}")
    if t_plain and t_tables:
        print(f"time: without tables {t_plain:.1f} s, with {t_tables:.1f} s "
              f"({pct(t_tables, t_plain):.1f} %)")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    if diverged:
        print(f"{diverged} games differ before the table position: not deterministic")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

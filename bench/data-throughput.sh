#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Throughput of the data pipeline (issue 16), all measured in one run on the same positions so
# that the ratios hold on a loaded machine:
#   datagen   `axon datagen` at 300 soft nodes, one thread: positions per CPU second;
#   bare      the teacher (Stockfish, `go depth 1`) fed every position through one pipe without
#             waiting for answers: the teacher's own ceiling, per wall and per CPU second;
#   label     `axon label` with that teacher, one job, --in-flight 1 (one round trip per position)
#             and the default (positions queued behind the teacher's search), with the ratio to
#             the bare rate;
#   end to end labelled positions per core-hour: datagen's CPU and the labelling's (labeller and
#             teacher) for the same positions; and with the engine's own search scores as labels
#             (network #3's choice, docs/nets.md), datagen's CPU alone.
# CPU seconds are the children's user + system time (getrusage), so another job on the machine
# does not count against them; wall rates do depend on the load (printed with them).
# Usage: bench/data-throughput.sh [positions] [teacher]   (AXON=path/to/axon, default build/axon;
#        teacher default /usr/games/stockfish)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly AXON=${AXON:-build/axon}
readonly POSITIONS=${1:-20000}
readonly TEACHER=${2:-/usr/games/stockfish}
[[ -x $TEACHER ]] || { echo "data-throughput: no teacher at $TEACHER (apt-get install stockfish)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$AXON" "$POSITIONS" "$TEACHER" "$work" <<'PY'
import os, resource, subprocess, sys, time
axon, positions, teacher, work = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def timed(fn):
    cpu0, wall0 = children_cpu(), time.perf_counter()
    out = fn()
    return out, time.perf_counter() - wall0, children_cpu() - cpu0

def run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout

print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

# datagen: positions per CPU second.
gen = os.path.join(work, "gen")
_, wall, cpu = timed(lambda: run([axon, "datagen", "--out", gen, "--threads", "1", "--positions",
                                  str(positions), "--soft-nodes", "300", "--seed", "16"]))
files = [os.path.join(gen, f) for f in sorted(os.listdir(gen)) if f.endswith(".bin")]
dump = run([axon, "data", "dump", *files])
fens = [line.split(";")[0].strip() for line in dump.splitlines() if ";" in line]
generated = len(fens)
datagen_cpu_rate = generated / cpu
print(f"datagen      {generated} positions, {datagen_cpu_rate:8.0f} /CPU s   ({generated / wall:.0f} /wall s)")
epd = os.path.join(work, "in.epd")
with open(epd, "w") as f:
    f.write("\n".join(fens) + "\n")

# bare: every position and go written at once, then all answers read.
def bare():
    text = "uci\nsetoption name Threads value 1\nsetoption name Hash value 16\nisready\n"
    text += "".join(f"position fen {fen}\ngo depth 1\n" for fen in fens) + "isready\nquit\n"
    out = subprocess.run([teacher], input=text, capture_output=True, text=True, check=True).stdout
    return out.count("\nbestmove ")
answered, wall, cpu = timed(bare)
assert answered == generated, f"the teacher answered {answered} of {generated}"
bare_wall, bare_cpu = generated / wall, generated / cpu
print(f"bare         {bare_wall:8.0f} /wall s   {bare_cpu:8.0f} /CPU s")

results = {}
for in_flight in (1, 16):
    out = os.path.join(work, f"label-{in_flight}.bin")
    _, wall, cpu = timed(lambda: run([axon, "label", "--in", epd, "--out", out, "--engine",
                                      f"cmd={teacher}", "option.Threads=1", "option.Hash=16",
                                      "--depth", "1", "--in-flight", str(in_flight),
                                      "--progress", "3600"]))
    results[in_flight] = (generated / wall, generated / cpu)
    print(f"label x{in_flight:<3}   {generated / wall:8.0f} /wall s   {generated / cpu:8.0f} /CPU s   "
          f"{generated / wall / bare_wall:5.2f} of bare (wall)")
same = open(os.path.join(work, "label-1.bin"), "rb").read() == open(os.path.join(work, "label-16.bin"), "rb").read()
print(f"labels with --in-flight 1 and 16 identical: {same}")

for in_flight, (_, label_cpu) in results.items():
    per_hour = 3600 / (1 / datagen_cpu_rate + 1 / label_cpu)
    print(f"end to end (--in-flight {in_flight:>2}): {per_hour / 1e6:5.2f} M labelled positions per core-hour")
print(f"end to end (own search scores, no teacher): {3600 * datagen_cpu_rate / 1e6:5.2f} M positions per core-hour")
print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
PY

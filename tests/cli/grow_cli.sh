#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `axon grow` end to end on a tiny configuration (two generations from a random start network:
# datagen, two candidates trained, gated at fixed nodes, the winner promoted and used for the
# next generation's data):
#   - a bad configuration is refused with the key's place;
#   - an undisturbed run finishes, promotes, plays generation 2 with generation 1's best, and
#     a rerun changes nothing;
#   - a run killed with SIGKILL at random moments and rerun after each kill, and one stopped by
#     SIGINT and rerun, end with the same data, networks, gate counts and state (less the
#     times) as the undisturbed run;
#   - changing a started generation's settings is refused;
#   - a pre-screen (at equal time: node odds from measured speed) gates only the candidates
#     above its bound, the best first, and --stop-gate ends a running gate unaccepted;
#   - a started generation's candidates and training may change before its first training run,
#     its gate before its first gate game, and nothing after;
#   - a teacher labels a generation's self-play and converted files chunk for chunk, and its
#     candidates train on the labels; "axon" as the teacher is this binary in process with the
#     best network, its labels the UCI teacher's;
#   - a loop leading its own session lowers the session's scheduling group (Linux autogroup).
# Usage: grow_cli.sh AXON [KILLS] [SEED]
set -euo pipefail
axon=$(realpath "$1")
kills=${2:-5}
RANDOM=${3:-1}
dir=$(mktemp -d)
pid=""
cleanup() {
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
    rm -rf "$dir"
}
trap cleanup EXIT
fail() {
    echo "grow_cli: $*" >&2
    exit 1
}
count() { "$axon" data stats "$1" | awk '/^records/ {print $2}'; }
cd "$dir"
ownNice=$(awk '{print $3}' /proc/self/autogroup 2>/dev/null || true)
"$axon" net random --hidden 32 --seed 3 start.nnue >/dev/null
cat >book.epd <<'EOF'
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2
EOF

# The gates: SPRT [0, 150], at most 16 games. Generation 1's networks beat the random start
# network by +100 to +220: h32 passes at 12 games, h64m is still short at 16 and is not promoted
# (generation 2's gates run to the limit or pass early, depending on the build's arithmetic).
# With [0, 50] and 40 games each of the four runs of this loop played 100 gate games, and under
# ASan on CI's 2 cores cli.grow passed its 300 s timeout (2026-12-08); now about 140 s under ASan
# on the development machine (2 cores, beside niced datagen).
cat >grow.json <<'EOF'
{
  "comment": "two tiny generations from a random network",
  "start_network": "start.nnue",
  "nice": 0,
  "defaults": {
    "datagen": {"seeds": [1, 2], "positions": 1500, "soft_nodes": 60, "chunk_positions": 500,
                "jobs": 2},
    "train": {"passes": 20, "superbatch_positions": 4096, "batch": 256, "min_superbatches": 2,
              "threads": 1, "lr": 0.01, "wdl": 0.5},
    "candidates": [{"name": "h32", "hidden": 32},
                   {"name": "h64m", "hidden": 64, "mirror": true, "output_buckets": 2}],
    "gate": {"limit": "nodes=300", "min_games": 4, "max_games": 16, "block_pairs": 2,
             "concurrency": 2, "openings": "book.epd", "sprt": {"elo0": 0, "elo1": 150}}
  },
  "generations": [{"name": "g", "repeat": 2}]
}
EOF

# --- bad configurations ------------------------------------------------------------------------
refused() { # FILE TEXT: the run fails, its message contains TEXT, and it wrote no work dir
    local out rc=0
    out=$("$axon" grow "$1" --work bad 2>&1) || rc=$?
    [[ $rc -eq 1 ]] || fail "$1: exit $rc, expected 1 ($out)"
    [[ $out == *"$2"* ]] || fail "$1: expected '$2' in: $out"
    [[ ! -e bad ]] || fail "$1: a refused configuration created its work directory"
}
sed 's/"jobs": 2/"jobs": 0/' grow.json >bad1.json
refused bad1.json "config.generations[0].datagen.jobs: out of range"
sed 's/"soft_nodes"/"softnodes"/' grow.json >bad2.json
refused bad2.json "config.generations[0].datagen.softnodes: unknown key"
sed 's/"h64m"/"h32"/' grow.json >bad3.json
refused bad3.json "the name 'h32' is used twice"
head -c 200 grow.json >bad4.json
refused bad4.json "not valid JSON"

# --- the undisturbed run -----------------------------------------------------------------------
start=$(date +%s%3N)
"$axon" grow grow.json --work ref --progress 0.05 >ref.log 2>&1 || fail "the run failed: $(tail -n 5 ref.log)"
duration=$(($(date +%s%3N) - start))
grep -q "g-1: h32 is the new best network" ref.log || grep -q "g-1: h64m is the new best network" ref.log ||
    fail "generation 1 promoted nothing: $(grep -a gate ref.log)"
grep -q "generation g-2 (2/2), playing with $dir/ref/g-1/best.nnue" ref.log ||
    fail "generation 2 did not play with generation 1's best: $(grep -a generation ref.log)"
# Generation 2's data was made by that network: datagen's manifest names its content hash.
hash=$("$axon" net info ref/g-1/best.nnue | awk '/hash/ {print $NF; exit}')
grep -q "^network ${hash#0x}" ref/g-2/data/s1001/1001-datagen.txt ||
    fail "g-2's datagen manifest does not name the best network ($hash): $(cat ref/g-2/data/s1001/1001-datagen.txt)"
for f in ref/report.md ref/report.svg ref/g-1/gate/h32/block-00000.pgn ref/g-2/train/h64m/final.nnue; do
    [[ -s $f ]] || fail "missing $f"
done
grep -q "| g-2 |" ref/report.md || fail "the report has no row for g-2"
grep -q '"done": true' ref/state.json || fail "state.json: nothing done"

# A rerun finds everything done: no file changes.
before=$(cd ref && find . -type f -print0 | sort -z | xargs -0 sha256sum)
"$axon" grow grow.json --work ref >rerun.log 2>&1 || fail "the rerun failed: $(tail -n 3 rerun.log)"
after=$(cd ref && find . -type f -print0 | sort -z | xargs -0 sha256sum)
[[ $before == "$after" ]] || fail "a rerun of a finished run changed files: $(diff <(echo "$before") <(echo "$after") | head)"
grep -q "generation g-" rerun.log && fail "a rerun of a finished run ran a generation again"
"$axon" grow grow.json --work ref --report | grep -q "h32" || fail "--report printed no table"

# What must equal the undisturbed run: every data chunk, network, gate count, and the state
# without its times and its work directory's name.
fingerprint() {
    (cd "$1" && find . -type f \( -path '*/data/*.bin' -o -name '*.nnue' -o -name 'block-*.json' \
        -o -name '*-datagen.txt' \) -print0 | sort -z | xargs -0 sha256sum)
    python3 - "$1" <<'PY'
import json, sys
work = sys.argv[1]
state = json.load(open(work + "/state.json"))
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("cost", "data_cost")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    if isinstance(x, str):
        return x.replace(work, "WORK")
    return x
print(json.dumps(strip(state), sort_keys=True))
PY
}
refPrint=$(fingerprint "$dir/ref")

# waitFor TEXT [LOG]: until the running job's log (default stopped.log) shows TEXT (a log its
# background job has not created yet reads as empty).
waitFor() {
    local log=${2:-stopped.log}
    for _ in $(seq 3000); do
        grep -qas "$1" "$log" && return 0
        kill -0 "$pid" 2>/dev/null || fail "the run ended before '$1': $(tail -n 3 "$log")"
        sleep 0.02
    done
    fail "no '$1' within 60 s"
}

# interruptAt CONFIG WORK TEXT: runs the loop in the background until its log (WORK.log) shows
# TEXT, then stops it with SIGINT at its next safe point.
interruptAt() {
    "$axon" grow "$1" --work "$2" --progress 0.05 >>"$2.log" 2>&1 &
    pid=$!
    waitFor "$3" "$2.log"
    kill -INT "$pid"
    wait "$pid" || true
    pid=""
}

# refusedRun TEXT ARGS...: `axon grow ARGS` exits 1 with TEXT in its message.
refusedRun() {
    local expected=$1 out rc=0
    shift
    out=$("$axon" grow "$@" 2>&1) || rc=$?
    [[ $rc -eq 1 && $out == *"$expected"* ]] || fail "axon grow $* (exit $rc, expected 1 and '$expected'): $out"
}

# --- killed in every step: datagen, training, a gate, between generations -------------------------
: >phased.log
for phase in "g-1: datagen" "g-1 train h32: superbatch 1" "g-1: gate of h64m" "generation g-2" \
    "g-2 train h64m: superbatch 2"; do
    "$axon" grow grow.json --work "$dir/phased" --progress 0.05 >>phased.log 2>&1 &
    pid=$!
    waitFor "$phase" phased.log
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null || true
    pid=""
done
"$axon" grow grow.json --work "$dir/phased" >>phased.log 2>&1 || fail "the run after the phased kills failed"
[[ "$(fingerprint "$dir/phased")" == "$refPrint" ]] ||
    fail "the run killed in each step differs: $(diff <(echo "$refPrint") <(fingerprint "$dir/phased") | head -n 8)"

# --- killed at random moments ------------------------------------------------------------------
done=0
while true; do
    "$axon" grow grow.json --work "$dir/killed" --progress 0.05 >killed.log 2>&1 &
    pid=$!
    if [[ $done -lt $kills ]]; then
        delay=$((RANDOM % (duration > 40 ? duration / 2 : 20)))
        sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
        if kill -KILL "$pid" 2>/dev/null; then
            wait "$pid" 2>/dev/null || true
            pid=""
            done=$((done + 1))
            # The state file is never half written.
            if [[ -e killed/state.json ]]; then
                python3 -c 'import json,sys; json.load(open(sys.argv[1]))' killed/state.json ||
                    fail "state.json does not read after kill $done at $delay ms"
            fi
            continue
        fi
    fi
    rc=0
    wait "$pid" || rc=$?
    pid=""
    [[ $rc -eq 0 ]] || fail "the resumed run exited $rc: $(tail -n 5 killed.log)"
    break
done
[[ "$(fingerprint "$dir/killed")" == "$refPrint" ]] ||
    fail "after $done kills the run differs from the undisturbed one: $(diff <(echo "$refPrint") <(fingerprint "$dir/killed") | head -n 8)"
echo "grow_cli: $done kills within $duration ms, resumed to the same end"

# --- Ctrl-C in training, Ctrl-C in a gate, and a second run on the same directory -------------
: >stopped.log
for phase in "g-1: training h64m" "g-2: gate of h32"; do
    "$axon" grow grow.json --work "$dir/stopped" --progress 0.05 >>stopped.log 2>&1 &
    pid=$!
    waitFor "$phase"
    if [[ $phase == *training* ]]; then
        # The directory is the running loop's: a second run is refused at once.
        rc=0
        "$axon" grow grow.json --work "$dir/stopped" >second.log 2>&1 || rc=$?
        [[ $rc -eq 1 ]] && grep -q "in use by another running axon grow" second.log ||
            fail "a second run on a busy work directory: exit $rc: $(cat second.log)"
    fi
    kill -INT "$pid"
    rc=0
    wait "$pid" || rc=$?
    pid=""
    [[ $rc -eq 130 ]] || fail "SIGINT at '$phase': exit $rc: $(tail -n 3 stopped.log)"
    grep -q "interrupted at a safe point" stopped.log || fail "SIGINT: no message"
done
"$axon" grow grow.json --work "$dir/stopped" >>stopped.log 2>&1 || fail "the run after SIGINT failed"
[[ "$(fingerprint "$dir/stopped")" == "$refPrint" ]] ||
    fail "the run stopped by SIGINT differs: $(diff <(echo "$refPrint") <(fingerprint "$dir/stopped") | head -n 8)"

# --- data from elsewhere: engine-match PGNs converted into a generation's data ---------------------
# (OpenBench DATAGEN uploads are such PGNs); here the games of the gates above.
python3 - "$dir" <<'PY'
import json, sys
config = json.load(open(sys.argv[1] + "/grow.json"))
config["generations"] = [{"name": "conv", "datagen": {"seeds": []},
    "convert": [{"from": "pgn", "inputs": ["ref/g-1/gate/h32/block-00000.pgn",
                                            "ref/g-2/gate/h32/block-00000.pgn"]}],
    "candidates": [{"name": "h32", "hidden": 32}],
    "gate": {"min_games": 2, "max_games": 4}}]
json.dump(config, open(sys.argv[1] + "/conv.json", "w"))
PY
"$axon" grow conv.json --work conv >conv.log 2>&1 || fail "the convert generation failed: $(tail -n 5 conv.log)"
records=$("$axon" data stats conv/conv/data/convert-0.bin | awk '/^records/ {print $2}')
[[ ${records:-0} -gt 100 ]] || fail "the converted file holds ${records:-no} records"
grep -q "training h32 (32 hidden) on $records positions in 1 files" conv.log ||
    fail "the candidate did not train on the converted file: $(grep -a training conv.log)"
[[ -s conv/conv/train/h32/final.nnue ]] || fail "no network from the converted data"

# --- a teacher's labels: every data file of the generation scored by a UCI engine -----------------
# (Axon itself at depth 4 as the teacher, its centipawns doubled.) The labelled copies keep each
# chunk's records; the candidates read them alone (the self-play's own files are moved away after
# the labels, and the training still runs); a label change after labelling began is refused.
python3 - "$dir" "$axon" <<'PY'
import json, sys
config = json.load(open(sys.argv[1] + "/grow.json"))
config["generations"] = [{"name": "lab", "datagen": {"seeds": [5], "positions": 3000},
    "convert": [{"from": "pgn", "inputs": ["ref/g-1/gate/h32/block-00000.pgn"]}],
    "label": {"engine": sys.argv[2], "options": {"Hash": 4, "Threads": "1"}, "depth": 4,
              "jobs": 2, "score_factor": 2},
    "candidates": [{"name": "h32", "hidden": 32}],
    "gate": {"min_games": 2, "max_games": 2}}]
json.dump(config, open(sys.argv[1] + "/lab.json", "w"))
config["generations"][0]["label"]["depth"] = 3
json.dump(config, open(sys.argv[1] + "/lab3.json", "w"))
PY
# Stopped inside the labels, then again once they are done (its own log: lab.log has the line).
interruptAt lab.json lab "lab: label 1/2: "
"$axon" grow lab.json --work lab --progress 0.05 >lab2.log 2>&1 &
pid=$!
waitFor "lab: labels done" lab2.log
kill -INT "$pid"
wait "$pid" || true
pid=""
grep -a "lab: label" lab2.log | grep -q "resumed\|label 1/2\|label 2/2" ||
    fail "the second run labelled nothing: $(grep -a 'lab:' lab2.log | head -n 5)"
grep -q "lab: labelling [0-9]* positions with $axon at depth=4, 2 teacher(s)" lab.log ||
    fail "no label line: $(grep -a 'lab:' lab.log | head -n 3)"
# Every chunk of WORK's generation "lab": the same labels as `axon label` gives with this binary
# as a UCI teacher, depth 4, factor 2, Hash 4 and the extra options given; and not the
# self-play's own scores.
sameAsAxonLabel() {
    local work=$1 f l
    shift
    for f in "$work"/lab/data/s5/*.bin "$work"/lab/data/convert-0.bin; do
        l=$work/lab/label/${f#"$work"/lab/data/}
        [[ -s $l ]] || fail "$work: no labelled copy of $f"
        "$axon" label --in "$f" --out direct.bin --engine "cmd=$axon" option.Hash=4 option.Threads=1 \
            "$@" --depth 4 --score-factor 2 >/dev/null 2>&1 || fail "axon label failed on $f"
        cmp -s direct.bin "$l" || fail "the loop's labels of $f differ from axon label's"
        cmp -s <("$axon" data dump "$f" | cut -d';' -f2) <("$axon" data dump "$l" | cut -d';' -f2) &&
            fail "$l has the self-play's own scores"
        rm direct.bin
    done
}
sameAsAxonLabel lab
# The state's scale: the least-squares line through zero over the first 1000 records of each
# file pair, the self-play's score and the teacher's own (written / 2) both within 2000.
python3 - lab/state.json lab/lab/data/s5/*.bin lab/lab/data/convert-0.bin <<'PY' ||
import json, struct, sys
state = json.load(open(sys.argv[1]))["generations"][0]["label_ratio"]
num = den = 0.0
for own in sys.argv[2:]:
    taught = own.replace("/lab/data/", "/lab/label/")
    a, b = open(own, "rb").read(), open(taught, "rb").read()
    for k in range(min(1000, (len(a) - 32) // 32)):
        x = struct.unpack_from("<h", a, 32 + 32 * k + 24)[0]
        y = struct.unpack_from("<h", b, 32 + 32 * k + 24)[0]
        if abs(x) <= 2000 and abs(y) <= 4000:
            num += x * y
            den += x * x
sys.exit(0 if den > 0 and abs(state - num / den) < 1e-9 * max(1, abs(state)) else 1)
PY
    fail "the state's label_ratio is not the fit of the files: $(grep -a label_ratio lab/state.json)"
mv lab/lab/data lab/lab/data.moved
"$axon" grow lab.json --work lab >>lab.log 2>&1 || fail "the labelled generation failed: $(tail -n 5 lab.log)"
grep -q "lab: training h32 (32 hidden) on [0-9]* positions in [0-9]* files (this generation's labelled by its teacher)" lab.log ||
    fail "the candidate did not train on the labels: $(grep -a 'lab: training' lab.log)"
[[ -s lab/lab/train/h32/final.nnue ]] || fail "no network from the labelled data"
grep -q "labelled by $(basename "$axon") at depth 4" lab/report.md || fail "the report does not name the teacher"
refusedRun "generation 'lab' started with other settings" lab3.json --work lab

# --- the in-process teacher: "engine": "axon" is this binary's search with the best network ------
# The same generation with Axon in process as the teacher: every chunk's labels are what `axon
# label` gives with this binary as a UCI teacher holding the loop's best network (start.nnue).
python3 - "$dir" <<'PY'
import json, sys
config = json.load(open(sys.argv[1] + "/lab.json"))
config["generations"][0]["label"]["engine"] = "axon"
json.dump(config, open(sys.argv[1] + "/labself.json", "w"))
PY
"$axon" grow labself.json --work labself >labself.log 2>&1 || fail "the in-process teacher's generation failed: $(tail -n 5 labself.log)"
grep -q "lab: labelling [0-9]* positions with this binary's search in process ($dir/start.nnue) at depth=4, 2 teacher(s)" labself.log ||
    fail "no in-process label line: $(grep -a 'lab: labelling' labself.log)"
sameAsAxonLabel labself "option.EvalFile=$dir/start.nnue"

# --- a pre-screen before the gate, and a gate stopped by the user ---------------------------------
# Data converted from the gates' games above, so no self-play is needed. Generation "pre": both
# candidates pre-screened (fixed length, no SPRT), then gated in the order of their pre-screen
# Elo, and once one is accepted the other is not gated. Generation "low": a bound no candidate
# reaches, so no gate is played and nothing is promoted. Generation "seq": a pre-screen with an
# SPRT.
python3 - "$dir" <<'PY'
import json, sys
config = json.load(open(sys.argv[1] + "/grow.json"))
pgns = ["ref/g-1/gate/h32/block-00000.pgn", "ref/g-2/gate/h32/block-00000.pgn"]
convert = [{"from": "pgn", "inputs": pgns}]
config["generations"] = [
    {"name": "pre", "datagen": {"seeds": []}, "convert": convert,
     # h64m trains long (100 superbatches, under a second in release) so that the SIGINT sent
     # when its training starts (interruptAt below) lands inside it; h32 needs no such length.
     "candidates": [{"name": "h32", "hidden": 32},
                    {"name": "h64m", "hidden": 64, "mirror": True, "output_buckets": 2,
                     "train": {"min_superbatches": 100}}],
     "gate": {"prescreen": {"limit": "nodes=200", "games": 8, "min_elo": -1000,
                            "equal_time": True, "speed_rounds": 1, "speed_depth": 4}}},
    {"name": "low", "datagen": {"seeds": []}, "convert": convert,
     "candidates": [{"name": "h32", "hidden": 32}],
     "gate": {"prescreen": {"limit": "nodes=200", "games": 4, "min_elo": 2000}}},
    {"name": "seq", "datagen": {"seeds": []}, "convert": convert,
     "candidates": [{"name": "h32", "hidden": 32}],
     "gate": {"prescreen": {"limit": "nodes=200", "games": 40, "min_elo": -1000, "min_games": 8,
                            "sprt": {"elo0": 800, "elo1": 900}}}}]
json.dump(config, open(sys.argv[1] + "/pre.json", "w"))
config["generations"][0]["gate"]["prescreen"]["min_elo"] = -900
json.dump(config, open(sys.argv[1] + "/pre0.json", "w"))
config["generations"] = [{"name": "s", "datagen": {"seeds": []}, "convert": convert,
    "candidates": [{"name": "h32", "hidden": 32}],
    "gate": {"min_games": 100000, "max_games": 100000, "block_pairs": 1}}]
json.dump(config, open(sys.argv[1] + "/stop.json", "w"))
PY
# Started with other gate settings and stopped before any gate game: the new settings apply.
interruptAt pre0.json pre "pre: training h64m"
"$axon" grow pre.json --work pre >>pre.log 2>&1 || fail "the pre-screened run failed: $(tail -n 5 pre.log)"
grep -q "generation pre: its gate settings changed before its first gate game" pre.log ||
    fail "a gate changed before its first game was not taken: $(grep -a 'generation pre' pre.log)"
# Once its games have begun, a gate's settings are fixed like the rest.
refusedRun "generation 'pre' started with other settings" pre0.json --work pre
for c in h32 h64m; do
    grep -q "pre: pre-screen of $c against" pre.log || fail "no pre-screen of $c: $(grep -a pre-screen pre.log)"
    n=$(ls pre/pre/prescreen/$c/block-*.json | wc -l)
    [[ $n -eq 2 ]] || fail "the pre-screen of $c has $n blocks, expected 2 (8 games, blocks of 2 pairs)"
done
# At equal time: each candidate's speed against the best is measured once and kept.
for c in h32 h64m; do
    grep -q "pre: $c searches at [0-9.]* of the best network's speed" pre.log ||
        fail "no speed measurement for $c: $(grep -a 'pre:' pre.log)"
done
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); odds=[c["prescreen_odds"] for c in s["generations"][0]["candidates"]]; sys.exit(0 if all(0.25 <= o <= 4 for o in odds) else 1)' pre/state.json ||
    fail "the node odds are not in the state: $(grep -a odds pre/state.json)"
grep -q "node odds" pre/report.md || fail "the report shows no node odds"
# The pre-screen's lines have no LLR: its length is fixed.
grep -a "pre pre-screen" pre.log | grep -q LLR && fail "a pre-screen's line gives an LLR"
eloOf() { python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print([c for c in s["generations"][0]["candidates"] if c["name"]==sys.argv[2]][0]["prescreen"]["elo"])' pre/state.json "$1"; }
first=$(python3 -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print("h32" if a>=b else "h64m")' "$(eloOf h32)" "$(eloOf h64m)")
second=$([[ $first == h32 ]] && echo h64m || echo h32)
gated=$(grep -a "pre: gate of" pre.log | head -n 1)
[[ $gated == *"gate of $first "* ]] || fail "the first gate is not the better pre-screen's ($first): $gated"
verdict=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print([c for c in s["generations"][0]["candidates"] if c["name"]==sys.argv[2]][0]["gate"]["verdict"])' pre/state.json "$first")
if [[ $verdict == H1 ]]; then
    grep -q "pre: $second is not gated: $first's gate accepted it first" pre.log ||
        fail "$first was accepted but $second was still gated: $(grep -a 'pre:' pre.log)"
    [[ ! -e pre/pre/gate/$second ]] || fail "the skipped candidate played gate games"
else
    grep -q "pre: gate of $second" pre.log || fail "$first failed its gate and $second was not gated"
fi
grep -q "low: h32 is not gated: its pre-screen's Elo" pre.log || fail "a candidate below min_elo was gated: $(grep -a 'low:' pre.log)"
[[ ! -e pre/low/gate ]] || fail "a candidate below min_elo played gate games"
grep -q "low: no candidate passed its gate" pre.log || fail "generation low promoted a network"
# Generation "seq": a pre-screen with its own SPRT, whose bounds no candidate can reach, ends on
# H0 after its min_games rather than at its length, and the candidate is not gated.
grep -q "seq: pre-screen of h32 against .*, SPRT \[800.0, 900.0\], at most 40 games" pre.log ||
    fail "no sequential pre-screen line: $(grep -a 'seq:' pre.log)"
grep -a "seq pre-screen h32" pre.log | grep -q "LLR" || fail "a sequential pre-screen's line gives no LLR"
grep -q "seq: h32 is not gated: its pre-screen's SPRT accepted H0" pre.log ||
    fail "a pre-screen ended on H0 was gated: $(grep -a 'seq' pre.log)"
n=$(ls pre/seq/prescreen/h32/block-*.json | wc -l)
((n >= 2 && n < 10)) || fail "the sequential pre-screen played $n blocks, expected from 2 (min_games 8) to fewer than 10 (40 games)"
[[ ! -e pre/seq/gate ]] || fail "a candidate whose pre-screen ended on H0 played gate games"
grep -q "| skipped |" pre/report.md || fail "the report shows no skipped gate"
grep -q "games, nodes=200)" pre/report.md || fail "the report shows no pre-screen: $(cat pre/report.md)"

interruptAt stop.json stop "s gate h32: games 4/"
refusedRun "--stop-gate nosuch: no such generation has started" stop.json --work stop --stop-gate nosuch
"$axon" grow stop.json --work stop --stop-gate s >>stop.log 2>&1 || fail "--stop-gate failed: $(tail -n 3 stop.log)"
grep -q "s: the gate of h32 stopped by the user after [0-9]* games" stop.log || fail "no stop line: $(tail -n 5 stop.log)"
grep -q "s: no candidate passed its gate" stop.log || fail "a stopped gate promoted its candidate"
grep -q '"verdict": "stopped"' stop/state.json || fail "state.json has no stopped gate"
[[ ! -e stop/s/best.nnue ]] || fail "a stopped gate promoted its candidate"
refusedRun "generation 's' is done: no gate to stop" stop.json --work stop --stop-gate s

# --- a started generation's candidates may change before its first training run --------------
# (A datagen long enough for the SIGINT to land inside it, and tiny trainings and gates.)
python3 - "$dir" <<'PY'
import json, sys
config = json.load(open(sys.argv[1] + "/grow.json"))
config["generations"] = [{"name": "a", "datagen": {"seeds": [7], "positions": 50000,
                                                     "chunk_positions": 5000, "jobs": 1},
                          "train": {"passes": 1}, "gate": {"min_games": 2, "max_games": 2}}]
json.dump(config, open(sys.argv[1] + "/amend0.json", "w"))
config["generations"][0]["candidates"] = [{"name": "h48", "hidden": 64}]
config["generations"][0]["train"]["wdl"] = 0.3
json.dump(config, open(sys.argv[1] + "/amend.json", "w"))
PY
interruptAt amend0.json amend "a: datagen"
[[ ! -e amend/a/train ]] || fail "training began before the datagen's SIGINT took effect"
"$axon" grow amend.json --work amend >>amend.log 2>&1 || fail "the amended run failed: $(tail -n 5 amend.log)"
grep -q "generation a: its labels, training, candidates or gate changed before its first label or training run" amend.log ||
    fail "the amended candidates were not taken: $(grep -a 'generation a' amend.log)"
[[ -s amend/a/train/h48/final.nnue && ! -e amend/a/train/h32 ]] ||
    fail "generation a did not train the amended candidate: $(ls amend/a/train)"
# Once trained, the candidates are fixed like the data.
refusedRun "generation 'a' started with other settings" amend0.json --work amend

# --- the session's priority (Linux autogroup) ------------------------------------------------------
# A loop that leads its own session (setsid) lowers the session's scheduling group to its nice,
# which is what makes its nice count against other sessions' processes; one that does not lead
# its session leaves its group, which it shares with this script, alone.
if [[ -r /proc/self/autogroup ]] && command -v setsid >/dev/null; then
    groupNice() { awk '{print $3}' "/proc/$1/autogroup"; }
    sed 's/"nice": 0/"nice": 7/' grow.json >niced.json
    # Started from this script (not a session leader): this script's group keeps its nice.
    "$axon" grow niced.json --work niced-shared --progress 0.05 >niced-shared.log 2>&1 &
    pid=$!
    waitFor "g-1: datagen" niced-shared.log
    [[ "$(groupNice $$)" == "$ownNice" ]] ||
        fail "a loop outside its own session changed this script's group: nice $(groupNice $$), was $ownNice"
    kill -INT "$pid"
    wait "$pid" || true
    pid=""
    setsid "$axon" grow niced.json --work niced --progress 0.05 >niced.log 2>&1 &
    pid=$!
    waitFor "g-1: datagen" niced.log
    [[ "$(groupNice "$pid")" == 7 ]] ||
        fail "a loop leading its session: its group's nice is $(groupNice "$pid"), not 7"
    kill -INT "$pid"
    wait "$pid" || true
    pid=""
fi

# --- a started generation's settings cannot change -----------------------------------------------
sed 's/"soft_nodes": 60/"soft_nodes": 61/' grow.json >changed.json
refusedRun "generation 'g-1' started with other settings" changed.json --work ref
# Its comments can, at any depth, even once it is done: they change nothing the loop does.
python3 - "$dir" <<'PY'
import json, sys
config = json.load(open(sys.argv[1] + "/grow.json"))
config["defaults"]["datagen"]["comment"] = "a new note on the data"
config["defaults"]["candidates"][0]["comment"] = "a note on h32"
config["generations"][0]["comment"] = "a note on the generations"
json.dump(config, open(sys.argv[1] + "/commented.json", "w"))
PY
before=$(cd ref && find . -type f ! -name state.json -print0 | sort -z | xargs -0 sha256sum)
"$axon" grow commented.json --work ref >commented.log 2>&1 || fail "a comment-only change was refused: $(tail -n 3 commented.log)"
grep -q "generation g-1: only its comments changed" commented.log || fail "no comments line: $(cat commented.log)"
grep -q "generation g-[12] (" commented.log && fail "a comment-only change ran a generation again"
after=$(cd ref && find . -type f ! -name state.json -print0 | sort -z | xargs -0 sha256sum)
[[ $before == "$after" ]] || fail "a comment-only change changed files: $(diff <(echo "$before") <(echo "$after") | head)"
echo "grow_cli: ok"

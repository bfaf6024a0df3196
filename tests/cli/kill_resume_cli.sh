#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Nothing is lost when a long job dies: `axon datagen`, `label`, `convert` and `train` are each
# run once undisturbed, then again with SIGKILL at random moments, rerun (resumed) after every
# kill until they finish. After each kill no file the job left under its final name may fail to
# read as data (the atomic writers keep half-written files under .tmp names); at the end the
# output must equal the undisturbed run's, byte for byte.
#
# Usage: kill_resume_cli.sh AXON SHARED_DATA_DIR [KILLS] [SEED]
#   KILLS  kills per job (default 4); the moments are drawn from SEED (default 1) over the
#          undisturbed run's duration, so a failure can be replayed.
set -euo pipefail
axon=$1
data=$2
kills=${3:-4}
RANDOM=${4:-1}
dir=$(mktemp -d)
pid=""
cleanup() {
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
    rm -rf "$dir"
}
trap cleanup EXIT
fail() {
    echo "kill_resume_cli: $*" >&2
    exit 1
}
nowMs() { date +%s%3N; }
count() { "$axon" data stats "$1" | awk '/^records/ {print $2}'; }

# timed OUTVAR CMD...: runs CMD undisturbed; OUTVAR gets its duration in ms.
timed() {
    local var=$1 start
    shift
    start=$(nowMs)
    ("$@") >"$dir/ref.log" 2>&1 || fail "undisturbed run failed: $* ($(tail -n 3 "$dir/ref.log"))"
    printf -v "$var" '%s' $(($(nowMs) - start))
}

# killed NAME DURATION_MS CHECK CMD...: runs CMD, killing it with SIGKILL after a random delay
# (within DURATION_MS) up to $kills times and calling CHECK after each kill, then lets it end.
killed() {
    local name=$1 duration=$2 check=$3 done=0 rc delay window=$2
    shift 3
    while true; do
        "$@" >"$dir/$name.log" 2>&1 &
        pid=$!
        if [[ $done -lt $kills ]]; then
            delay=$((RANDOM % (duration > 20 ? duration : 20)))
            sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
            if kill -KILL "$pid" 2>/dev/null; then
                wait "$pid" 2>/dev/null || true
                pid=""
                done=$((done + 1))
                "$check" || fail "$name: after kill $done at ${delay} ms: $check failed"
                continue
            fi
        fi
        rc=0
        wait "$pid" || rc=$?
        pid=""
        # A run the kill missed (it had finished) or the last one: it must have succeeded.
        [[ $rc -eq 0 ]] || fail "$name: exited $rc: $(grep -av 'skipped' "$dir/$name.log" | tail -n 5)"
        [[ $done -ge $kills ]] && break
        # Finished before the kill: the rerun must find everything done; draw a shorter delay.
        duration=$((duration / 2))
        [[ $duration -ge 20 ]] || break
    done
    echo "kill_resume_cli: $name: $done kills within $window ms, resumed to the end"
}

# --- datagen: chunk files ---------------------------------------------------------------------
# Each job function ends in `exec`: run in the background, its subshell becomes the process
# itself, so the SIGKILL reaches the job and not only a shell around it.
datagen() {
    exec "$axon" datagen --out "$1" --threads 1 --positions 3000 --soft-nodes 300 \
        --chunk-positions 250 --seed 21 --progress 10
}
# Every chunk under its final name reads as data (`data stats` validates every record).
checkChunks() {
    local f
    for f in "$dir"/killed-datagen/*.bin; do
        [[ -e $f ]] || continue
        "$axon" data stats "$f" >/dev/null 2>&1 || {
            echo "unreadable chunk $f" >&2
            return 1
        }
    done
}
timed ms datagen "$dir/ref-datagen"
killed datagen "$ms" checkChunks datagen "$dir/killed-datagen"
for f in "$dir"/ref-datagen/*.bin; do
    cmp -s "$f" "$dir/killed-datagen/${f##*/}" || fail "datagen: ${f##*/} differs after kills"
done
[[ $(find "$dir/killed-datagen" -name '*.bin' | wc -l) -eq $(find "$dir/ref-datagen" -name '*.bin' | wc -l) ]] ||
    fail "datagen: chunk counts differ"
! compgen -G "$dir/killed-datagen/*.tmp" >/dev/null || fail "datagen: .tmp files left behind"

# --- label: Axon itself as the (deterministic, one-thread) teacher ----------------------------
input=$(ls "$dir"/ref-datagen/*.bin | head -n 2)
label() {
    # shellcheck disable=SC2086 # two input files
    exec "$axon" label --in $input --out "$1" --engine "cmd=$axon" --nodes 300 --block 50 --progress 10
}
checkLabel() {
    local f
    if [[ -e $dir/killed-label.bin ]]; then
        cmp -s "$dir/ref-label.bin" "$dir/killed-label.bin" || {
            echo "a label output exists and is not the whole result" >&2
            return 1
        }
    fi
    for f in "$dir"/killed-label.bin.parts/*.bin; do
        [[ -e $f ]] || continue
        "$axon" data stats "$f" >/dev/null 2>&1 || {
            echo "unreadable part $f" >&2
            return 1
        }
    done
}
timed ms label "$dir/ref-label.bin"
killed label "$ms" checkLabel label "$dir/killed-label.bin"
cmp -s "$dir/ref-label.bin" "$dir/killed-label.bin" || fail "label: output differs after kills"
[[ ! -e $dir/killed-label.bin.parts ]] || fail "label: parts left behind"

# --- convert: one atomic output ---------------------------------------------------------------
convert() {
    exec "$axon" convert --from lichess-pgn --in "$data/pgn/lichess_eval_sample.pgn" --out "$1" \
        --progress 10
}
checkConvert() {
    [[ ! -e $dir/killed-convert.bin ]] || cmp -s "$dir/ref-convert.bin" "$dir/killed-convert.bin" || {
        echo "a convert output exists and is not the whole result" >&2
        return 1
    }
}
timed ms convert "$dir/ref-convert.bin"
killed convert "$ms" checkConvert convert "$dir/killed-convert.bin"
cmp -s "$dir/ref-convert.bin" "$dir/killed-convert.bin" || fail "convert: output differs"
[[ $(count "$dir/ref-convert.bin") -gt 0 ]] || fail "convert: no records"

# --- train: checkpoints and networks ----------------------------------------------------------
"$axon" train-synth "$dir/train.axd" --positions 20000 --seed 3 >/dev/null || fail "train-synth"
train() {
    local resume=()
    [[ -e $1/checkpoint.bin ]] && resume=(--resume)
    exec "$axon" train --data "$dir/train.axd" --out "$1" --hidden 32 --threads 1 --batch 256 \
        --superbatch-positions 10240 --superbatches 12 --lr 0.01 --val-fraction 0.1 --seed 5 \
        --quiet "${resume[@]}"
}
checkTrain() {
    local f
    for f in "$dir"/killed-train/*.nnue; do
        [[ -e $f ]] || continue
        "$axon" net info "$f" | grep -q '^valid  *yes$' || {
            echo "invalid network $f" >&2
            return 1
        }
    done
}
timed ms train "$dir/ref-train"
killed train "$ms" checkTrain train "$dir/killed-train"
# The network is a function of data, settings and seed; the checkpoint's history has times.
cmp -s "$dir/ref-train/final.nnue" "$dir/killed-train/final.nnue" ||
    fail "train: final.nnue differs after kills"
echo "kill_resume_cli: ok"

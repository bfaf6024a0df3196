#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `axon label`. Mode "fake" (Axon itself and misbehaving wrappers as teachers): data, EPD and
# game-file inputs, results and plies kept, the default in-process teacher's labels equal to Axon's
# as a UCI teacher, two jobs equal one, --in-flight 1 equals the default, resume
# after a lost part, a crash (in the middle of a batch in flight) retried, a position that
# always crashes skipped and reported, a broken teacher stopped.
# Mode "stockfish": Debian's /usr/games/stockfish on 50 positions, the same labels with
# positions queued behind its search (--in-flight) as one at a time; exits 77 (SKIP) without it,
# outside CI.
set -euo pipefail
axon=$1
mode=${2:-fake}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "label_cli: $*"; exit 1; }
count() { "$axon" data stats "$1" | awk '/^records/ {print $2}'; }

if [[ $mode == stockfish && ! -x /usr/games/stockfish ]]; then
    # In CI (CI set) scripts/install-deps.sh has installed it: missing there is a failure.
    [[ -n ${CI:-} ]] && fail "no /usr/games/stockfish (scripts/install-deps.sh installs it)"
    echo "SKIP: /usr/games/stockfish is not installed (apt-get install stockfish)"
    exit 77
fi

"$axon" datagen --out "$dir/gen" --threads 1 --positions 50 --soft-nodes 300 --seed 4 \
    >/dev/null 2>&1 || fail "datagen failed"
input=$(ls "$dir/gen"/4-t0-*.bin)
n=$(count "$input")
"$axon" data dump "$input" --limit 50 | cut -d';' -f1 >"$dir/in.epd"

if [[ $mode == stockfish ]]; then
    out=$("$axon" label --in "$dir/in.epd" --out "$dir/sf.bin" --engine cmd=/usr/games/stockfish \
        option.Threads=1 option.Hash=16 --depth 6 --jobs 2 --block 16 2>"$dir/sf.err") ||
        fail "stockfish run failed: $(cat "$dir/sf.err")"
    [[ $(count "$dir/sf.bin") == 50 ]] || fail "stockfish labelled $(count "$dir/sf.bin") of 50"
    # Stockfish takes positions queued behind its search too: the same labels one at a time.
    "$axon" label --in "$dir/in.epd" --out "$dir/sf1.bin" --engine cmd=/usr/games/stockfish \
        option.Threads=1 option.Hash=16 --depth 6 --jobs 2 --block 16 --in-flight 1 \
        >/dev/null 2>"$dir/sf.err" || fail "stockfish --in-flight 1 failed: $(cat "$dir/sf.err")"
    cmp -s "$dir/sf1.bin" "$dir/sf.bin" || fail "stockfish labels differ with --in-flight 1"
    stats=$("$axon" data stats "$dir/sf.bin")
    grep -q "^best move *100.0%" <<<"$stats" || fail "stockfish labels without moves: $stats"
    grep -q "mean |score| 0.0" <<<"$stats" && fail "all stockfish scores are 0: $stats"
    echo "label: stockfish labelled 50 positions"
    exit 0
fi

teacher="cmd=$axon"
label() { "$axon" label --engine "$teacher" --depth 3 --progress 0.2 "$@"; }

label --in "$input" --out "$dir/one.bin" --block 7 >"$dir/one.out" 2>"$dir/one.err" || fail "$(cat "$dir/one.err")"
[[ $(count "$dir/one.bin") == "$n" ]] || fail "labelled $(count "$dir/one.bin") of $n"
diff <("$axon" data dump "$input" | sed 's/ ; score [-0-9]*;/;/; s/best [a-h1-8qrbn]*;//') \
    <("$axon" data dump "$dir/one.bin" | sed 's/ ; score [-0-9]*;/;/; s/best [a-h1-8qrbn]*;//') \
    >/dev/null || fail "positions, results or plies changed"
[[ ! -e $dir/one.bin.parts ]] || fail "parts left behind"

# The summary measures the written scores against the inputs' (the same engine at another
# depth: a ratio near 1); --score-factor 2 doubles every centipawn score, and the ratio with it.
ratio=$(sed -n 's/^scale *written scores = \([0-9.]*\) x the inputs.*/\1/p' "$dir/one.out")
[[ -n $ratio ]] || fail "no scale line: $(cat "$dir/one.out")"
awk -v r="$ratio" 'BEGIN { exit !(r > 0.5 && r < 2) }' || fail "scale ratio $ratio for the same engine"
label --in "$input" --out "$dir/twice.bin" --block 7 --score-factor 2 >"$dir/twice.out" 2>/dev/null ||
    fail "--score-factor 2 failed"
paste -d' ' <("$axon" data dump "$dir/one.bin" | sed 's/.*; score \([-0-9]*\);.*/\1/') \
    <("$axon" data dump "$dir/twice.bin" | sed 's/.*; score \([-0-9]*\);.*/\1/') |
    awk '{ a = $1 < 0 ? -$1 : $1; if (a < 16000 && $2 != 2 * $1) bad++ } END { exit bad > 0 }' ||
    fail "--score-factor 2 did not double the scores"
ratio2=$(sed -n 's/^scale *written scores = \([0-9.]*\) x the inputs.*/\1/p' "$dir/twice.out")
awk -v a="$ratio" -v b="$ratio2" 'BEGIN { exit !(b > 1.5 * a) }' ||
    fail "the scale line ignores --score-factor: $ratio then $ratio2"
# A changed factor is another run: its parts are not mixed with the first one's.
label --in "$input" --out "$dir/twice.bin" --block 7 --keep-parts >/dev/null 2>&1 ||
    fail "relabel without the factor"
label --in "$input" --out "$dir/twice.bin" --block 7 --score-factor 3 >/dev/null 2>&1 &&
    fail "a run with another --score-factor resumed the parts of the first"

# One position at a time and many in flight (queued behind the teacher's search) label alike.
label --in "$input" --out "$dir/single.bin" --block 7 --in-flight 1 >/dev/null 2>&1 ||
    fail "--in-flight 1 failed"
cmp -s "$dir/single.bin" "$dir/one.bin" || fail "--in-flight 1 differs from the default"

label --in "$input" --out "$dir/two.bin" --jobs 2 --block 7 --keep-parts >/dev/null 2>&1 ||
    fail "two jobs failed"
cmp -s "$dir/two.bin" "$dir/one.bin" || fail "two jobs differ from one job"
rm "$dir/two.bin" "$dir/two.bin.parts/part-000001.bin"
out=$(label --in "$input" --out "$dir/two.bin" --jobs 2 --block 7 2>/dev/null) || fail "resume failed"
grep -q "resumed" <<<"$out" || fail "resume summary: $out"
cmp -s "$dir/two.bin" "$dir/one.bin" || fail "the resumed output differs"
if label --in "$input" --out "$dir/two.bin" --jobs 2 --block 7 --keep-parts --nodes 100 \
    >/dev/null 2>&1; then :; fi

# The default teacher (no --engine) is this binary searching in this process: the labels of the
# same binary as a UCI teacher, by depth and by nodes (where the hash carried from one position to
# the next counts), two threads as one, game files too.
"$axon" label --in "$input" --out "$dir/self.bin" --depth 3 --block 7 >/dev/null 2>&1 ||
    fail "the in-process teacher failed"
cmp -s "$dir/self.bin" "$dir/one.bin" || fail "in process, depth 3: labels differ from the UCI teacher's"
"$axon" label --in "$input" --out "$dir/self-n.bin" --nodes 700 --jobs 2 --block 9 >/dev/null 2>&1 ||
    fail "the in-process teacher by nodes failed"
"$axon" label --engine "$teacher" --in "$input" --out "$dir/uci-n.bin" --nodes 700 --block 9 >/dev/null 2>&1 ||
    fail "the UCI teacher by nodes failed"
cmp -s "$dir/self-n.bin" "$dir/uci-n.bin" || fail "in process, 700 nodes: labels differ from the UCI teacher's"

# Game files: every ply gets the teacher's score, moves and results are kept (no search of the
# generator is replayed); two jobs equal one; a lost part is relabelled on resume.
"$axon" datagen --out "$dir/gen" --threads 1 --games 3 --chunk-games 3 --soft-nodes 300 \
    --seed 5 --format games >/dev/null 2>&1 || fail "datagen --format games failed"
games=$(ls "$dir/gen"/5-t0-*.games)
label --in "$games" --out "$dir/lab.games" --block 60 >"$dir/g.out" 2>"$dir/g.err" ||
    fail "games: $(cat "$dir/g.err")"
grep -q "plies (game file)" "$dir/g.out" || fail "games summary: $(cat "$dir/g.out")"
strip() { "$axon" data dump "$1" | sed 's/ ; score [-0-9a-z]*;/;/; s/; filtered .*//'; }
diff <(strip "$games") <(strip "$dir/lab.games") >/dev/null || fail "labelling changed a game"
"$axon" data dump "$dir/lab.games" | grep -q "score none" && fail "a ply was left unscored"
cmp -s <("$axon" data dump "$games" | cut -d';' -f2) <("$axon" data dump "$dir/lab.games" |
    cut -d';' -f2) && fail "the scores are the generator's"
label --in "$games" --out "$dir/lab2.games" --block 60 --jobs 2 --keep-parts >/dev/null 2>&1 ||
    fail "games, two jobs"
cmp -s "$dir/lab.games" "$dir/lab2.games" || fail "games: two jobs differ from one"
rm "$dir/lab2.games" "$dir/lab2.games.parts/part-000001.games"
label --in "$games" --out "$dir/lab2.games" --block 60 --jobs 2 2>/dev/null | grep -q resumed ||
    fail "games resume"
cmp -s "$dir/lab.games" "$dir/lab2.games" || fail "games: the resumed output differs"
"$axon" label --in "$games" --out "$dir/self.games" --depth 3 --block 60 >/dev/null 2>&1 ||
    fail "games, in-process teacher"
cmp -s "$dir/lab.games" "$dir/self.games" || fail "games: the in-process teacher's labels differ"
if label --in "$games" "$input" --out "$dir/mixed.bin" >/dev/null 2>&1; then
    fail "game files mixed with records were accepted"
fi

label --in "$dir/in.epd" --out "$dir/epd.bin" >/dev/null 2>&1 || fail "EPD input failed"
[[ $(count "$dir/epd.bin") == "$(wc -l <"$dir/in.epd")" ]] || fail "EPD count"
"$axon" data stats "$dir/epd.bin" | grep -q "win 0 draw [0-9]* loss 0" || fail "EPD results are not draws"

crash_fen=$(sed -n 5p "$dir/in.epd" | awk '{print $1}')
teacher="cmd=bash $here/fake_teacher.sh $axon"
CRASH_ON=$crash_fen CRASH_ONCE_FILE=$dir/crashed label --in "$dir/in.epd" --out "$dir/once.bin" \
    >"$dir/once.out" 2>"$dir/once.err" || fail "crash-once run failed: $(cat "$dir/once.err")"
grep -q "crashed.*restarting it and retrying" "$dir/once.err" || fail "no restart report"
[[ $(count "$dir/once.bin") == "$(wc -l <"$dir/in.epd")" ]] || fail "a retried position was lost"
grep -q "teacher restarts 1" "$dir/once.out" || fail "restart count: $(cat "$dir/once.out")"

CRASH_ON=$crash_fen label --in "$dir/in.epd" --out "$dir/skip.bin" >"$dir/skip.out" \
    2>"$dir/skip.err" || fail "crash-always run failed: $(cat "$dir/skip.err")"
grep -q "line 5: skipped" "$dir/skip.err" || fail "the skipped position was not reported"
[[ $(count "$dir/skip.bin") == $(($(wc -l <"$dir/in.epd") - 1)) ]] || fail "skip count"
"$axon" data dump "$dir/skip.bin" | grep -q "^$crash_fen " && fail "the crashing position was labelled"

teacher="cmd=bash $here/fake_engine.sh illegal"
if label --in "$dir/in.epd" --out "$dir/bad.bin" >/dev/null 2>"$dir/bad.err"; then
    fail "a teacher with only illegal moves was accepted"
fi
grep -q "positions in a row" "$dir/bad.err" || fail "no message: $(tail -3 "$dir/bad.err")"
[[ ! -e $dir/bad.bin ]] || fail "a broken teacher's output was written"
echo "label: data, EPD and game inputs, jobs, resume, crash retry and skip, broken teacher ok"

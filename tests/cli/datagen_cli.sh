#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `axon datagen`: a tiny run (2 threads) writes valid chunk files, the same seed gives the same
# bytes, a deleted chunk is regenerated identically on resume, --format games converts to the same
# records, Ctrl-C leaves no half file, and contradictory options are refused.
set -euo pipefail
axon=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "datagen_cli: $*"; exit 1; }
run() { "$axon" datagen --threads 2 --positions 200 --soft-nodes 500 --chunk-positions 50 \
    --seed 9 --progress 0.5 "$@"; }

out=$(run --out "$dir/a" 2>"$dir/a.err") || fail "run failed: $(cat "$dir/a.err")"
grep -q "^positions  *[0-9]* written in 4 chunks" <<<"$out" || fail "summary: $out"
grep -q "^white/draw/black" <<<"$out" || fail "no W/D/L: $out"
[[ $(ls "$dir/a"/9-t*-*.bin | wc -l) == 4 ]] || fail "expected 4 chunks: $(ls "$dir/a")"
stats=$("$axon" data stats "$dir/a"/9-t*.bin) || fail "stats refused the chunks: $stats"
records=$(awk '/^records/ {print $2}' <<<"$stats")
((records >= 200)) || fail "only $records records"
grep -q "^best move *100.0%" <<<"$stats" || fail "records without a best move: $stats"

run --out "$dir/b" >/dev/null 2>&1 || fail "second run failed"
for f in "$dir/a"/9-t*.bin; do
    cmp -s "$f" "$dir/b/$(basename "$f")" || fail "same seed, different $(basename "$f")"
done

rm "$dir/b/9-t1-00001.bin"
echo "half" >"$dir/b/9-t0-00000.bin.tmp"
out=$(run --out "$dir/b" 2>/dev/null) || fail "resume failed"
grep -q "written in 1 chunks.* resumed in 3 chunks" <<<"$out" || fail "resume summary: $out"
cmp -s "$dir/a/9-t1-00001.bin" "$dir/b/9-t1-00001.bin" || fail "the regenerated chunk differs"
[[ ! -e $dir/b/9-t0-00000.bin.tmp ]] || fail "a leftover temporary file was kept"

if run --out "$dir/b" --soft-nodes 600 >/dev/null 2>&1; then fail "other settings were mixed in"; fi
if "$axon" datagen --out "$dir/c" --positions 10 --games 2 >/dev/null 2>&1; then
    fail "--positions with --games was accepted"
fi

# --format games: the same seed as games, converted, gives the records chunks byte for byte; the
# game files read in data stats/dump and convert to bullet; a cut file is refused with its offset.
run --out "$dir/g" --format games >/dev/null 2>&1 || fail "games run failed"
[[ $(ls "$dir/g"/9-t*-*.games | wc -l) == 4 ]] || fail "expected 4 game chunks: $(ls "$dir/g")"
for f in "$dir/a"/9-t*.bin; do
    name=$(basename "$f" .bin)
    "$axon" convert --from games "$dir/g/$name.games" --out "$dir/g/$name.bin" >/dev/null ||
        fail "convert --from games $name failed"
    cmp -s "$f" "$dir/g/$name.bin" || fail "$name: the converted games differ from the records"
done
gstats=$("$axon" data stats "$dir/g"/9-t*.games) || fail "stats refused the game chunks: $gstats"
grep -q "^records *$records " <<<"$gstats" || fail "game stats count other records: $gstats"
grep -q "^size .* a ply" <<<"$gstats" || fail "no size line: $gstats"
"$axon" data dump "$dir/g/9-t0-00000.games" --limit 5 | grep -q "; best [a-h][1-8]" ||
    fail "dump of a game file"
# The layout as documented: a reader written from docs/training-data.md alone agrees with the dump
# on every start position, move and score.
"$axon" data dump "$dir/g/9-t0-00000.games" | awk -F' ; |; ' '{
    split($1, fen, " "); sub("score ", "", $2); sub("best ", "", $4)
    if ($6 != game) { print "game " substr($6, 6) " " fen[1] " " fen[2]; game = $6 }
    print $4 " " $2 }' >"$dir/dump.txt"
python3 "$(dirname "$0")/game_file_reader.py" "$dir/g/9-t0-00000.games" >"$dir/reader.txt" ||
    fail "the documented layout does not read"
[[ -s $dir/reader.txt ]] && cmp -s "$dir/dump.txt" "$dir/reader.txt" ||
    fail "the documented layout reads other games"
"$axon" convert --from games --to bullet "$dir/g"/9-t*.games --out "$dir/g/all.bullet" >/dev/null ||
    fail "games to bullet"
(($(stat -c %s "$dir/g/all.bullet") == 32 * records)) || fail "bullet size"
rm "$dir/g/9-t1-00001.games"
out=$(run --out "$dir/g" --format games 2>/dev/null) || fail "games resume failed"
grep -q "written in 1 chunks.* resumed in 3 chunks" <<<"$out" || fail "games resume: $out"
cmp -s "$dir/g/9-t1-00001.bin" <("$axon" convert --from games "$dir/g/9-t1-00001.games" \
    --out "$dir/g/again.bin" >/dev/null && cat "$dir/g/again.bin") || fail "regenerated games chunk"
if run --out "$dir/g" >/dev/null 2>&1; then fail "records were mixed into a games folder"; fi
size=$(stat -c %s "$dir/g/9-t0-00000.games")
head -c $((size - 3)) "$dir/g/9-t0-00000.games" >"$dir/cut.games"
if err=$("$axon" data stats "$dir/cut.games" 2>&1); then fail "a cut game file was accepted"; fi
grep -q "cut.games: byte $((size - 3)): truncated" <<<"$err" || fail "cut file: $err"

"$axon" datagen --out "$dir/int" --positions 1000000 --soft-nodes 500 --progress 0.2 \
    >"$dir/int.out" 2>"$dir/int.err" &
pid=$!
# Its first progress line: the run holds the folder's lock (taken before it generates) and its
# interrupt handler. (A fixed 1.5 s sleep stood for this; the line took up to 1.0 s under ASan
# beside six busy processes, and a second run that found no lock would generate 1,000,000
# positions.)
for _ in $(seq 600); do
    grep -qs "pos/s  ETA" "$dir/int.err" && break
    kill -0 $pid 2>/dev/null || fail "the first run exited: $(cat "$dir/int.err")"
    sleep 0.1
done
grep -q "pos/s  ETA" "$dir/int.err" || fail "no progress line within 60 s: $(cat "$dir/int.err")"
# A second run on the folder in use stops at once and leaves the first one's work alone.
if "$axon" datagen --out "$dir/int" --positions 1000000 --soft-nodes 500 >/dev/null \
    2>"$dir/second.err"; then
    fail "a second run on the same --out was accepted"
fi
grep -q "in use by another running axon datagen" "$dir/second.err" ||
    fail "second run: $(cat "$dir/second.err")"
kill -0 $pid 2>/dev/null || fail "the first run died when the second started"
kill -INT $pid
status=0
wait $pid || status=$?
((status == 130)) || fail "interrupted run exited $status: $(cat "$dir/int.err")"
grep -q "interrupted" "$dir/int.err" || fail "no interruption message"
! ls "$dir/int"/*.bin* >/dev/null 2>&1 || fail "an interrupted chunk was written: $(ls "$dir/int")"
# --keep-noisy: nothing left out for being in check or tactical, the manifest says so, and the
# folder resumes only with the same choice.
"$axon" datagen --out "$dir/noisy" --positions 300 --soft-nodes 50 --chunk-positions 300 --seed 4 \
    --keep-noisy >"$dir/noisy.out" 2>&1 || fail "--keep-noisy run failed: $(cat "$dir/noisy.out")"
grep -q "not recorded   in check 0, capture/promotion 0," "$dir/noisy.out" ||
    fail "--keep-noisy left positions out: $(grep 'not recorded' "$dir/noisy.out")"
grep -qx "keep-noisy" "$dir/noisy/4-datagen.txt" || fail "the manifest does not say keep-noisy"
if "$axon" datagen --out "$dir/noisy" --positions 300 --soft-nodes 50 --chunk-positions 300 \
    --seed 4 >/dev/null 2>"$dir/noisy.err"; then
    fail "a --keep-noisy folder resumed without it"
fi
grep -q "records other settings" "$dir/noisy.err" || fail "resume without --keep-noisy: $(cat "$dir/noisy.err")"
# --net: the games are played with that network; the manifest names its content, so the same
# folder cannot be resumed with another network; a file that is not a network is refused.
"$axon" net random --hidden 32 --seed 5 "$dir/a.nnue" >/dev/null
"$axon" net random --hidden 32 --seed 6 "$dir/b.nnue" >/dev/null
"$axon" datagen --out "$dir/net" --positions 200 --soft-nodes 50 --chunk-positions 100 --seed 4 \
    --net "$dir/a.nnue" >/dev/null 2>&1 || fail "--net run failed"
hash=$("$axon" net info "$dir/a.nnue" | awk '/hash/ {print $NF; exit}')
grep -q "^network $hash" "$dir/net/4-datagen.txt" || fail "the manifest does not name --net's hash $hash"
"$axon" datagen --out "$dir/embedded" --positions 200 --soft-nodes 50 --chunk-positions 100 \
    --seed 4 >/dev/null 2>&1 || fail "embedded run failed"
cmp -s "$dir/net/4-t0-00000.bin" "$dir/embedded/4-t0-00000.bin" &&
    fail "the games with --net are those of the embedded network"
if "$axon" datagen --out "$dir/net" --positions 200 --soft-nodes 50 --chunk-positions 100 \
    --seed 4 --net "$dir/b.nnue" >/dev/null 2>"$dir/net.err"; then
    fail "a resume with another --net was accepted"
fi
grep -q "records other settings" "$dir/net.err" || fail "another --net: $(cat "$dir/net.err")"
head -c 300 "$dir/a.nnue" >"$dir/cut.nnue"
if "$axon" datagen --out "$dir/cut" --positions 200 --net "$dir/cut.nnue" >/dev/null \
    2>"$dir/cut.err"; then
    fail "a cut network was accepted"
fi
grep -q "^axon datagen: --net: " "$dir/cut.err" || fail "cut network: $(cat "$dir/cut.err")"
echo "datagen: chunks, determinism, resume, games format, one run per folder, interrupt, --net ok ($records records)"

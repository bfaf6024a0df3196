#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `axon convert`: the Lichess sample PGN (plain and, with the zstd tool, compressed), the
# engine-match PGNs (fastchess's, and OpenBench's .pgn.bz2 uploads), puzzles and EPD to Axon
# data, Axon <-> bullet, counts checked with `axon data stats`; bad inputs give an error and no
# output file.
set -euo pipefail
axon=$1
data=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "convert_cli: $*"; exit 1; }
count() { "$axon" data stats "$1" | awk '/^records/ {print $2}'; }
convert() { "$axon" convert --progress 0.5 "$@"; }

pgn=$data/pgn/lichess_eval_sample.pgn
puzzles=$data/puzzles/lichess_puzzles_dev.csv
[[ -f $pgn && -f $puzzles ]] || fail "missing shared data under $data"

# The sample: 29,579 evals in its 941 Standard games; 40 games of other variants.
out=$(convert --from lichess-pgn --in "$pgn" --out "$dir/pgn.bin") || fail "pgn: $out"
[[ $(count "$dir/pgn.bin") == 29579 ]] || fail "pgn gave $(count "$dir/pgn.bin") records"
grep -q "variant 40" <<<"$out" || fail "pgn summary: $out"
grep -q "981 games read" <<<"$out" || fail "pgn summary: $out"
"$axon" data stats "$dir/pgn.bin" | grep -q "^best move *0.0%" || fail "pgn records with moves"

filtered=$(convert --from lichess-pgn --in "$pgn" --out "$dir/f.bin" --mates skip --skip-plies 8 \
    --skip-check --skip-captures --min-elo 1200 --time-control blitz,rapid) || fail "filters"
n=$(count "$dir/f.bin")
(( n > 1000 && n < 29579 )) || fail "filtered to $n records"

if command -v zstd >/dev/null; then
    zstd -q -19 "$pgn" -o "$dir/sample.pgn.zst"
    convert --from lichess-pgn --in "$dir/sample.pgn.zst" --out "$dir/zst.bin" >/dev/null ||
        fail "zst input"
    cmp -s "$dir/zst.bin" "$dir/pgn.bin" || fail ".pgn.zst gives other records than .pgn"
    head -c 20000 "$dir/sample.pgn.zst" >"$dir/cut.pgn.zst"
    if convert --from lichess-pgn --in "$dir/cut.pgn.zst" --out "$dir/cut.bin" 2>"$dir/cut.err"; then
        fail "a truncated .zst was accepted"
    fi
    grep -q "truncated" "$dir/cut.err" || fail "truncated zst: $(cat "$dir/cut.err")"
    [[ ! -e $dir/cut.bin && ! -e $dir/cut.bin.tmp ]] || fail "output left after a truncated zst"
else
    echo "convert_cli: zstd tool not installed, .zst checks left to the unit tests"
fi

# Axon -> bullet -> Axon keeps the count, scores and results (positions come back from the
# side to move's view).
convert --from axon --to bullet --in "$dir/pgn.bin" --out "$dir/pgn.bullet" >/dev/null || fail "to bullet"
[[ $(stat -c %s "$dir/pgn.bullet") == $((29579 * 32)) ]] || fail "bullet file size"
convert --from bullet --in "$dir/pgn.bullet" --out "$dir/back.bin" >/dev/null || fail "from bullet"
[[ $(count "$dir/back.bin") == 29579 ]] || fail "bullet round trip count"
strip() { "$axon" data stats "$1" | grep -E "^(results|score) "; }
[[ $(strip "$dir/back.bin") == "$(strip "$dir/pgn.bin")" ]] || fail "scores or results changed"

# Engine-match PGNs (docs/openbench.md): the scored moves' positions, each from its mover's view.
matches=$data/pgn/engine-matches
[[ -f $matches/fastchess-default-5+0.05.pgn && -f $matches/openbench-compact.pgn.bz2 ]] ||
    fail "missing $matches"
out=$(convert --from pgn --in "$matches/fastchess-default-5+0.05.pgn" --out "$dir/fc.bin") ||
    fail "engine pgn: $out"
[[ $(count "$dir/fc.bin") == 3353 ]] || fail "fastchess pgn gave $(count "$dir/fc.bin") records"
grep -q "40 games read" <<<"$out" || fail "engine pgn summary: $out"
grep -q "in check 489" <<<"$out" || fail "engine pgn skips: $out"
"$axon" data stats "$dir/fc.bin" | grep -q "^best move *100.0%" || fail "engine pgn best moves"
# Game 1, "19. a4 {+1.20/15 0.131s} Qf4 {+0.36/9 0.189s}", drawn: both scores as written, each
# with its mover to move.
"$axon" data dump "$dir/fc.bin" >"$dir/fc.txt"
grep -q " w - - 0 19 ; score 120; result draw; best a2a4; ply 36$" "$dir/fc.txt" || fail "a4 record"
grep -q " b - - 0 19 ; score 36; result draw; best c7f4; ply 37$" "$dir/fc.txt" || fail "Qf4 record"
for f in fastchess-openbench-style.pgn openbench-compact.pgn.bz2 openbench-verbose.pgn.bz2; do
    convert --from pgn --in "$matches/$f" --out "$dir/$f.bin" >/dev/null || fail "$f"
    [[ $(count "$dir/$f.bin") == 1022 ]] || fail "$f gave $(count "$dir/$f.bin") records"
done
cmp -s "$dir/fastchess-openbench-style.pgn.bin" "$dir/openbench-compact.pgn.bz2.bin" ||
    fail "OpenBench's compact upload gives other records than the PGN it was made from"
cmp -s "$dir/fastchess-openbench-style.pgn.bin" "$dir/openbench-verbose.pgn.bz2.bin" ||
    fail "OpenBench's verbose upload gives other records than the PGN it was made from"
convert --from pgn --to bullet --in "$matches"/* --out "$dir/matches.bullet" >/dev/null ||
    fail "engine pgn to bullet"
[[ $(stat -c %s "$dir/matches.bullet") == $(((3353 + 3 * 1022) * 32)) ]] || fail "bullet size"
head -c 3000 "$matches/openbench-verbose.pgn.bz2" >"$dir/cut.pgn.bz2"
if convert --from pgn --in "$dir/cut.pgn.bz2" --out "$dir/cut.bin" 2>"$dir/cut.err"; then
    fail "a truncated .bz2 was accepted"
fi
grep -q "cut.pgn.bz2: line [0-9]* of the decompressed text: truncated bzip2" "$dir/cut.err" ||
    fail "truncated bz2: $(cat "$dir/cut.err")"
[[ ! -e $dir/cut.bin && ! -e $dir/cut.bin.tmp ]] || fail "output left after a truncated bz2"

out=$(convert --from puzzles --in "$puzzles" --out "$dir/puz.bin") || fail "puzzles: $out"
[[ $(count "$dir/puz.bin") == 5000 ]] || fail "puzzles gave $(count "$dir/puz.bin")"
"$axon" data stats "$dir/puz.bin" | grep -q "^best move *100.0%" || fail "puzzles without moves"
convert --from puzzles --puzzle-line --in "$puzzles" --out "$dir/line.bin" >/dev/null || fail "line"
[[ $(count "$dir/line.bin") == 13968 ]] || fail "puzzle lines gave $(count "$dir/line.bin")"

convert --from epd --in "$data/epd/wac.epd" --out "$dir/wac.bin" >/dev/null || fail "epd"
[[ $(count "$dir/wac.bin") == $(grep -c . "$data/epd/wac.epd") ]] || fail "epd count"

# Bad inputs: an error, and neither the output nor its temporary file.
bad() {
    local what=$1
    shift
    if "$axon" convert "$@" --out "$dir/bad.out" >/dev/null 2>"$dir/bad.err"; then
        fail "$what was accepted"
    fi
    [[ -s $dir/bad.err ]] || fail "$what: no message"
    [[ ! -e $dir/bad.out && ! -e $dir/bad.out.tmp ]] || fail "$what left an output file"
}
tail -n +2 "$puzzles" >"$dir/noheader.csv"
bad "a puzzle CSV without its header" --from puzzles --in "$dir/noheader.csv"
head -c 1000 "$dir/pgn.bullet" >"$dir/odd.bullet"
bad "a bullet file of 1000 bytes" --from bullet --in "$dir/odd.bullet"
bad "an Axon file read as bullet" --from bullet --in "$dir/pgn.bin"
bad "a PGN read as Axon data" --from axon --in "$pgn"
bad "a binary file read as PGN" --from lichess-pgn --in "$dir/pgn.bullet"
bad "a binary file read as engine PGN" --from pgn --in "$dir/pgn.bullet"
bad "a game filter on engine PGN input" --from pgn --skip-check --in "$matches/openbench-compact.pgn.bz2"
bad "a game filter on EPD input" --from epd --min-elo 2000 --in "$data/epd/wac.epd"
bad "a missing input" --from epd --in "$dir/missing.epd"
bad "a bad time control" --from lichess-pgn --time-control hyper --in "$pgn"
grep -q "not a multiple" <(convert --from bullet --in "$dir/odd.bullet" --out "$dir/x" 2>&1) ||
    fail "bullet size message"
echo "convert: all checks passed"

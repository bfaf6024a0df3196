#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `genfens` as OpenBench's DATAGEN workloads use it: OpenBench's own Scripts/genfens_engine.py
# (through its Client/genfens.py) builds an opening book from the engine without a book, with an
# EPD and a PGN book and with extras, the way a worker lays out its files (the engine in the
# working directory, books under Books/): every opening a legal position in play. Then what genfens
# promises, asked of one process with fixed seeds: openings distinct within the process and the
# same for the same seed. Hostile requests get an error line and no opening.
set -euo pipefail
axon=$1
shared=$2
# "sanitized" for ASan/TSan builds: they validate a whole book 25 times slower (UHO: 9.5 s of CPU
# under TSan against 0.4 s in Release), which with two engines and another test on two cores
# outlasts the 15 s OpenBench's client allows before the first opening. Those builds get the
# first 20,000 positions of each book instead; the Release run reads them whole.
mode=${3:-whole}
fail() {
    echo "genfens_cli: $*" >&2
    exit 1
}
[[ $mode == whole || $mode == sanitized ]] || fail "book mode '$mode': whole or sanitized"
script=$shared/openbench/Scripts/genfens_engine.py
book=$shared/data/books/UHO_4060_v4.epd
[[ -f $script && -f $shared/openbench/Client/genfens.py ]] ||
    fail "missing OpenBench's client under $shared/openbench"
[[ -f $book ]] || fail "missing $book"
command -v python3 >/dev/null || fail "python3 is needed to run OpenBench's script"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$axon" "$dir/axon"
mkdir "$dir/Books"
if [[ $mode == sanitized ]]; then
    head -n 20000 "$book" >"$dir/Books/UHO_4060_v4.epd"
else
    ln -s "$book" "$dir/Books/UHO_4060_v4.epd"
fi
pgnbook=$shared/data/books/8moves_v3.pgn
[[ -f $pgnbook ]] || fail "missing $pgnbook"
if [[ $mode == sanitized ]]; then # the first 20,000 games, cut before a game's tags
    awk '/^\[Event / && ++games > 20000 { exit } { print }' "$pgnbook" >"$dir/Books/8moves_v3.pgn"
else
    ln -s "$pgnbook" "$dir/Books/8moves_v3.pgn"
fi
cd "$dir"

# check FILE COUNT [distinct]: the EPD lines in genfens.py's form are COUNT legal positions in
# play (and with "distinct", no position twice).
check() {
    local file=$1 count=$2 distinct=${3:-}
    [[ $(wc -l <"$file") == "$count" ]] || fail "$file has $(wc -l <"$file") lines, not $count"
    grep -Evq '^[^ ]+ [wb] [-KQkqA-Ha-h]+ [-a-h1-8]+ hmvc [0-9]+; fmvn [0-9]+;$' "$file" &&
        fail "$file: a line not in genfens.py's EPD form: $(grep -Ev ' hmvc [0-9]+; fmvn [0-9]+;$' "$file" | head -1)"
    if [[ -n $distinct ]]; then
        [[ $(cut -d' ' -f1-4 "$file" | sort -u | wc -l) == "$count" ]] ||
            fail "$file: $(cut -d' ' -f1-4 "$file" | sort | uniq -d | wc -l) positions given twice"
    fi
    # Each position through the engine's own FEN reader (which refuses illegal positions) and
    # move generator: no error, and at least one legal move.
    sed -E 's/ hmvc ([0-9]+); fmvn ([0-9]+);$/ \1 \2/' "$file" |
        awk '{print "position fen " $0; print "go perft 1"}' >"$file.uci"
    echo quit >>"$file.uci"
    ./axon <"$file.uci" >"$file.out"
    ! grep -q "error" "$file.out" || fail "$file: $(grep -m1 error "$file.out")"
    [[ $(grep -c "^Nodes searched: [1-9]" "$file.out") == "$count" ]] ||
        fail "$file: a position without legal moves"
}

# OpenBench's script: 2 engine processes with random seeds, 300 openings each. Each process's
# openings are distinct, but two processes may meet the same book line and the same random plies
# (OpenBench expects that and does not mind), so the script's file is not checked for repeats: of
# 8,385 pairs of seeds, 12 shared an opening from the sanitized builds' 20,000-line book (seeds 3
# and 77, for one), and a check for repeats failed by chance.
python3 "$script" --engine axon --threads 2 --count-per 300 >script.log 2>&1 ||
    fail "genfens_engine.py without a book: $(tail -5 script.log)"
check example_genfens.epd 600
mv example_genfens.epd nobook.epd
python3 "$script" --engine axon --threads 2 --count-per 300 --book-path Books/UHO_4060_v4.epd \
    >script.log 2>&1 || fail "genfens_engine.py with a book: $(tail -5 script.log)"
check example_genfens.epd 600
# A PGN book (OpenBench lists some): each game's final position.
python3 "$script" --engine axon --threads 1 --count-per 200 --book-path Books/8moves_v3.pgn \
    >script.log 2>&1 || fail "genfens_engine.py with a PGN book: $(tail -5 script.log)"
check example_genfens.epd 200
# OpenBench's extra arguments pass through to the engine.
python3 "$script" --engine axon --threads 1 --count-per 50 --extra "plies 4 nodes 200" \
    >script.log 2>&1 || fail "genfens_engine.py with extra arguments: $(tail -5 script.log)"
check example_genfens.epd 50
# Four or five random plies: the fullmove number is 3.
grep -vq "fmvn 3;$" example_genfens.epd && fail "plies 4 gave $(grep -v 'fmvn 3;$' example_genfens.epd | head -1)"

# What genfens promises of one process: distinct openings (300, as each process above gave), from
# the start position, from each kind of book, and from a book of 40 lines with no more than one
# random ply, where only the check against what it already gave keeps repeats out.
genfens() { ./axon "genfens $1 seed $2 book $3 ${*:4}" quit | grep "^info string genfens "; }
# asEpd: the FENs of genfens' lines in genfens.py's EPD form, as check reads them.
asEpd() { sed -E 's/^info string genfens (.*) ([0-9]+) ([0-9]+)$/\1 hmvc \2; fmvn \3;/' "$1"; }
head -n 40 Books/UHO_4060_v4.epd >Books/small.epd
for request in "300 11 None" "300 12 Books/UHO_4060_v4.epd" "200 13 Books/8moves_v3.pgn" \
    "300 14 Books/small.epd plies 0"; do
    # shellcheck disable=SC2086 # count, seed, book and extras, split on purpose
    genfens $request >one.txt
    asEpd one.txt >one.epd
    check one.epd "${request%% *}" distinct
done

# Determinism: the same command twice gives the same lines; another seed other openings.
genfens 200 2024 None >a.txt
genfens 200 2024 None >b.txt
cmp -s a.txt b.txt || fail "the same seed gave different openings"
genfens 200 2025 None >c.txt
(( $(sort a.txt c.txt | uniq -d | wc -l) < 5 )) || fail "seeds 2024 and 2025 gave the same openings"
genfens 100 7 Books/UHO_4060_v4.epd >d.txt
genfens 100 7 Books/UHO_4060_v4.epd >e.txt
cmp -s d.txt e.txt || fail "the same seed with a book gave different openings"

# Hostile requests: one error line, no opening, and the engine still quits.
printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a position\n' >Books/bad.epd
for request in "genfens" "genfens -5 seed 1 book None" "genfens 99999999999999999999 seed 1" \
    "genfens 5 seed 1 book Books/missing.epd" "genfens 5 seed 1 book Books/bad.epd" \
    "genfens 5 seed x book None" "genfens 5 seed 1 book None frc yes"; do
    out=$(timeout 20 ./axon "$request" quit) || fail "'$request' exited with $?"
    [[ $(grep -c . <<<"$out") == 1 && $out == "info string error: genfens: "* ]] ||
        fail "'$request' gave: $out"
done
out=$(./axon "genfens 5 seed 1 book Books/bad.epd" quit)
[[ $out == *"Books/bad.epd:2:"* ]] || fail "a bad book line is not named: $out"
echo "genfens: all checks passed"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `genfens` as OpenBench's DATAGEN workloads use it: OpenBench's own Scripts/genfens_engine.py
# (through its Client/genfens.py) builds an opening book from the engine without a book, with an
# EPD and a PGN book and with extras, the way a worker lays out its files (the engine in the
# working directory, books under Books/). Every opening must be a legal position in play, all
# distinct, and the engine's answer deterministic in the seed; hostile requests get an error line
# and no opening.
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

# check FILE COUNT: the EPD lines genfens.py wrote are COUNT distinct, legal positions in play.
check() {
    local file=$1 count=$2
    [[ $(wc -l <"$file") == "$count" ]] || fail "$file has $(wc -l <"$file") lines, not $count"
    grep -Evq '^[^ ]+ [wb] [-KQkqA-Ha-h]+ [-a-h1-8]+ hmvc [0-9]+; fmvn [0-9]+;$' "$file" &&
        fail "$file: a line not in genfens.py's EPD form: $(grep -Ev ' hmvc [0-9]+; fmvn [0-9]+;$' "$file" | head -1)"
    [[ $(cut -d' ' -f1-4 "$file" | sort -u | wc -l) == "$count" ]] || fail "$file: duplicates"
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

# OpenBench's script: 2 engine processes with random seeds, 300 openings each.
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

# Determinism: the same command twice gives the same lines; another seed other openings.
genfens() { ./axon "genfens $1 seed $2 book $3 " quit | grep "^info string genfens "; }
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

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The games behind the docs' Elo tables: docs/games/README.md lists every kept PGN with the doc
# row it backs and that row's W-L-D. This test reads each PGN (zstd) and checks that
#   - every listed file exists and every .pgn.zst under docs/games is listed (nothing orphaned),
#   - the games' results, counted from Axon's side, are the W-L-D the list states,
#   - the doc has a table row that starts with the listed prefix and shows that W-L-D,
# so a figure in a table cannot drift from the games it claims to come from.
# Usage: docs_games_cli.py REPOSITORY_ROOT
import pathlib
import re
import subprocess
import sys

BEGIN = "<!-- games: begin -->"
END = "<!-- games: end -->"


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def manifest(readme):
    """The rows between the markers: (games file, doc, row prefix, W-L-D)."""
    text = readme.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        fail(f"{readme} has no '{BEGIN}' ... '{END}' table")
    rows = []
    for line in text.split(BEGIN, 1)[1].split(END, 1)[0].splitlines():
        if not line.startswith("|") or line.startswith("|---"):
            continue
        # Cells split at unescaped pipes; a row prefix writes its own pipes as \|.
        cells = [c.strip().replace("\\|", "|")
                 for c in re.split(r"(?<!\\)\|", line.strip()[1:-1])]
        if cells[0] == "games":  # the header
            continue
        if len(cells) != 4:
            fail(f"manifest row has {len(cells)} cells, not 4: {line}")
        games, doc, prefix, wld = (c.strip("`") for c in cells)
        if not re.fullmatch(r"\d+-\d+-\d+", wld):
            fail(f"manifest row's W-L-D is not W-L-D: {line}")
        rows.append((games, doc, prefix, wld))
    if not rows:
        fail("the manifest lists no games")
    return rows


def axon_score(pgn_text, path):
    """W-L-D of the engine whose name starts with Axon, over every game of the file."""
    wins = losses = draws = 0
    games = re.split(r"\n(?=\[Event )", pgn_text.strip())
    for game in games:
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', game, re.M))
        white, black, result = tags.get("White", ""), tags.get("Black", ""), tags.get("Result")
        axon_white, axon_black = white.startswith("Axon"), black.startswith("Axon")
        if axon_white == axon_black:
            fail(f"{path}: a game without exactly one Axon side ({white} - {black})")
        if result == "1/2-1/2":
            draws += 1
        elif result in ("1-0", "0-1"):
            if (result == "1-0") == axon_white:
                wins += 1
            else:
                losses += 1
        else:
            fail(f"{path}: a game without a result ({white} - {black}: {result})")
    return f"{wins}-{losses}-{draws}"


def main():
    if len(sys.argv) != 2:
        fail("usage: docs_games_cli.py REPOSITORY_ROOT")
    root = pathlib.Path(sys.argv[1])
    games_dir = root / "docs" / "games"
    rows = manifest(games_dir / "README.md")
    listed = set()
    for games, doc, prefix, wld in rows:
        path = games_dir / games
        if not path.is_file():
            fail(f"docs/games/README.md lists {games}, which does not exist")
        listed.add(path.resolve())
        try:
            pgn = subprocess.run(["zstd", "-dc", str(path)], check=True, capture_output=True).stdout
        except FileNotFoundError:
            fail("zstd is not installed (scripts/install-deps.sh installs it)")
        except subprocess.CalledProcessError as error:
            fail(f"{games}: zstd failed: {error.stderr.decode(errors='replace').strip()}")
        counted = axon_score(pgn.decode("utf-8", errors="replace"), games)
        if counted != wld:
            fail(f"{games}: the games say {counted} for Axon, the manifest says {wld}")
        doc_path = root / doc
        if not doc_path.is_file():
            fail(f"{games}: its doc {doc} does not exist")
        matching = [line for line in doc_path.read_text(encoding="utf-8").splitlines()
                    if line.startswith(prefix)]
        if not matching:
            fail(f"{games}: {doc} has no row starting with '{prefix}'")
        if not any(f"| {wld} |" in line for line in matching):
            fail(f"{games}: {doc}'s row '{prefix}' does not show {wld}: {matching[0]}")
        print(f"{games}: {wld}, as {doc} says")
    for path in sorted(games_dir.rglob("*.pgn.zst")):
        if path.resolve() not in listed:
            fail(f"{path.relative_to(root)} is not listed in docs/games/README.md")
    print(f"{len(rows)} game files agree with the docs")


if __name__ == "__main__":
    main()

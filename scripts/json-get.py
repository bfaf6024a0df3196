#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Prints one value of a JSON file, for the shell scripts that read Axon's --json summaries
(axon match, epd, puzzles) instead of matching their layout line by line.

Usage: json-get.py FILE PATH
  PATH is keys and array indices joined by dots: games, engines.1, sprt.state,
  pentanomial, ranking.0.engine; "len(PATH)" prints the length of an array or object.
A string prints as its text, true/false/null as JSON spells them, a number as JSON writes it,
an array or object as compact JSON. Exit status 1, with a message, when PATH is not there.
"""
import json
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path = sys.argv[2]
    want_len = path.startswith('len(') and path.endswith(')')
    if want_len:
        path = path[4:-1]
    with open(sys.argv[1], encoding='utf-8') as f:
        value = json.load(f)
    for key in path.split('.') if path else []:
        try:
            value = value[int(key)] if isinstance(value, list) else value[key]
        except (KeyError, IndexError, ValueError, TypeError):
            print(f'json-get: {sys.argv[1]} has no {sys.argv[2]}', file=sys.stderr)
            sys.exit(1)
    if want_len:
        print(len(value))
    elif isinstance(value, str):
        print(value)
    else:
        print(json.dumps(value, separators=(',', ':')))


if __name__ == '__main__':
    main()

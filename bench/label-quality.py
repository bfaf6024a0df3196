#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Label-quality probe for training data (docs/nets.md): samples records from datagen chunks
# (`axon data dump`), has a UCI engine (Stockfish by default) score them at a fixed depth through
# `axon label`, and prints how well the records' scores agree with it and how well each predicts
# the game result.
# Two generations of data measured with the same settings can be compared; the numbers are not
# absolute (the reference engine's centipawns are on its own scale).
# Usage: bench/label-quality.py [--axon ./axon] [--engine /usr/games/stockfish] [--depth 10]
#            [--limit 600] [--every 12] CHUNK.bin...
import argparse
import math
import os
import subprocess
import sys
import tempfile

RESULT = {'win': 1.0, 'draw': 0.5, 'loss': 0.0}  # from the side to move, as `data dump` prints it
MAX_SCORE = 3000  # mates and larger scores count as this, as datagen records them


def run(command):
    """A command's standard output; its own error message and exit if it fails."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f'label-quality: {" ".join(command[:3])} failed: {done.stderr.strip()[-500:]}')
    return done.stdout


def dump(axon, path, limit=None):
    """(FEN, score, result) of each record of an Axon data file, as `axon data dump` prints it."""
    command = [axon, 'data', 'dump', path] + (['--limit', str(limit)] if limit else [])
    rows = []
    for line in run(command).splitlines():
        fen, rest = line.split(' ; ', 1)
        fields = dict(part.strip().split(' ', 1) for part in rest.split(';'))
        rows.append((fen.strip(), int(fields['score']), RESULT[fields['result']]))
    return rows


def position_key(fen):
    return ' '.join(fen.split()[:4])  # board, side to move, castling, en passant


def reference_scores(axon, engine, depth, fens, folder):
    """The reference engine's score of each FEN at `depth`, labelled by `axon label` (which
    checks every answer and skips what it cannot label)."""
    epd, labelled = os.path.join(folder, 'sample.epd'), os.path.join(folder, 'reference.bin')
    with open(epd, 'w') as f:
        f.writelines(fen + '\n' for fen in fens)
    run([axon, 'label', '--in', epd, '--out', labelled, '--engine', f'cmd={engine}', '--depth',
         str(depth), '--jobs', '1'])
    return {position_key(fen): max(-MAX_SCORE, min(MAX_SCORE, score))
            for fen, score, _ in dump(axon, labelled)}


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0] * len(values)
    for rank, i in enumerate(order):
        result[i] = rank
    return result


def pearson(x, y):
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    return sxy / math.sqrt(sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y))


def win_probability(score, scale):
    return 1 / (1 + math.exp(-score / scale))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--axon', default='./axon')
    parser.add_argument('--engine', default='/usr/games/stockfish')
    parser.add_argument('--depth', type=int, default=10)
    parser.add_argument('--limit', type=int, default=600, help='records read from each file')
    parser.add_argument('--every', type=int, default=12, help='keep every Nth record read')
    parser.add_argument('--label-scale', type=float, default=400, help="the records' sigmoid scale")
    parser.add_argument('--engine-scale', type=float, default=200, help="the engine's sigmoid scale")
    parser.add_argument('files', nargs='+')
    args = parser.parse_args()

    rows = []
    for path in args.files:
        rows += dump(args.axon, path, args.limit)[::args.every]
    if len(rows) < 2:
        sys.exit('label-quality: fewer than two records sampled')
    with tempfile.TemporaryDirectory() as folder:
        reference_of = reference_scores(args.axon, args.engine, args.depth,
                                        [fen for fen, _, _ in rows], folder)
    unlabelled = sum(position_key(fen) not in reference_of for fen, _, _ in rows)
    rows = [row for row in rows if position_key(row[0]) in reference_of]
    if len(rows) < 2:
        sys.exit('label-quality: fewer than two records labelled by the reference')
    reference = [reference_of[position_key(fen)] for fen, _, _ in rows]
    labels = [score for _, score, _ in rows]
    results = [result for _, _, result in rows]
    p_label = [win_probability(s, args.label_scale) for s in labels]
    p_engine = [win_probability(s, args.engine_scale) for s in reference]

    def mse(x, y):
        return sum((a - b) ** 2 for a, b in zip(x, y)) / len(x)

    print(f'records {len(rows)} from {len(args.files)} files ({unlabelled} the reference could not '
          f'label), reference depth {args.depth}')
    print(f'spearman(label, reference)      {pearson(ranks(labels), ranks(reference)):.4f}')
    print(f'mse win prob (label, reference) {mse(p_label, p_engine):.5f}')
    print(f'mse win prob (label, result)    {mse(p_label, results):.5f}')
    print(f'mse win prob (reference, result) {mse(p_engine, results):.5f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Label-quality probe for training data (docs/nets.md): samples records from datagen chunks
# (`axon data dump`), asks a UCI engine (Stockfish by default) for its score at a fixed depth, and
# prints how well the records' scores agree with it and how well each predicts the game result.
# Two generations of data measured with the same settings can be compared; the numbers are not
# absolute (the reference engine's centipawns are on its own scale).
# Usage: bench/label-quality.py [--axon ./axon] [--engine /usr/games/stockfish] [--depth 10]
#            [--limit 600] [--every 12] CHUNK.bin...
import argparse
import math
import subprocess
import sys

RESULT = {'win': 1.0, 'draw': 0.5, 'loss': 0.0}  # from the side to move, as `data dump` prints it


def sample(axon, files, limit, every):
    rows = []
    for path in files:
        dump = subprocess.run([axon, 'data', 'dump', '--limit', str(limit), path],
                              capture_output=True, text=True, check=True).stdout.splitlines()
        for line in dump[::every]:
            fen, rest = line.split(' ; ', 1)
            fields = dict(part.strip().split(' ', 1) for part in rest.split(';'))
            rows.append((fen, int(fields['score']), RESULT[fields['result']]))
    return rows


class Uci:
    def __init__(self, command):
        self.proc = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send('uci')
        self.send('setoption name Threads value 1')
        self.send('setoption name Hash value 16')
        self.send('isready')
        while self.proc.stdout.readline().strip() != 'readyok':
            pass

    def send(self, line):
        self.proc.stdin.write(line + '\n')

    def score(self, fen, depth):
        """The last reported score of `go depth`, side to move; mates as +/-3000."""
        self.send('ucinewgame')
        self.send('position fen ' + fen)
        self.send(f'go depth {depth}')
        score = None
        for line in self.proc.stdout:
            words = line.split()
            if words and words[0] == 'info' and 'score' in words:
                i = words.index('score')
                value = int(words[i + 2])
                score = value if words[i + 1] == 'cp' else math.copysign(3000, value)
            elif words and words[0] == 'bestmove':
                break
        if score is None:
            sys.exit(f'label-quality: no score for {fen}')
        return score

    def close(self):
        self.send('quit')
        self.proc.wait(timeout=10)


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

    rows = sample(args.axon, args.files, args.limit, args.every)
    if len(rows) < 2:
        sys.exit('label-quality: fewer than two records sampled')
    engine = Uci(args.engine)
    reference = [engine.score(fen, args.depth) for fen, _, _ in rows]
    engine.close()
    labels = [score for _, score, _ in rows]
    results = [result for _, _, result in rows]
    p_label = [win_probability(s, args.label_scale) for s in labels]
    p_engine = [win_probability(s, args.engine_scale) for s in reference]

    def mse(x, y):
        return sum((a - b) ** 2 for a, b in zip(x, y)) / len(x)

    print(f'records {len(rows)} from {len(args.files)} files, reference depth {args.depth}')
    print(f'spearman(label, reference)      {pearson(ranks(labels), ranks(reference)):.4f}')
    print(f'mse win prob (label, reference) {mse(p_label, p_engine):.5f}')
    print(f'mse win prob (label, result)    {mse(p_label, results):.5f}')
    print(f'mse win prob (reference, result) {mse(p_engine, results):.5f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Axon's tablebase support against an independent reader of the same files: Debian's Stockfish
with SyzygyPath on the shared 3-4-piece tables.

  tablebase_cli.py AXON SHARED_DATA [COUNT]

1. COUNT (default 10,000) random legal 3-4-piece positions: Axon's root score must state the
   result Stockfish's does (win, cursed win, draw, blessed loss, loss), and Axon's move must keep
   it: Stockfish judges the position after the move.
2. Wins of KQvK, KRvK, KBNvK and KPvK played out by Axon against itself end in mate within the
   fifty-move rule.
3. UCI: the options as Stockfish names them, "info string Found N tablebases", tbhits in info
   lines, a missing directory refused with its name (the tables before it kept).
Exits 77 (a skip for ctest) without Stockfish, unless CI is set.
"""
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'bench', 'lib'))
from uci_driver import UciDriver  # noqa: E402

STOCKFISH = '/usr/games/stockfish'


def fail(message):
    print('tablebase_cli: FAIL: ' + message, file=sys.stderr)
    sys.exit(1)


class Engine(UciDriver):
    """bench/lib/uci_driver.py's driver with the tables set, and a search that returns its
    last score, its best move and its lines."""

    def __init__(self, command, tables):
        super().__init__(command)
        self.setup = self.exchange('setoption name SyzygyPath value ' + tables, 'readyok')

    def exchange(self, command, prefix):
        self.send(command)
        self.send('isready')
        return [line.rstrip('\n') for line in self.read_until(prefix)]

    def search(self, fen, go, moves=''):
        self.send('position fen ' + fen + (' moves ' + moves if moves else ''))
        self.send(go)
        lines = [line.rstrip('\n') for line in self.read_until('bestmove')]
        score = None
        for line in lines:
            if ' score ' in line:
                t = line.split()
                i = t.index('score')
                score = (t[i + 1], int(t[i + 2]))
            if 'error' in line:
                fail(fen + ': ' + line)
        return score, lines[-1].split()[1], lines


def result_of(score, win_cp):
    """The result a root score states: Stockfish 15.1 prints a tablebase win as cp 8795
    (VALUE_MATE - MAX_PLY - 1 in its pawn units), Axon as cp 19999; both print cursed wins as a
    few centipawns and draws as 0."""
    kind, v = score
    if kind == 'mate':
        return 'win' if v > 0 else 'loss'
    if v >= win_cp:
        return 'win'
    if v <= -win_cp:
        return 'loss'
    return 'draw' if v == 0 else 'cursed win' if v > 0 else 'blessed loss'


NEGATE = {'win': 'loss', 'loss': 'win', 'draw': 'draw', 'cursed win': 'blessed loss',
          'blessed loss': 'cursed win'}


def random_placements(rng, count):
    """FENs of two kings and one or two other pieces anywhere (pawns off the back ranks); many are
    illegal (a king in check on the wrong move, kings touching): Axon's FEN reader sorts them."""
    out = []
    for _ in range(count):
        squares = rng.sample(range(64), 2 + rng.choice([1, 2, 2]))
        board = {squares[0]: 'K', squares[1]: 'k'}
        for s in squares[2:]:
            piece = rng.choice('QRBNP' if 8 <= s < 56 else 'QRBN')
            board[s] = piece if rng.random() < 0.5 else piece.lower()
        rows = []
        for rank in range(7, -1, -1):
            row, empty = '', 0
            for file in range(8):
                p = board.get(rank * 8 + file)
                if p:
                    row += (str(empty) if empty else '') + p
                    empty = 0
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ''))
        out.append('/'.join(rows) + ' ' + rng.choice('wb') + ' - - 0 1')
    return out


def legal_positions(axon_path, fens):
    """The FENs Axon's reader accepts (it refuses illegal positions with an error line)."""
    script = ''.join('position fen %s\nd\n' % f for f in fens) + 'quit\n'
    out = subprocess.run([axon_path], input=script, capture_output=True, text=True).stdout
    # Each `d` prints a board (the last legal one after a refusal): a FEN is legal when no error
    # came before its board.
    legal, i, refused = [], 0, False
    for line in out.splitlines():
        if line.startswith('info string error'):
            refused = True
        elif line.startswith('Fen: '):
            if not refused:
                legal.append(fens[i])
            i += 1
            refused = False
    if i != len(fens):
        fail('expected an answer for each of %d FENs, got %d' % (len(fens), i))
    return legal


def compare_results(axon_path, tables, count):
    rng = random.Random(20261202)
    fens = []
    while len(fens) < count:
        fens += legal_positions(axon_path, random_placements(rng, 2 * (count - len(fens)) + 10))
    fens = fens[:count]
    axon = Engine(axon_path, tables)
    sf = Engine(STOCKFISH, tables)
    moves_sf = Engine(STOCKFISH, tables)
    counts = {}
    mismatches = 0
    moves_checked = 0
    for fen in fens:
        a_score, a_move, a_lines = axon.search(fen, 'go nodes 2000')
        s_score, _, _ = sf.search(fen, 'go depth 1')
        if a_move == '0000' and a_score is None:
            continue  # mate or stalemate on the board: nothing to probe
        if a_score is None or s_score is None:
            fail('%s: no score: Axon %s, Stockfish %s' % (fen, a_lines, s_score))
        a = result_of(a_score, 19000)
        s = result_of(s_score, 8000)
        counts[s] = counts.get(s, 0) + 1
        if a != s:
            mismatches += 1
            print('MISMATCH %s: Axon %s (%s), Stockfish %s (%s)' % (fen, a, a_score, s, s_score))
            continue
        if a_move == '0000':
            continue
        # The position after Axon's move, judged by Stockfish: its result for the side to move
        # must be the negation (Stockfish's own `position ... moves` keeps the counters right).
        after, _, _ = moves_sf.search(fen, 'go depth 1', a_move)
        if after is None:
            fail('%s %s: no score from Stockfish' % (fen, a_move))
        r = result_of(after, 8000)
        moves_checked += 1
        if NEGATE[r] != a:
            mismatches += 1
            print('MOVE %s: Axon played %s keeping %s, Stockfish then says %s for the opponent'
                  % (fen, a_move, a, r))
    for e in (axon, sf, moves_sf):
        e.quit()
    print('%d positions (%s), %d moves judged: %d mismatches' % (
        len(fens), ', '.join('%s %d' % kv for kv in sorted(counts.items())), moves_checked,
        mismatches))
    if mismatches:
        fail('%d of %d positions or moves disagree with Stockfish' % (mismatches, len(fens)))
    if len(counts) < 3:
        fail('the sample lacks wins, draws or losses: ' + str(counts))


def play_out(axon_path, tables):
    starts = {
        'KQvK': '8/8/8/4k3/8/8/8/K6Q w - - 0 1',
        'KRvK': '8/8/8/4k3/8/8/8/K6R w - - 0 1',
        'KBNvK': '8/8/3k4/8/8/8/8/KBN5 w - - 0 1',
        'KPvK': '8/8/8/8/k7/8/4P3/4K3 w - - 0 1',
    }
    axon = Engine(axon_path, tables)
    for name, fen in starts.items():
        moves = []
        while True:
            axon.send('position fen %s moves %s' % (fen, ' '.join(moves)))
            lines = axon.exchange('d', 'readyok')
            board_fen = next(l[5:] for l in lines if l.startswith('Fen: '))
            checkers = next(l for l in lines if l.startswith('Checkers:'))
            if int(board_fen.split()[4]) >= 100:
                fail('%s: the fifty-move rule after %d plies: %s' % (name, len(moves), board_fen))
            _, move, _ = axon.search(board_fen, 'go nodes 5000')
            if move == '0000':
                break
            moves.append(move)
            if len(moves) > 300:
                fail('%s: no end after 300 plies' % name)
        if checkers == 'Checkers:' or len(moves) % 2 == 0:
            fail('%s: the game ended without White mating: %s' % (name, board_fen))
        print('%s: mate in %d plies' % (name, len(moves)))
    axon.quit()


def uci_options(axon_path, tables):
    axon = Engine(axon_path, tables)
    if not any(l.startswith('info string Found 35 tablebases') for l in axon.setup):
        fail('no "info string Found 35 tablebases" line: ' + str(axon.setup))
    _, _, lines = axon.search('8/8/8/4k3/8/8/8/K6R w - - 0 1', 'go depth 4')
    if not any(' tbhits ' in l for l in lines):
        fail('no tbhits in the info lines')
    lines = axon.exchange('setoption name SyzygyPath value /nonexistent/tables', 'readyok')
    if not any('error' in l and '/nonexistent/tables' in l for l in lines):
        fail('a missing directory was not refused with its name: ' + str(lines))
    score, _, _ = axon.search('8/8/8/4k3/8/8/8/K6R b - - 0 1', 'go depth 2')
    if result_of(score, 19000) != 'loss':
        fail('the tables were dropped by a refused SyzygyPath: ' + str(score))
    for option in ('SyzygyProbeDepth value 4', 'Syzygy50MoveRule value false',
                   'SyzygyProbeLimit value 3'):
        lines = axon.exchange('setoption name ' + option, 'readyok')
        if any('error' in l for l in lines):
            fail('setoption name %s: %s' % (option, lines))
    axon.quit()


def main():
    if len(sys.argv) < 3:
        fail('usage: tablebase_cli.py AXON SHARED_DATA [COUNT]')
    axon_path, shared = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    tables = os.path.join(shared, 'syzygy')
    if not os.path.isdir(tables):
        fail('missing ' + tables)
    if not os.access(STOCKFISH, os.X_OK):
        if os.environ.get('CI'):
            fail('no ' + STOCKFISH + ' (apt-get install stockfish)')
        print('SKIP: no %s (apt-get install stockfish)' % STOCKFISH)
        sys.exit(77)
    uci_options(axon_path, tables)
    play_out(axon_path, tables)
    compare_results(axon_path, tables, count)


if __name__ == '__main__':
    main()

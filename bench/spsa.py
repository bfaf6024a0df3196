#!/usr/bin/env python3
# SPSA tuning of the search's parameters (src/search/params.h) through `axon match`.
#
# Needs a tune build, whose search parameters are `Tune_<name>` UCI options:
#   cmake -S . -B build-tune -DCMAKE_BUILD_TYPE=Release -DAXON_TUNE=ON && cmake --build build-tune --target axon
#   bench/spsa.py --engine build-tune/axon --state spsa/run1.json --iterations 2000 --nodes 25000 \
#       --book ../shared/data/books/UHO_4060_v4.epd
# Each iteration plays game pairs between theta + c*delta and theta - c*delta (delta a random sign
# per parameter) and moves theta along delta by the score difference, as OpenBench's SPSA does
# (gains a_k = a / (A + k)^0.602, c_k = c / k^0.101; c_end and r_end per parameter). The state is
# saved after every iteration, so a stopped run resumes with the same command.
# `--self-test` runs the update rule against a simulated match with a known optimum.
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile

ALPHA, GAMMA = 0.602, 0.101


def engine_tunables(engine):
    out = subprocess.run([engine], input='uci\nquit\n', capture_output=True, text=True,
                         timeout=30).stdout
    params = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) >= 10 and words[:2] == ['option', 'name'] and words[2].startswith('Tune_') \
                and words[3:5] == ['type', 'spin']:
            fields = dict(zip(words[5::2], words[6::2]))
            params[words[2][len('Tune_'):]] = {k: int(fields[k]) for k in ('default', 'min', 'max')}
    return params


def new_state(tunables, names, iterations, c_fraction, r_end):
    params = {}
    for name in names:
        t = tunables[name]
        c_end = max((t['max'] - t['min']) * c_fraction, 0.5)
        params[name] = {'value': float(t['default']), 'default': t['default'], 'min': t['min'],
                        'max': t['max'], 'c_end': c_end, 'r_end': r_end}
    return {'iterations': iterations, 'iteration': 0, 'params': params, 'history': []}


def perturbation(state, k, rng):
    """theta+ and theta- for iteration k (1-based), and the signs and step sizes used."""
    n, big_a = state['iterations'], state['iterations'] / 10
    plus, minus, steps = {}, {}, {}
    for name, p in state['params'].items():
        c = p['c_end'] * n ** GAMMA
        a = p['r_end'] * p['c_end'] ** 2 * (big_a + n) ** ALPHA
        c_k, a_k = c / k ** GAMMA, a / (big_a + k) ** ALPHA
        sign = rng.choice((-1, 1))
        steps[name] = (sign, c_k, a_k)
        plus[name] = min(max(round(p['value'] + sign * c_k), p['min']), p['max'])
        minus[name] = min(max(round(p['value'] - sign * c_k), p['min']), p['max'])
    return plus, minus, steps


def update(state, steps, score):
    """score: wins minus losses of theta+ over the iteration's games."""
    for name, (sign, c_k, a_k) in steps.items():
        p = state['params'][name]
        p['value'] = min(max(p['value'] + a_k / c_k * score * sign, p['min']), p['max'])


def save(state, path):
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    with tempfile.NamedTemporaryFile('w', dir=directory, delete=False) as f:
        json.dump(state, f, indent=1)
    os.replace(f.name, path)


def play(args, plus, minus, seed):
    with tempfile.TemporaryDirectory() as tmp:
        result_file = os.path.join(tmp, 'result.json')
        def engine(name, values):
            return ['--engine', f'cmd={args.engine}', f'name={name}'] + \
                [f'option.Tune_{k}={v}' for k, v in values.items()]
        limit = ['--nodes', str(args.nodes)] if args.nodes else ['--tc', args.tc]
        cmd = [args.match or args.engine, 'match'] + engine('plus', plus) + engine('minus', minus) + \
            limit + ['--games', str(2 * args.pairs), '--concurrency', str(args.concurrency),
                     '--openings', args.book, '--openings-order', 'random', '--seed', str(seed),
                     '--json', result_file]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0 or not os.path.exists(result_file):
            sys.exit(f'spsa: the match failed (exit {run.returncode}): {run.stderr.strip()[-500:]}')
        with open(result_file) as f:
            result = json.load(f)
    return result['wins'] - result['losses'], result['wins'], result['losses'], result['draws']


def run(args):
    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        print(f'spsa: resuming {args.state} at iteration {state["iteration"]}', flush=True)
    else:
        tunables = engine_tunables(args.engine)
        if not tunables:
            sys.exit(f'spsa: {args.engine} has no Tune_ options; build it with -DAXON_TUNE=ON')
        names = args.params.split(',') if args.params else sorted(tunables)
        unknown = [n for n in names if n not in tunables]
        if unknown:
            sys.exit(f'spsa: unknown parameters {unknown}; the engine has {sorted(tunables)}')
        state = new_state(tunables, names, args.iterations, args.c_fraction, args.r_end)
        state['seed'] = args.seed
        save(state, args.state)
    while state['iteration'] < state['iterations']:
        k = state['iteration'] + 1
        rng = random.Random(state['seed'] * 1_000_003 + k)
        plus, minus, steps = perturbation(state, k, rng)
        score, wins, losses, draws = play(args, plus, minus, state['seed'] * 100_000 + k)
        update(state, steps, score)
        state['iteration'] = k
        state['history'].append([k, wins, losses, draws])
        save(state, args.state)
        values = ' '.join(f'{n}={p["value"]:.1f}' for n, p in state['params'].items())
        print(f'{k}/{state["iterations"]} +{wins}-{losses}={draws} {values}', flush=True)
    print('spsa: done; as UCI options: ' + ' '.join(
        f'option.Tune_{n}={round(p["value"])}' for n, p in state['params'].items()))


def self_test():
    """SPSA against a simulated match: Elo falls off quadratically from a hidden optimum."""
    tunables = {'a': {'default': 100, 'min': 0, 'max': 400},
                'b': {'default': 40, 'min': 10, 'max': 200},
                'c': {'default': 300, 'min': 100, 'max': 500}}
    optimum = {'a': 180, 'b': 90, 'c': 300}
    state = new_state(tunables, sorted(tunables), 3000, 0.05, 0.002)
    state['seed'] = 1
    game_rng = random.Random(7)

    def elo(values):
        return -sum(((values[n] - optimum[n]) / (tunables[n]['max'] - tunables[n]['min']) * 20) ** 2
                    for n in values)

    start_error = {n: abs(tunables[n]['default'] - optimum[n]) for n in tunables}
    for k in range(1, state['iterations'] + 1):
        plus, minus, steps = perturbation(state, k, random.Random(k))
        p_win = 1 / (1 + 10 ** (-(elo(plus) - elo(minus)) / 400))
        score = 0
        for _ in range(8):  # four pairs, draws left out: only wins minus losses moves theta
            score += 1 if game_rng.random() < p_win else -1
        update(state, steps, score)
    ok = True
    for n, p in state['params'].items():
        error = abs(p['value'] - optimum[n])
        print(f'{n}: start {tunables[n]["default"]}, optimum {optimum[n]}, tuned {p["value"]:.1f}')
        # Parameters away from the optimum must close half the gap or more; the one at it must
        # stay near it.
        limit = max(start_error[n] * 0.5, (tunables[n]['max'] - tunables[n]['min']) * 0.06)
        ok &= error <= limit
    print('spsa self-test ' + ('passed' if ok else 'FAILED'))
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--engine', help='a tune build of axon (-DAXON_TUNE=ON)')
    parser.add_argument('--match', help='the axon that runs the match (default: --engine)')
    parser.add_argument('--state', help='JSON state file; an existing one is resumed')
    parser.add_argument('--params', help='comma-separated parameter names (default: all)')
    parser.add_argument('--iterations', type=int, default=2000)
    parser.add_argument('--pairs', type=int, default=4, help='game pairs per iteration')
    parser.add_argument('--nodes', type=int, help='nodes per move')
    parser.add_argument('--tc', help='time control, e.g. 5+0.05 (instead of --nodes)')
    parser.add_argument('--book', help='EPD or PGN openings')
    parser.add_argument('--concurrency', type=int, default=2)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--c-fraction', type=float, default=0.05,
                        help="c_end as a fraction of each parameter's range")
    parser.add_argument('--r-end', type=float, default=0.002)
    parser.add_argument('--self-test', action='store_true')
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not (args.engine and args.state and args.book and (args.nodes or args.tc)):
        parser.error('--engine, --state, --book and --nodes or --tc are required')
    run(args)
    return 0


if __name__ == '__main__':
    sys.exit(main())

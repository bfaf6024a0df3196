// SPDX-License-Identifier: GPL-3.0-or-later
// PGN import and export: every game of the fixtures here, and of ../shared/data/pgn/ when that
// directory exists (AXON_PGN_DIR overrides it), read into the move tree and written again. The
// tree must hold every legal move, comment, NAG and variation the PGN had, and a game exported,
// imported and exported again must give the same text.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { normalizeMove, type Chess } from 'chessops/chess';
import { makeSanAndPlay, parseSan } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { parsePgn, parseVariant, startingPosition, type Game, type Node, type PgnNodeData } from 'chessops/pgn';
import type { GameModel, MoveNode } from '../src/game';
import { commentClock, commentEval, commentText, exportPgn, gameFromPgn, importPgn } from '../src/pgn';

// The bundled test runs from web/node_modules/.axon-tests/; the sources' folder is two up.
const here = dirname(fileURLToPath(import.meta.url));
const webDir = existsSync(join(here, 'fixtures')) ? resolve(here, '..') : resolve(here, '../..');
const fixtures = join(webDir, 'test', 'fixtures');
const sharedPgn = process.env.AXON_PGN_DIR ?? resolve(webDir, '../../shared/data/pgn');

interface Canonical {
  san: string;
  comments: string[];
  startingComments: string[];
  nags: number[];
  children: Canonical[];
}

function canonicalModel(node: MoveNode): Canonical[] {
  return node.children.map((child) => ({
    san: child.move!.san,
    comments: child.comments,
    startingComments: child.startingComments,
    nags: child.nags,
    children: canonicalModel(child),
  }));
}

/** What the tree should hold, computed from chessops' parse independently of GameModel. */
function canonicalSource(node: Node<PgnNodeData>, position: Chess): Canonical[] {
  const out: Canonical[] = [];
  for (const child of node.children) {
    const after = position.clone();
    let san: string;
    if (child.data.san === '--') {
      if (after.isCheck()) continue;
      if (after.turn === 'black') after.fullmoves++;
      after.turn = after.turn === 'white' ? 'black' : 'white';
      after.epSquare = undefined;
      after.halfmoves++;
      san = '--';
    } else {
      const uci = parseUci(child.data.san);
      const move = uci && after.isLegal(normalizeMove(after, uci)) ? normalizeMove(after, uci) : parseSan(after, child.data.san);
      if (!move || !after.isLegal(move)) continue;
      san = makeSanAndPlay(after, move);
    }
    const same = out.find((c) => c.san === san);
    const entry: Canonical = {
      san,
      comments: child.data.comments ?? [],
      startingComments: child.data.startingComments ?? [],
      nags: child.data.nags ?? [],
      children: canonicalSource(child, after),
    };
    // The same move twice among siblings is one node: its comments, NAGs and continuations merge.
    if (same) {
      same.comments.push(...entry.comments);
      same.startingComments.push(...entry.startingComments);
      same.nags.push(...entry.nags);
      same.children.push(...entry.children);
    } else out.push(entry);
  }
  return out;
}

interface FileStats {
  games: number;
  refused: number;
  moves: number;
  variations: number;
  comments: number;
  nags: number;
  warnings: number;
}

function countTree(game: GameModel, stats: FileStats): void {
  for (const node of game.nodes()) {
    if (node.parent) stats.moves++;
    stats.variations += Math.max(0, node.children.length - 1);
    stats.comments += node.comments.length + node.startingComments.length;
    stats.nags += node.nags.length;
  }
}

/** Imports every game of `text`, checks it against chessops' parse and round-trips it. */
function roundTripText(text: string, what: string): FileStats {
  const stats: FileStats = { games: 0, refused: 0, moves: 0, variations: 0, comments: 0, nags: 0, warnings: 0 };
  const games: Game<PgnNodeData>[] = parsePgn(text);
  games.forEach((source, index) => {
    const label = `${what} game ${index + 1}`;
    stats.games++;
    if (parseVariant(source.headers.get('Variant')) !== 'chess') {
      assert.throws(() => gameFromPgn(source), /variant .* is not supported/, `${label}: a variant is refused with a reason`);
      stats.refused++;
      return;
    }
    const { game, warnings } = gameFromPgn(source);
    stats.warnings += warnings.length;
    countTree(game, stats);
    // Everything legal in the source is in the tree, with its comments and NAGs.
    assert.deepEqual([...game.headers], [...source.headers], `${label}: headers`);
    assert.deepEqual(game.root.comments, source.comments ?? [], `${label}: game comments`);
    const expected = canonicalSource(source.moves, startingPosition(source.headers).unwrap() as Chess);
    assert.deepEqual(canonicalModel(game.root), expected, `${label}: moves, comments, NAGs and variations`);
    // Written and read again: the same tree, the same headers, the same text.
    const pgn = exportPgn(game);
    const again = importPgn(pgn);
    assert.deepEqual(again.warnings, [], `${label}: warnings on re-import of\n${pgn}`);
    assert.equal(again.game.startFen, game.startFen, `${label}: start position`);
    assert.deepEqual(canonicalModel(again.game.root), canonicalModel(game.root), `${label}: tree after a round trip`);
    assert.deepEqual(again.game.root.comments, game.root.comments, `${label}: game comments after a round trip`);
    for (const [name, value] of game.headers) assert.equal(again.game.headers.get(name), name === 'Result' ? again.game.headers.get('Result') : value, `${label}: header ${name}`);
    assert.equal(exportPgn(again.game), pgn, `${label}: export is stable`);
    const result = source.headers.get('Result');
    if (result && result !== '*') assert.equal(again.game.headers.get('Result'), result, `${label}: result`);
  });
  return stats;
}

function pgnFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return pgnFiles(path);
      return /\.pgn(\.bz2)?$/.test(name) ? [path] : [];
    });
}

function hasBzip2(): boolean {
  try {
    execFileSync('bzip2', ['--help'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('fixtures: every game imports and round-trips', () => {
  const files = pgnFiles(fixtures);
  assert.ok(files.length >= 3, `fixtures in ${fixtures}`);
  for (const file of files) roundTripText(readFileSync(file, 'utf8'), relative(fixtures, file));
});

// Outside CI a checkout without ../shared skips this; in CI (CI set) missing data or bzip2 fails.
const inCi = Boolean(process.env.CI);
test(`../shared/data/pgn: every game of every file imports and round-trips`, { skip: existsSync(sharedPgn) || inCi ? false : `no ${sharedPgn}` }, async (t) => {
  assert.ok(existsSync(sharedPgn), `missing test data ${sharedPgn}`);
  const bzip2 = hasBzip2();
  assert.ok(bzip2 || !inCi, 'bzip2 is needed to read the compressed PGNs');
  const totals: FileStats = { games: 0, refused: 0, moves: 0, variations: 0, comments: 0, nags: 0, warnings: 0 };
  for (const file of pgnFiles(sharedPgn)) {
    const name = relative(sharedPgn, file);
    const compressed = file.endsWith('.bz2');
    await t.test(name, { skip: compressed && !bzip2 ? 'no bzip2 to decompress it' : false }, () => {
      const text = compressed ? execFileSync('bzip2', ['-dc', file], { encoding: 'utf8', maxBuffer: 1 << 28 }) : readFileSync(file, 'utf8');
      const stats = roundTripText(text, name);
      assert.ok(stats.games > 0, `${name}: no game found`);
      for (const key of Object.keys(totals) as (keyof FileStats)[]) totals[key] += stats[key];
    });
  }
  t.diagnostic(`shared PGNs: ${JSON.stringify(totals)}`);
  // The robustness set has variations, comments and NAGs: a parse that dropped them would show here.
  assert.ok(totals.variations > 20 && totals.comments > 1000 && totals.nags > 10, JSON.stringify(totals));
});

test('comments keep [%clk] and [%eval]; NAGs, variations, headers and the result survive', () => {
  const text = readFileSync(join(fixtures, 'annotated.pgn'), 'utf8');
  const { game, warnings } = importPgn(text);
  assert.deepEqual(warnings, []);
  assert.equal(game.headers.get('White'), 'Anna "The Rook" Ek');
  assert.equal(game.headers.get('Result'), '0-1');
  assert.equal(game.headers.get('Annotator'), 'Axon tests');
  const e4 = game.root.children[0]!;
  assert.equal(e4.move!.san, 'e4');
  assert.equal(commentClock(e4), 300);
  assert.deepEqual(commentEval(e4), { cp: 20 });
  assert.equal(commentText(e4.comments[0]!), 'best by test');
  const e5 = e4.children[0]!;
  assert.deepEqual(e5.nags, [1]);
  assert.equal(e4.children.length, 2, 'variation 1... c5');
  assert.equal(e4.children[1]!.move!.san, 'c5');
  assert.deepEqual(e4.children[1]!.startingComments, ['Sicilian']);
  const pgn = exportPgn(game);
  const roster = pgn.split('\n').slice(0, 7).map((line) => line.replace(/ ".*$/, ''));
  assert.deepEqual(roster, ['[Event', '[Site', '[Date', '[Round', '[White', '[Black', '[Result']);
  assert.match(pgn, /\[White "Anna \\"The Rook\\" Ek"\]/);
  assert.match(pgn, /1\. e4 \{ best by test \[%clk 0:05:00\] \[%eval 0\.2\] \} e5 \$1 \( \{ Sicilian \} 1\.\.\. c5 /);
  assert.match(pgn, / 0-1\n$/);
});

test('a null move, UCI movetext, an illegal move, a set-up position and a variant', () => {
  const nullMove = importPgn('[FEN "4r1k1/2p2p2/5np1/Qp4q1/2p3P1/2B2P2/PP6/K6R w - - 0 1"]\n\n1. Qxb5 -- (1... Qxb5 2. Bxf6) 2. Bxf6 *');
  assert.deepEqual(nullMove.game.movesUci(), ['a5b5', '0000', 'c3f6']);
  assert.deepEqual(nullMove.game.enginePosition(3), { fen: nullMove.game.fen(2), moves: ['c3f6'] }, 'engines start after the null move');
  assert.match(exportPgn(nullMove.game), /1\. Qxb5 -- \( 1\.\.\. Qxb5 2\. Bxf6 \) 2\. Bxf6 \*/);
  assert.deepEqual(importPgn('1. e2e4 e7e5 2. g1f3 *').game.moves.map((m) => m.san), ['e4', 'e5', 'Nf3']);
  const illegal = importPgn('1. e4 e5 2. Ke3 Nc6 (2... d6) 3. Nf3 *');
  assert.deepEqual(illegal.game.movesUci(), ['e2e4', 'e7e5']);
  assert.equal(illegal.warnings.length, 1);
  assert.match(illegal.warnings[0]!, /illegal move 2\. Ke3: 4 moves/);
  const setUp = importPgn('[SetUp "1"]\n[FEN "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 10"]\n\n10... O-O-O 11. O-O Rd2 *');
  assert.deepEqual(setUp.game.movesUci(), ['e8c8', 'e1g1', 'd8d2']);
  assert.match(exportPgn(setUp.game), /10\.\.\. O-O-O 11\. O-O Rd2 \*/);
  assert.throws(() => importPgn('[Variant "Crazyhouse"]\n\n1. e4 *'), /Crazyhouse is not supported/);
  assert.throws(() => importPgn('[FEN "bad"]\n\n*'), /FEN/);
  assert.throws(() => importPgn('   '), /no game/);
});

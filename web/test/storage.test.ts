// SPDX-License-Identifier: GPL-3.0-or-later
// What a reload keeps: a game's snapshot (tree, viewed move, scores, marks and better lines, an
// ending by resignation) restored as it was; the library's list order and its export of every game.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GameModel } from '../src/game';
import { GameLibrary, type NewLibraryEntry } from '../src/library';
import { exportPgn, importPgn, parsePgnGames } from '../src/pgn';
import { gameSnapshot, restoreGame } from '../src/session';

test('a snapshot restores the tree, the viewed move in a variation, scores, marks and the ending', () => {
  const game = new GameModel();
  for (const move of ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5']) game.play(move);
  game.end({ result: '1-0', reason: 'Resigned', winner: 'white' });
  const d6 = game.playAt(3, 'd6', true)!; // 2... d6 beside 2... Nc6
  game.node(2).eval = { cp: 31 };
  game.mainline()[5]!.mark = 'mistake';
  game.mainline()[5]!.better = ['c2c3', 'g8f6'];
  d6.comments.push('Philidor');
  const snapshot = gameSnapshot(game, d6);
  assert.deepEqual(snapshot.path, [0, 0, 0, 1]);
  const { game: back, viewed } = restoreGame(JSON.parse(JSON.stringify(snapshot)));
  assert.equal(exportPgn(back), exportPgn(game));
  assert.deepEqual(back.movesUci(), ['e2e4', 'e7e5', 'g1f3', 'd7d6'], 'the viewed line');
  assert.equal(viewed.move!.san, 'd6');
  assert.deepEqual(back.node(2).eval, { cp: 31 });
  assert.equal(back.mainline()[5]!.mark, 'mistake');
  assert.deepEqual(back.mainline()[5]!.better, ['c2c3', 'g8f6'], 'the better line of a marked move');
  back.selectMainline();
  assert.equal(back.outcome()?.reason, 'Resigned', 'the resignation is where it was');
  assert.equal(back.mainlineOutcome()?.result, '1-0');
});

const entry = (pgn: string, updated: number): NewLibraryEntry => {
  const summary = { white: '?', black: '?', result: '*', event: '?', date: '????.??.??', plies: 0 };
  return { ...summary, pgn, source: 'imported', created: updated, updated };
};

test('the library lists the latest first and exports every game as one PGN, oldest first', async () => {
  const library = GameLibrary.inMemory();
  assert.equal(library.persistent, false);
  const a = await library.add(entry('[Event "A"]\n\n1. e4 *\n', 1));
  const b = await library.add(entry('[Event "B"]\n\n1. d4 *\n', 2));
  const c = await library.add(entry('[Event "C"]\n\n1. c4 *\n', 3));
  assert.deepEqual((await library.list()).map((e) => e.id), [c, b, a]);
  const first = (await library.get(a))!;
  await library.put({ ...first, updated: 4 });
  assert.deepEqual((await library.list()).map((e) => e.id), [a, c, b]);
  await library.delete(c);
  const all = await library.exportAll();
  const games = parsePgnGames(all);
  assert.deepEqual(games.map((g) => g.headers.get('Event')), ['B', 'A']);
  assert.deepEqual(importPgn(all).game.movesUci(), ['d2d4'], 'the file reads back');
});

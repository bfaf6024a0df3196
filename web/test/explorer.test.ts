// SPDX-License-Identifier: GPL-3.0-or-later
// The opening explorer's counting: moves by position (transpositions meet), results, ratings;
// other variants left out; a PGN stream cut into chunks of games; the store's merge and query.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Chess } from 'chessops/chess';
import { pgnChunks, positionKey, tallyPgn, type ExplorerTally } from '../src/explorer-index';
import { ExplorerStore } from '../src/explorer-store';

const kDatabase = [
  '[White "a"]\n[Black "b"]\n[WhiteElo "2000"]\n[BlackElo "2100"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 1-0',
  '[White "c"]\n[Black "d"]\n[WhiteElo "1800"]\n[BlackElo "?"]\n[Result "0-1"]\n\n1. Nf3 Nc6 2. e4 e5 0-1',
  '[Result "1/2-1/2"]\n\n1. d4 d5 1/2-1/2',
  '[Variant "Crazyhouse"]\n[Result "1-0"]\n\n1. e4 e5 1-0',
].join('\n\n');

test('moves are counted by position: results, average ratings, transpositions; other variants left out', async () => {
  const tally: ExplorerTally = new Map();
  assert.deepEqual(tallyPgn(kDatabase, tally), { counted: 3, skipped: 1 });
  const start = tally.get(positionKey(Chess.default()))!;
  assert.deepEqual([...start.keys()].sort(), ['d2d4', 'e2e4', 'g1f3']);
  assert.deepEqual(start.get('e2e4'), { games: 1, white: 1, draws: 0, black: 0, ratingSum: 4100, ratingCount: 2, san: 'e4' });
  assert.equal(start.get('d2d4')!.draws, 1);
  // 1. e4 e5 2. Nf3 Nc6 and 1. Nf3 Nc6 2. e4 e5 reach the same position after three plies.
  const store = ExplorerStore.inMemory();
  await store.merge('imported', tally);
  await store.merge('library', tally);
  const moves = await store.moves(positionKey(Chess.default()));
  assert.deepEqual(moves.map((m) => `${m.san}:${m.games}`), ['d4:2', 'e4:2', 'Nf3:2']);
  await store.clear('library');
  assert.deepEqual((await store.moves(positionKey(Chess.default()))).map((m) => m.games), [1, 1, 1]);
  const tally2: ExplorerTally = new Map();
  tallyPgn('1. e4 e5 2. Nf3 Nc6 *\n\n1. Nf3 Nc6 2. e4 e5 *', tally2);
  const meet = [...tally2.values()].find((m) => m.has('g1f3') && m.has('e2e4') && [...m.values()].every((s) => s.games === 1) && m.size === 2);
  assert.ok(meet, 'the position after 1. e4 e5 / 1. Nf3 Nc6 is met by both games');
});

test('a PGN stream is cut into chunks of whole games', async () => {
  async function* lines(): AsyncGenerator<string> {
    for (const line of kDatabase.split('\n')) yield line;
  }
  const chunks: string[] = [];
  for await (const chunk of pgnChunks(lines(), 2)) chunks.push(chunk);
  assert.equal(chunks.length, 2);
  const tally: ExplorerTally = new Map();
  const counts = chunks.map((chunk) => tallyPgn(chunk, tally));
  assert.deepEqual(counts, [{ counted: 2, skipped: 0 }, { counted: 1, skipped: 1 }]);
});

test('an en-passant square no pawn can take is not part of the key: the same position after 1. e4 and after 3. Ng1 meets', () => {
  // After 1. e4 the FEN's en-passant field would be e3 in a naive export; no black pawn can take
  // there, so lichess's explorer (and this one) treat the position as the one reached again by
  // the knights' round trip.
  const tally: ExplorerTally = new Map();
  tallyPgn('1. e4 Nf6 2. Nf3 Ng8 3. Ng1 Nf6 *', tally);
  const afterE4 = Chess.default();
  afterE4.play({ from: 12, to: 28 });
  assert.equal(positionKey(afterE4), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -');
  assert.equal(tally.get(positionKey(afterE4))!.get('g8f6')!.games, 2);
  // An en-passant capture that is possible stays in the key, so it is a different position.
  const capturable = Chess.default();
  const moves: [number, number][] = [[12, 28], [55, 47], [28, 36], [51, 35]];
  for (const [from, to] of moves) capturable.play({ from, to });
  assert.match(positionKey(capturable), / d6$/);
});

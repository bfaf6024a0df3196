// SPDX-License-Identifier: GPL-3.0-or-later
// Opening names: the bundled Lichess table, lookup by position (EPD), transpositions, a game's
// line named after its last named position, and what the library stores.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Chess } from 'chessops/chess';
import { GameModel } from '../src/game';
import { epdOf, openingAt, openingCount, openingOfGame, openingOfMoves, openingOfNode, openingText } from '../src/openings';

const play = (moves: string[]): GameModel => {
  const game = new GameModel();
  for (const move of moves) assert.ok(game.play(move), move);
  return game;
};

test('the table is bundled whole and keyed by EPD', () => {
  assert.ok(openingCount() > 3000, `only ${openingCount()} openings`);
  assert.equal(epdOf('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -');
  // Move numbers and the halfmove clock do not matter.
  assert.deepEqual(openingAt('rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 7 30'), { eco: 'B20', name: 'Sicilian Defense' });
  assert.equal(openingAt('8/8/8/4k3/8/8/8/4K3 w - - 0 1'), undefined);
});

test('a line is named after its last named position; a transposition gets the position\'s name', () => {
  const najdorf = play(['e4', 'c5', 'Nf3', 'd6', 'd4', 'cxd4', 'Nxd4', 'Nf6', 'Nc3', 'a6', 'Be3', 'e5', 'h3']);
  const named = openingOfGame(najdorf);
  assert.ok(named, 'the Najdorf is named');
  assert.match(named.name, /^Sicilian Defense: Najdorf Variation/);
  assert.equal(named.eco.slice(0, 2), 'B9');
  // Earlier moves of the line have their own, shorter names.
  assert.equal(openingOfNode(najdorf, najdorf.node(2))?.name, 'Sicilian Defense');
  // The Nimzo-Indian reached from the English: named by the position, not by the first moves.
  const english = play(['c4', 'Nf6', 'Nc3', 'e6', 'd4', 'Bb4']);
  assert.match(openingOfNode(english, english.node(1))!.name, /^English Opening/);
  assert.deepEqual(openingOfGame(english), { eco: 'E20', name: 'Nimzo-Indian Defense' });
  assert.deepEqual(openingOfGame(english), openingOfGame(play(['d4', 'Nf6', 'c4', 'e6', 'Nc3', 'Bb4'])));
  // 1. Nf3 d5 2. d4 is the Queen's Pawn position of 1. d4 d5 2. Nf3, whatever came first.
  const reti = play(['Nf3', 'd5', 'd4']);
  assert.match(openingOfNode(reti, reti.node(2))!.name, /^Zukertort Opening/);
  const queens = openingOfGame(play(['d4', 'd5', 'Nf3']));
  assert.ok(queens && !/Zukertort Opening/.test(queens.name), `1. d4 d5 2. Nf3 is ${queens && openingText(queens)}`);
  assert.deepEqual(openingOfGame(reti), queens);
});

test('openings of moves as a PGN gives them (the library), and of positions without a name', () => {
  assert.deepEqual(openingOfMoves(Chess.default(), ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5']), { eco: 'C60', name: 'Ruy Lopez' });
  // An illegal move ends the line: what came before is still named.
  assert.deepEqual(openingOfMoves(Chess.default(), ['e4', 'c5', 'Ke3', 'Nf3']), { eco: 'B20', name: 'Sicilian Defense' });
  assert.equal(openingOfMoves(Chess.default(), []), undefined);
  assert.equal(openingText({ eco: 'C60', name: 'Ruy Lopez' }), 'C60 Ruy Lopez');
  // A game from a position no opening has.
  const endgame = new GameModel('8/8/8/4k3/8/8/4P3/4K3 w - - 0 1');
  endgame.play('e4');
  assert.equal(openingOfGame(endgame), undefined);
});

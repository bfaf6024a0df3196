// SPDX-License-Identifier: GPL-3.0-or-later
// Lichess puzzle CSV (`PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,
// GameUrl,OpeningTags`, the FEN before the opponent's move that sets the puzzle): one line read
// and checked (a legal FEN, every move of the solution legal in turn); a file's lines come from
// line-stream.ts. Every row is treated as hostile: a bad one is refused with its reason, never
// half-read.

import { Chess, normalizeMove } from 'chessops/chess';
import { parseUci } from 'chessops/util';
import { positionFromFen } from './game';

export { streamLines } from './line-stream';

export interface Puzzle {
  id: string;
  fen: string;
  /** UCI: the opponent's move first, then the solver's and the opponent's in turn. */
  moves: string[];
  rating: number;
  ratingDeviation: number;
  popularity: number;
  plays: number;
  themes: string[];
  gameUrl: string;
  openingTags: string[];
}

export type PuzzleRow = { puzzle: Puzzle; error?: undefined } | { puzzle?: undefined; error: string };

export const kPuzzleHeader = 'PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags';
/** A line longer than this is no puzzle (a row is about 150 bytes). */
export const kMaxLineLength = 4096;

/** The fields of one CSV line (RFC 4180 quotes allowed); null when a quote is left open. */
export function splitCsvLine(line: string): string[] | null {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  if (quoted) return null;
  fields.push(field);
  return fields;
}

function wholeNumber(text: string, min: number, max: number): number | null {
  if (!/^-?\d{1,7}$/.test(text.trim())) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
}

/** One puzzle line, checked; the header line is an error the importer skips. */
export function parsePuzzleLine(line: string): PuzzleRow {
  if (line.length > kMaxLineLength) return { error: `the line is longer than ${kMaxLineLength} characters` };
  const fields = splitCsvLine(line);
  if (!fields) return { error: 'a quoted field is not closed' };
  if (fields.length < 9 || fields.length > 10) return { error: `a puzzle row has 9 or 10 fields, this one ${fields.length}` };
  const [id = '', fen = '', movesText = '', ratingText = '', rdText = '', popularityText = '', playsText = '', themesText = '', gameUrl = '', tagsText = ''] = fields;
  if (!/^[A-Za-z0-9]{1,16}$/.test(id)) return { error: `the puzzle id ${JSON.stringify(id.slice(0, 20))} is not one (letters and digits)` };
  let position: Chess;
  try {
    position = positionFromFen(fen);
  } catch (error) {
    return { error: `puzzle ${id}: ${(error as Error).message}` };
  }
  const moves = movesText.trim().split(/\s+/).filter(Boolean);
  if (moves.length < 2) return { error: `puzzle ${id}: the moves need the opponent's move and at least one reply` };
  for (const [index, text] of moves.entries()) {
    const uci = parseUci(text);
    const move = uci && normalizeMove(position, uci);
    if (!move || !position.isLegal(move)) return { error: `puzzle ${id}: move ${index + 1} (${text}) is not legal` };
    position.play(move);
  }
  const rating = wholeNumber(ratingText, 0, 4000);
  if (rating === null) return { error: `puzzle ${id}: the rating ${JSON.stringify(ratingText)} is not a number from 0 to 4000` };
  const themes = themesText.trim().split(/\s+/).filter(Boolean);
  if (themes.some((theme) => !/^[A-Za-z0-9]{1,40}$/.test(theme))) return { error: `puzzle ${id}: a theme is not a word` };
  return {
    puzzle: {
      id,
      fen: fen.trim(),
      moves,
      rating,
      // Columns a hand-made file may leave empty get neutral values.
      ratingDeviation: wholeNumber(rdText, 0, 1000) ?? 100,
      popularity: wholeNumber(popularityText, -100, 100) ?? 0,
      plays: wholeNumber(playsText, 0, 1e9) ?? 0,
      themes,
      gameUrl: /^https?:\/\/\S+$/.test(gameUrl) ? gameUrl : '',
      openingTags: tagsText.trim().split(/\s+/).filter((tag) => /^[A-Za-z0-9_]{1,80}$/.test(tag)),
    },
  };
}

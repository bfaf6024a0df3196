// SPDX-License-Identifier: GPL-3.0-or-later
// The page's wiring: state (game, viewed move, mode, engine), controls, keyboard, URL hash, and the
// render that keeps board, move list, clocks, banner and graphs in step.

import type { Color } from 'chessops/types';
import { AnalysisController } from './analysis';
import { BoardView } from './board-view';
import { BoardEditor } from './board-editor';
import { initLooks } from './board-looks';
import { chess960Fen, randomChess960 } from './position-setup';
import { commentsWithShapes, shapesOfComments } from './board-shapes';
import { ChessClock, timeControlById } from './clock';
import { Dashboard } from './dashboard';
import { byTestId, downloadBlob, toast, toastAction } from './dom';
import { kEloMax, kEloMin } from './engine/engine';
import { EngineOptions } from './engine-options';
import { EngineSwitch } from './engine-switch';
import { makeComment } from 'chessops/pgn';
import { GameModel, INITIAL_FEN, type GameOutcome, type MarkKind, type MoveNode } from './game';
import { EvalGraph } from './graphs';
import { HeatmapOverlay } from './heatmap';
import { TablebasePanel } from './tablebase-panel';
import { MoveList } from './move-list';
import { GameStore, isResumable } from './game-store';
import type { LibraryEntry, LibrarySource } from './library';
import { commentEval, exportPgn, gameFromPgn, importPgn, isSupportedVariant, looksLikeGame, parsePgnGames, pgnDate } from './pgn';
import { gameSnapshot, loadSession, restoreGame, type SavedPlay, type SavedSession } from './session';
import { TreeTools } from './tree-tools';
import { openingOfNode, showOpening } from './openings';
import { PlayController } from './play';
import { PuzzleController } from './puzzles';
import { ExplorerPanel } from './explorer';
import type { Key } from '@lichess-org/chessground/types';
import { ReviewRunner, kBlunderDrop, kInaccuracyDrop, kMistakeDrop } from './review';
import { ReviewPanel } from './review-panel';
import { TimeControlPicker } from './tc-picker';
import { applyTheme, loadSettings, saveSettings } from './settings';
import { boardToSvg, copyText, linkToFen, readHash, svgToPng } from './share';
import { SoundPlayer } from './sound';

type Mode = 'play' | 'analysis' | 'puzzle';

const settings = loadSettings();
applyTheme(settings.theme);
initLooks(settings, () => saveSettings(settings));

// ---- state ---------------------------------------------------------------------------------
let game = new GameModel();
/** The viewed position: a ply of the game's viewed line (game.line). */
let viewPly = 0;
let mode: Mode = 'play';
let reviewing: ReviewRunner | null = null;
/** The time control of the game against Axon on the board (settings.tc applies from the next game). */
let gameTc = settings.tc;

// ---- elements ------------------------------------------------------------------------------
const layout = document.querySelector<HTMLElement>('.layout')!;
const banner = byTestId('status-banner');
const gamePanel = document.querySelector<HTMLElement>('.game-panel')!;
const colorSelect = byTestId<HTMLSelectElement>('color-select');
const eloSlider = byTestId<HTMLInputElement>('elo-slider');
const fullStrength = byTestId<HTMLInputElement>('full-strength');
const eloOutput = document.querySelector<HTMLOutputElement>('.elo-value')!;
const multipvSelect = byTestId<HTMLSelectElement>('multipv-select');
const fenInput = byTestId<HTMLInputElement>('fen-input');
const pgnText = byTestId<HTMLTextAreaElement>('pgn-text');
const moveInput = byTestId<HTMLInputElement>('move-input');
const reviewButton = byTestId<HTMLButtonElement>('review-button');

// ---- components ----------------------------------------------------------------------------
const sound = new SoundPlayer();
sound.enabled = settings.sound;
const board = new BoardView(
  byTestId('board'),
  (uci) => onUserMove(uci),
  (shapes) => {
    // Drawn on the viewed position: kept in its move's comments (saved, exported, drawn again).
    const node = game.node(viewPly);
    node.comments = commentsWithShapes(node.comments, shapes);
    store.schedule();
  },
);
const moveList = new MoveList(byTestId('move-list'));
const evalGraph = new EvalGraph(byTestId('eval-graph') as unknown as SVGSVGElement);
const dashboard = new Dashboard(byTestId('dashboard'));
const clock = new ChessClock(
  { white: byTestId('clock-white'), black: byTestId('clock-black') },
  (color) => play.flag(color),
  (color) => {
    if (color === play.userColor) sound.play('low-time');
  },
);

const play: PlayController = new PlayController({
  game: () => game,
  engine: () => engines.engine,
  clock,
  refresh: () => {
    viewPly = game.plyCount;
    render();
  },
  moved: (move) => {
    sound.play(move.check ? 'check' : move.capture ? 'capture' : 'move');
    announceMove(game.plyCount);
    // The mover's clock after the move (increment included), as lichess records it.
    if (clock.enabled) {
      const mover = game.moverOf(game.plyCount);
      game.node().comments = [makeComment({ clock: Math.round(clock.remaining(mover) / 1000) })];
    }
  },
  ended: (outcome) => {
    sound.play('end');
    game.headers.set('Result', outcome.result);
    game.headers.set('Termination', outcome.reason);
  },
  engineInfo: (info) => dashboard.update(info),
  engineSearching: (ply) => {
    dashboard.setRoot(game.position(ply));
    dashboard.clear();
  },
  playPremove: () => board.playPremove(),
});

const analysis = new AnalysisController(
  {
    engine: () => engines.engine,
    setArrows: (shapes) => board.setArrows(shapes),
    searchStarted: () => dashboard.newSearch(),
    onInfo: (info) => dashboard.update(info),
    onProgress: (progress) => dashboard.progress(progress),
    onEval: (node, score) => {
      node.eval = score;
      renderEvalGraph();
    },
    playMove: (uci) => onUserMove(uci),
  },
  {
    evalBar: byTestId('eval-bar'),
    lineList: byTestId('pv-lines'),
    depthLabel: byTestId('analysis-depth'),
    status: byTestId('analysis-status'),
    note: byTestId('analysis-note'),
    stopButton: byTestId<HTMLButtonElement>('analysis-stop'),
    deeperButton: byTestId<HTMLButtonElement>('analysis-deeper'),
  },
);

const engineOptions = new EngineOptions(
  {
    engine: () => engines.engine,
    settings,
    saveSettings: () => saveSettings(settings),
    pauseAnalysis: () => {
      const wasRunning = analysis.running;
      if (wasRunning) analysis.stop();
      // Analysis restarts on the viewed position (which may have changed meanwhile); Go deeper
      // would have kept the lines, but a new hash size starts empty anyway.
      return () => {
        if (wasRunning) startAnalysis();
      };
    },
  },
  {
    hash: byTestId<HTMLSelectElement>('engine-hash'),
    threads: byTestId<HTMLSelectElement>('engine-threads'),
    error: byTestId('engine-options-error'),
  },
);

const engines: EngineSwitch = new EngineSwitch(
  {
    leaving: (): boolean => {
      const wasPlaying: boolean = mode === 'play' && play.active;
      if (wasPlaying) play.pause();
      analysis.stop();
      return wasPlaying;
    },
    joined: (wasPlaying) => {
      if (wasPlaying) play.resume();
      else if (mode === 'analysis') startAnalysis();
      engineOptions.applyRemembered();
    },
    back: () => {
      if (mode === 'play') play.engineAvailable();
      else startAnalysis();
    },
    stateChanged: () => {
      renderThinking();
      analysis.engineChanged();
      engineOptions.render();
    },
  },
  () => settings.engine,
  (kind) => {
    settings.engine = kind;
    saveSettings(settings);
  },
);

// The analysis heat map: follows the board, the mode and the engine through their DOM attributes.
new HeatmapOverlay({
  board: byTestId('board'),
  layout,
  toggleHost: document.querySelector<HTMLElement>('.analysis-panel .card-head') ?? layout,
  engine: () => engines.engine,
  engineStatus: byTestId('engine-status'),
});

// The tablebase panel: positions of at most seven pieces, with the server engine's tables.
new TablebasePanel({
  board: byTestId('board'),
  layout,
  host: byTestId('tablebase-host'),
  engine: () => engines.engine,
  engineStatus: byTestId('engine-status'),
  playMove: (uci) => onUserMove(uci),
});

const store = new GameStore({
  game: () => game,
  snapshot: () => sessionSnapshot(),
  // An unfinished game against Axon is played on; any other game opens in Analysis.
  open: (opened, entry) => withUndo(() => (isResumable(entry) && entry.play ? resumeGame(entry, entry.play) : openForAnalysis(opened, entry.source))),
  play: () => playSnapshot(),
});

const treeTools = new TreeTools({
  game: () => game,
  viewed: () => game.node(viewPly),
  editable: () => mode === 'analysis' && !reviewing,
  changed: () => {
    viewPly = Math.min(viewPly, game.plyCount);
    render();
  },
  // A paused game against Axon is over once its main line loses moves.
  deleting: (node) => {
    if (play.started && game.isMainline(node)) play.abandon();
  },
  deleted: (parent) => {
    viewPly = parent.ply;
    render();
    startAnalysis();
  },
});

const reviewPanel = new ReviewPanel({
  game: () => game,
  viewed: () => game.node(viewPly),
  goTo: (node) => goToNode(node),
  editable: () => !reviewing,
});

// The board editor: its own board; Play and Analyse put its position on the main board.
new BoardEditor({
  viewedFen: () => game.fen(viewPly),
  play: (fen) =>
    unlessGameOn('a game from the editor', 'Play it anyway', () =>
      withUndo(() => {
        newGame(fen);
        window.scrollTo({ top: 0 });
      }),
    ),
  analyse: (fen) =>
    unlessGameOn('analysing the editor\'s position', 'Analyse it anyway', () =>
      withUndo(() => {
        openForAnalysis(new GameModel(fen), 'analysis');
        window.scrollTo({ top: 0 });
      }),
    ),
});

// The opening explorer: the viewed position's moves in the indexed games (Analysis only).
const explorer = new ExplorerPanel({
  position: () => (mode === 'analysis' ? game.position(viewPly) : null),
  playMove: (uci) => onUserMove(uci),
  libraryPgns: () => store.allPgns(),
});

// ---- rendering -----------------------------------------------------------------------------
/** Tells screen readers which move was just played ("Black played Nf6"). */
function announceMove(ply: number): void {
  const move = game.moves[ply - 1];
  if (!move) return;
  const mover = game.moverOf(ply) === 'white' ? 'White' : 'Black';
  document.getElementById('move-announcer')!.textContent = `${mover} played ${move.san}`;
}

function describeOutcome(outcome: GameOutcome): string {
  const winner = outcome.winner ? `${outcome.winner === 'white' ? 'White' : 'Black'} wins` : 'Draw';
  const loser = outcome.winner === 'white' ? 'Black' : 'White';
  switch (outcome.reason) {
    case 'Time':
      return outcome.winner ? `Time · ${loser} ran out of time · ${winner}` : 'Time · flag fell, but no mating material · Draw';
    case 'Resigned':
      return `Resigned · ${loser} resigned · ${winner}`;
    default:
      return `${outcome.reason} · ${winner}`;
  }
}

function playerName(color: Color): string {
  const named = game.headers.get(color === 'white' ? 'White' : 'Black');
  return named && named !== '?' ? named : color === 'white' ? 'White' : 'Black';
}

function pageTitle(outcome: GameOutcome | null): string {
  if (mode === 'analysis') return 'Analysis · Axon';
  if (mode === 'puzzle') return 'Puzzles · Axon';
  if (outcome) return `${outcome.result} · ${outcome.reason} · Axon`;
  if (play.active) return game.turn() === play.userColor ? 'Your turn · Axon' : 'Axon is thinking · Axon';
  return 'Axon · play and analyse';
}

function render(): void {
  viewPly = Math.max(0, Math.min(viewPly, game.plyCount));
  const position = game.position(viewPly);
  const atEnd = viewPly === game.plyCount;
  const outcome = game.outcome();
  let movable: Color | 'both' | 'none' = 'none';
  let premove = false;
  if (mode === 'analysis') movable = reviewing ? 'none' : 'both';
  else if (mode === 'puzzle') movable = atEnd ? puzzles.movable(game) : 'none';
  else if (play.active && atEnd) {
    movable = play.userColor;
    premove = true;
  } else if (play.active) movable = 'both'; // stepped back: a move there is answered (moveInPastPosition)
  board.show({ position, lastMoveUci: lastMoveUci(viewPly), movable, premove, shapes: shapesOfComments(game.node(viewPly).comments) });

  const mainOutcome = game.mainlineOutcome();
  const result = mainOutcome?.result ?? game.headers.get('Result');
  moveList.render(game, game.node(viewPly), result && result !== '*' ? result : null);
  treeTools.render();
  reviewPanel.render();
  showOpening(byTestId('opening-name'), openingOfNode(game, game.node(viewPly)));

  banner.hidden = !outcome;
  if (outcome) {
    banner.textContent = describeOutcome(outcome);
    banner.dataset.result = outcome.result;
    const forUser = mode === 'play' && play.started ? (!outcome.winner ? 'draw' : outcome.winner === play.userColor ? 'win' : 'loss') : '';
    banner.className = `status-banner ${forUser}`;
  } else {
    banner.textContent = '';
    delete banner.dataset.result;
  }

  for (const color of ['white', 'black'] as const)
    document.querySelector(`.player-name[data-color="${color}"]`)!.textContent = playerName(color);
  gamePanel.classList.toggle('flipped', board.orientation === 'black');
  document.title = pageTitle(outcome);
  gamePanel.classList.toggle('game-on', play.active);

  const playing = mode === 'play' && play.active;
  dashboard.setConcealed(playing && !settings.showEngineEval);
  document.querySelector<HTMLElement>('.game-over-actions')!.hidden = !(mode === 'play' && play.started && outcome);
  byTestId<HTMLButtonElement>('takeback').disabled = !playing || game.plyCount === 0;
  byTestId<HTMLButtonElement>('offer-draw').disabled = !playing;
  byTestId<HTMLButtonElement>('resign').disabled = !playing;
  byTestId<HTMLButtonElement>('nav-prev').disabled = viewPly === 0;
  byTestId<HTMLButtonElement>('nav-first').disabled = viewPly === 0;
  byTestId<HTMLButtonElement>('nav-next').disabled = atEnd;
  byTestId<HTMLButtonElement>('nav-last').disabled = atEnd;
  if (document.activeElement !== fenInput) fenInput.value = game.fen(viewPly);
  renderEvalGraph();
  engines.render();
  renderThinking();
  explorer.render();
  store.schedule();
}

/** The viewed node's move as UCI for highlighting (none for the start or a null move). */
function lastMoveUci(ply: number): string {
  const uci = game.node(ply).move?.uci ?? '';
  return uci === '0000' ? '' : uci;
}

function renderEvalGraph(): void {
  const scores = game.line.map((node) => node.eval ?? commentEval(node));
  const marks = new Map<number, MarkKind>();
  game.line.forEach((node, ply) => node.mark && marks.set(ply, node.mark));
  evalGraph.render(scores, viewPly, marks);
  const known = scores.some(Boolean);
  byTestId('eval-graph').classList.toggle('empty', !known);
  document.querySelector<HTMLElement>('.graph-hint')!.hidden = known;
}

/** The engine's side is marked while it thinks in a game. */
function renderThinking(): void {
  const thinking = engines.engine?.state === 'thinking' || play.thinking;
  for (const color of ['white', 'black'] as const)
    document
      .querySelector(`.player-${color}`)!
      .classList.toggle('thinking', mode === 'play' && play.active && color === play.engineColor && thinking);
}

// ---- navigation ----------------------------------------------------------------------------
function goTo(ply: number): void {
  const next = Math.max(0, Math.min(ply, game.plyCount));
  if (next === viewPly) return;
  viewPly = next;
  render();
  if (mode === 'analysis') startAnalysis();
}

/** Views `node` (a click in the move list): its line becomes the viewed one. */
function goToNode(node: MoveNode): void {
  if (node === game.node(viewPly)) return;
  // In Play the game goes on along the main line: a variation is viewed in Analysis.
  if (mode === 'play' && !game.isMainline(node)) setMode('analysis');
  game.select(node);
  viewPly = node.ply;
  render();
  if (mode === 'analysis') startAnalysis();
}

function startAnalysis(): void {
  if (mode !== 'analysis' || reviewing) return;
  const position = game.position(viewPly);
  dashboard.setRoot(position);
  dashboard.clear();
  analysis.start({
    ...game.enginePosition(viewPly),
    node: game.node(viewPly),
    position,
    multipv: settings.multipv,
  });
}

// ---- moves ---------------------------------------------------------------------------------
function onUserMove(uci: string): void {
  if (mode === 'puzzle') {
    if (!puzzles.userMove(uci)) render();
    return;
  }
  if (mode === 'play') {
    if (play.active && viewPly < game.plyCount) moveInPastPosition(uci);
    else if (!play.userMove(uci)) render();
    return;
  }
  if (reviewing) return;
  if (!game.parseMove(uci, viewPly)) {
    render();
    return;
  }
  // In analysis a move from an earlier position starts a variation (or follows the move already
  // there); a paused game against the engine is over once its main line changes.
  const parent = game.node(viewPly);
  const known = new Set(parent.children);
  const node = game.playAt(viewPly, uci, true);
  if (!node) {
    render();
    return;
  }
  if (play.started && !known.has(node) && game.isMainline(node)) play.abandon();
  const played = node.move!;
  sound.play(played.check ? 'check' : played.capture ? 'capture' : 'move');
  announceMove(node.ply);
  viewPly = node.ply;
  render();
  startAnalysis();
}

/**
 * A move on an earlier position of a game against Axon (the user stepped back): the game goes on
 * from its last move, so the board goes back there, and the toast offers to try the move in
 * Analysis instead (a variation; the game waits, paused, as when switching to Analysis).
 */
function moveInPastPosition(uci: string): void {
  const ply = viewPly;
  const position = game.position(ply);
  const move = game.parseMove(uci, ply);
  viewPly = game.plyCount;
  render();
  if (!move) return;
  const number = `${position.fullmoves}${position.turn === 'white' ? '.' : '...'}`;
  toastAction(`You were viewing move ${number}: the game goes on from the last move. Try the move as a variation?`, 'Analyse it', () => {
    setMode('analysis');
    viewPly = ply;
    onUserMove(uci);
  });
}

/**
 * Import PGN and Load FEN put another game on the board: during a game against Axon (with moves) they first
 * ask (a toast with the button `confirmLabel`), so that a stray click does not end the game.
 */
function unlessGameOn(what: string, confirmLabel: string, action: () => void): void {
  // A game not yet begun (the page's first board) loses nothing.
  if (!play.active || game.root.children.length === 0) {
    action();
    return;
  }
  toastAction(`Your game against Axon is on: ${what} would end it (it stays in the library).`, confirmLabel, action);
}

// ---- game set-up ---------------------------------------------------------------------------
function currentElo(): number | undefined {
  return settings.elo === 'max' ? undefined : settings.elo;
}

/** Puts `next` on the board in place of the game there (which is saved first). */
function resetRecord(next: GameModel, source: LibrarySource): void {
  // A game put on the board from Puzzles (Load FEN, Import, the editor) is what comes next, not
  // the game the puzzles interrupted.
  beforePuzzles = null;
  store.flush();
  reviewing?.cancel();
  analysis.stop();
  play.abandon();
  game = next;
  store.track(next, source);
  viewPly = 0;
  reviewPanel.reset();
  if (next.review) reviewPanel.showSummary(next.review, reviewThresholds());
  dashboard.resetHashGraph();
}

function newGame(startFen: string = INITIAL_FEN): void {
  resetRecord(new GameModel(startFen), 'played');
  setMode('play', false);
  const userColor: Color =
    settings.color === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : settings.color;
  board.setOrientation(userColor);
  dashboard.setOrientation(userColor);
  gameTc = settings.tc;
  clock.reset(timeControlById(gameTc));
  setPlayedGameHeaders(userColor);
  play.start({ userColor, elo: currentElo() });
}

/**
 * The start position New game asks for: the usual one, a random Chess960 one, or the Chess960
 * position whose number (0-959) is typed; null (with the reason under the box) when that number
 * is not one.
 */
function chosenStart(): string | null {
  const choice = byTestId<HTMLSelectElement>('start-select').value;
  const error = byTestId('chess960-error');
  error.textContent = '';
  if (choice === '960-random') return chess960Fen(randomChess960());
  if (choice !== '960-number') return INITIAL_FEN;
  const text = byTestId<HTMLInputElement>('chess960-number').value.trim();
  const number = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(number >= 0 && number <= 959)) {
    error.textContent = `A Chess960 start position is a whole number from 0 to 959${text ? `, not ${text}` : ''}.`;
    return null;
  }
  return chess960Fen(number);
}

/** The seven-tag roster (and time control) of a game against Axon. */
function setPlayedGameHeaders(userColor: Color): void {
  const axon = settings.elo === 'max' ? 'Axon · full strength' : `Axon · ${settings.elo}`;
  const site = location.origin.startsWith('http') ? location.origin : 'Axon';
  const [minutes, increment] = settings.tc.split('+');
  const tags: [string, string][] = [
    ['Event', 'Axon game'],
    ['Site', site],
    ['Date', pgnDate(new Date())],
    ['Round', '-'],
    ['White', userColor === 'white' ? 'You' : axon],
    ['Black', userColor === 'black' ? 'You' : axon],
    ['Result', '*'],
  ];
  // PGN writes time controls in seconds: "3+2" is "180+2".
  if (increment !== undefined) tags.push(['TimeControl', `${Number(minutes) * 60}+${increment}`]);
  game.headers.clear();
  for (const [name, value] of tags) game.headers.set(name, value);
  // A Chess960 start says so, so that other programs read its castling right.
  if (chess960Number(game.startFen) !== null) game.headers.set('Variant', 'Chess960');
}

/** The Chess960 number of a start FEN other than the usual one, or null. */
function chess960Number(fen: string): number | null {
  if (fen === INITIAL_FEN) return null;
  for (let n = 0; n < 960; n++) if (chess960Fen(n) === fen) return n;
  return null;
}

/** Opens a position or a game (with its tree and headers) for analysis: FEN set-up, PGN import, links, the library. */
function openForAnalysis(next: GameModel, source: LibrarySource): void {
  resetRecord(next, source);
  game.selectMainline();
  viewPly = game.plyCount;
  clock.reset(timeControlById('unlimited'));
  if (mode !== 'analysis') setMode('analysis', false);
  else {
    render();
    startAnalysis();
  }
}

function setMode(next: Mode, resume = true): void {
  const changed = next !== mode;
  const leftPuzzles = changed && mode === 'puzzle';
  mode = next;
  layout.dataset.mode = mode;
  byTestId('mode-play').setAttribute('aria-selected', String(mode === 'play'));
  byTestId('mode-analysis').setAttribute('aria-selected', String(mode === 'analysis'));
  byTestId('mode-puzzle').setAttribute('aria-selected', String(mode === 'puzzle'));
  // Engine lines sit above the moves while analysing (as on analysis boards), under the board in play.
  const analysisPanel = document.querySelector<HTMLElement>('.analysis-panel')!;
  if (mode === 'analysis') document.querySelector('.side')!.prepend(analysisPanel);
  else document.querySelector('.tools')!.prepend(analysisPanel);
  if (!changed) return;
  if (leftPuzzles) {
    puzzles.leave();
    // Back to the game the puzzles interrupted (unless a puzzle is being analysed).
    const back = beforePuzzles;
    beforePuzzles = null;
    if (back && restoreSession({ ...back, mode: next as 'play' | 'analysis' })) return;
  }
  if (mode === 'puzzle') {
    play.pause();
    reviewing?.cancel();
    analysis.reset();
    if (store.recordOf(game)) beforePuzzles = sessionSnapshot();
    store.flush();
    render();
    void puzzles.enter();
  } else if (mode === 'analysis') {
    play.pause();
    render();
    startAnalysis();
  } else {
    reviewing?.cancel();
    analysis.reset();
    // The game against Axon goes on along the main line, whatever line Analysis viewed.
    game.selectMainline();
    viewPly = game.plyCount;
    render();
    if (resume) play.resume();
  }
}

// ---- puzzles -------------------------------------------------------------------------------
/** The session the Puzzles mode interrupted (its game is in the library too). */
let beforePuzzles: SavedSession | null = null;

const puzzles = new PuzzleController({
  show: (next, orientation) => {
    // A puzzle is not a game of the library: the game it replaces was saved (store.flush).
    reviewing?.cancel();
    analysis.stop();
    game = next;
    viewPly = 0;
    reviewPanel.reset();
    board.setOrientation(orientation);
    dashboard.setOrientation(orientation);
    render();
  },
  refresh: () => {
    viewPly = game.plyCount;
    render();
  },
  hint: (square) => board.setArrows(square ? [{ orig: square as Key, brush: 'green' }] : []),
  analyse: (puzzleGame) => {
    // Analysed, the puzzle becomes a game of the library like any analysed position.
    store.track(puzzleGame, 'analysis');
    beforePuzzles = null;
    setMode('analysis');
  },
});

// ---- controls ------------------------------------------------------------------------------
function initControls(): void {
  colorSelect.value = settings.color;
  multipvSelect.value = String(settings.multipv);
  // The engine's calibrated range (engine.ts) is the slider's; index.html only repeats it.
  eloSlider.min = String(kEloMin);
  eloSlider.max = String(kEloMax);
  const elo = settings.elo === 'max' ? 1500 : Math.max(kEloMin, Math.min(kEloMax, settings.elo));
  eloSlider.value = String(elo);
  fullStrength.checked = settings.elo === 'max';
  const renderElo = (): void => {
    eloSlider.disabled = fullStrength.checked;
    eloOutput.textContent = fullStrength.checked ? 'full' : eloSlider.value;
    eloSlider.setAttribute('aria-valuetext', fullStrength.checked ? 'full strength' : `${eloSlider.value} Elo`);
  };
  renderElo();
  const saveElo = (): void => {
    settings.elo = fullStrength.checked ? 'max' : Number(eloSlider.value);
    saveSettings(settings);
    renderElo();
  };
  eloSlider.addEventListener('input', saveElo);
  fullStrength.addEventListener('change', saveElo);
  colorSelect.addEventListener('change', () => {
    settings.color = colorSelect.value as typeof settings.color;
    saveSettings(settings);
  });
  new TimeControlPicker(settings.tc, (id) => {
    settings.tc = id;
    saveSettings(settings);
    if (!play.started) clock.reset(timeControlById(settings.tc));
  });
  const showEval = byTestId<HTMLInputElement>('show-engine-eval');
  showEval.checked = settings.showEngineEval;
  showEval.addEventListener('change', () => {
    settings.showEngineEval = showEval.checked;
    saveSettings(settings);
    render();
  });
  multipvSelect.addEventListener('change', () => {
    settings.multipv = Number(multipvSelect.value);
    saveSettings(settings);
    startAnalysis();
  });

  byTestId('new-game').addEventListener('click', () => {
    const start = chosenStart();
    if (start === null) return;
    withUndo(() => newGame(start));
  });
  const startSelect = byTestId<HTMLSelectElement>('start-select');
  startSelect.addEventListener('change', () => {
    byTestId('chess960-field').hidden = startSelect.value !== '960-number';
  });
  byTestId('rematch').addEventListener('click', () => withUndo(() => newGame()));
  byTestId('review-game').addEventListener('click', () => void runReview());
  byTestId('mode-play').addEventListener('click', () => setMode('play'));
  byTestId('mode-analysis').addEventListener('click', () => setMode('analysis'));
  byTestId('mode-puzzle').addEventListener('click', () => setMode('puzzle'));
  byTestId('flip').addEventListener('click', flip);
  byTestId('takeback').addEventListener('click', () => {
    play.takeback();
    // A takeback to the user's turn starts no search: the dashboard must not keep the lines of a
    // position no longer on the board (a search that did start is about this same position).
    dashboard.setRoot(game.position(game.plyCount));
    dashboard.clear();
  });
  initResign();
  byTestId('offer-draw').addEventListener('click', () => play.offerDraw());
  byTestId('nav-first').addEventListener('click', () => goTo(0));
  byTestId('nav-prev').addEventListener('click', () => goTo(viewPly - 1));
  byTestId('nav-next').addEventListener('click', () => goTo(viewPly + 1));
  byTestId('nav-last').addEventListener('click', () => goTo(game.plyCount));
  moveList.onSelect((node) => goToNode(node));
  evalGraph.onSelect((ply) => goTo(ply));

  byTestId('move-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = moveInput.value.trim();
    if (!text) return;
    const move = game.parseMove(text, mode === 'analysis' ? viewPly : game.plyCount);
    if (!move) {
      toast(`Not a legal move here: ${text}`);
      moveInput.setAttribute('aria-invalid', 'true');
      return;
    }
    moveInput.removeAttribute('aria-invalid');
    const before = game.plyCount;
    const uci = 'from' in move ? uciOf(move.from, move.to, move.promotion) : '';
    onUserMove(uci);
    if (game.plyCount !== before || mode === 'analysis') moveInput.value = '';
    else toast(mode === 'play' && play.active ? 'Not your move' : 'Start a new game to play');
  });

  byTestId('fen-load').addEventListener('click', () => {
    const fen = fenInput.value.trim();
    try {
      new GameModel(fen);
    } catch (error) {
      toast(`Cannot load: ${(error as Error).message}`);
      return;
    }
    unlessGameOn('loading a position', 'Load it anyway', () =>
      withUndo(() => {
        if (mode === 'play') newGame(fen);
        else openForAnalysis(new GameModel(fen), 'analysis');
      }),
    );
  });

  byTestId('pgn-export').addEventListener('click', () => {
    pgnText.value = currentPgn();
    pgnText.select();
  });
  byTestId('pgn-download').addEventListener('click', () =>
    downloadBlob(new Blob([currentPgn()], { type: 'application/x-chess-pgn' }), 'axon-game.pgn'),
  );
  byTestId('pgn-import').addEventListener('click', () => unlessGameOn('importing a game', 'Import it anyway', () => importFromBox()));

  byTestId('copy-link').addEventListener('click', async () => {
    const link = linkToFen(game.fen(viewPly));
    const ok = await copyText(link);
    toast(ok ? 'Link to this position copied' : link);
  });
  byTestId('export-svg').addEventListener('click', () =>
    downloadBlob(new Blob([currentBoardSvg()], { type: 'image/svg+xml' }), 'axon-board.svg'),
  );
  byTestId('export-png').addEventListener('click', async () => {
    try {
      downloadBlob(await svgToPng(currentBoardSvg()), 'axon-board.png');
    } catch (error) {
      toast(`Cannot export: ${(error as Error).message}`);
    }
  });

  const themeToggle = byTestId('theme-toggle');
  const renderTheme = (): void =>
    themeToggle.setAttribute('aria-label', settings.theme === 'dark' ? 'Switch to the light theme' : 'Switch to the dark theme');
  renderTheme();
  themeToggle.addEventListener('click', () => {
    settings.theme = settings.theme === 'dark' ? 'light' : 'dark';
    applyTheme(settings.theme);
    saveSettings(settings);
    renderTheme();
  });
  const soundToggle = byTestId('sound-toggle');
  const renderSound = (): void => {
    soundToggle.setAttribute('aria-pressed', String(settings.sound));
    soundToggle.setAttribute('aria-label', settings.sound ? 'Sound on' : 'Sound off');
    soundToggle.classList.toggle('off', !settings.sound);
  };
  renderSound();
  soundToggle.addEventListener('click', () => {
    settings.sound = !settings.sound;
    sound.enabled = settings.sound;
    saveSettings(settings);
    renderSound();
  });

  reviewButton.addEventListener('click', () => void runReview());

  document.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select') || event.ctrlKey || event.metaKey || event.altKey) return;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => goTo(viewPly - 1),
      ArrowRight: () => goTo(viewPly + 1),
      ArrowUp: () => goTo(0),
      Home: () => goTo(0),
      ArrowDown: () => goTo(game.plyCount),
      End: () => goTo(game.plyCount),
      f: flip,
      n: () => reviewPanel.step(1),
      p: () => reviewPanel.step(-1),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  });
  window.addEventListener('hashchange', openFromHash);
}

/** Resign asks first: the first click arms the button for kResignConfirmMs, the second resigns. */
const kResignConfirmMs = 4000;
function initResign(): void {
  const button = byTestId<HTMLButtonElement>('resign');
  const label = button.textContent ?? '';
  let timer: number | undefined;
  const disarm = (): void => {
    clearTimeout(timer);
    timer = undefined;
    button.textContent = label;
    button.classList.remove('confirm');
    delete button.dataset.confirm;
  };
  button.addEventListener('click', () => {
    if (timer === undefined) {
      button.textContent = 'Really resign?';
      button.classList.add('confirm');
      button.dataset.confirm = 'true';
      timer = window.setTimeout(disarm, kResignConfirmMs);
      return;
    }
    disarm();
    play.resign();
  });
}

/**
 * Runs a step that replaces the game on the board. When that game had moves, the toast offers
 * Undo (after `message`, which the step returns, or a plain note).
 */
function withUndo(action: () => string | void): void {
  const before = game.root.children.length > 0 ? sessionSnapshot() : null;
  const message = action();
  if (before) toastAction(message || 'The previous game is in the library.', 'Undo', () => restoreSession(before));
  else if (message) toast(message);
}

/** Import PGN: the box's first game on the board, every game of the text in the library. */
function importFromBox(): void {
  const text = pgnText.value;
  const parsed = parsePgnGames(text);
  const first = parsed[0];
  if (!first || !looksLikeGame(first, text)) {
    toast('Cannot import: no game found in the PGN');
    return;
  }
  let imported: ReturnType<typeof gameFromPgn>;
  try {
    imported = gameFromPgn(first);
  } catch (error) {
    toast(`Cannot import: ${(error as Error).message}`);
    return;
  }
  const others = parsed.slice(1).filter(isSupportedVariant);
  store.addImported(others);
  const count = [...imported.game.nodes()].length - 1;
  const main = imported.game.plyCount;
  const extra = count > main ? ` (${main} in the main line)` : '';
  const more = others.length ? `; ${others.length} more game${others.length === 1 ? '' : 's'} in the library` : '';
  const skipped = parsed.length - 1 - others.length;
  const variants = skipped ? `; ${skipped} game${skipped === 1 ? '' : 's'} of other variants left out` : '';
  withUndo(() => {
    openForAnalysis(imported.game, 'imported');
    return `Imported ${count} moves${extra}${more}${variants}${imported.warnings.length ? `; ${imported.warnings[0]}` : ''}.`;
  });
}

function uciOf(from: number, to: number, promotion?: string): string {
  const square = (s: number): string => String.fromCharCode(97 + (s % 8)) + String(Math.floor(s / 8) + 1);
  const letter = promotion ? { queen: 'q', rook: 'r', bishop: 'b', knight: 'n', king: 'k', pawn: '' }[promotion] : '';
  return square(from) + square(to) + (letter ?? '');
}

function flip(): void {
  board.flip();
  dashboard.setOrientation(board.orientation);
  render();
}

function currentPgn(): string {
  return exportPgn(game);
}

function currentBoardSvg(): string {
  return boardToSvg(game.position(viewPly), board.orientation, lastMoveUci(viewPly));
}

// ---- review --------------------------------------------------------------------------------
function reviewThresholds(): string {
  return `Win-chance drops: inaccuracy ≥ ${kInaccuracyDrop}, mistake ≥ ${kMistakeDrop}, blunder ≥ ${kBlunderDrop} points`;
}

async function runReview(): Promise<void> {
  if (reviewing) {
    reviewing.cancel();
    return;
  }
  const engine = engines.engine;
  if (!engine || engine.state === 'error') {
    toast('No engine to review with');
    return;
  }
  if (game.plyCount === 0) {
    toast('Play or import some moves first');
    return;
  }
  setMode('analysis');
  analysis.stop();
  const runner = new ReviewRunner();
  reviewing = runner;
  const reviewedGame = game;
  const reviewedLine = [...game.line];
  for (const node of reviewedLine) {
    node.mark = undefined;
    node.better = undefined;
  }
  game.review = null;
  reviewButton.textContent = 'Stop review';
  reviewPanel.running(0, 0);
  render();
  const result = await runner.run(game, engine, (done, total, partial) => {
    if (game !== reviewedGame) return;
    reviewPanel.running(done, total);
    partial.forEach((score, ply) => {
      const node = reviewedLine[ply];
      if (node) node.eval = score;
    });
    renderEvalGraph();
  });
  reviewing = null;
  reviewButton.textContent = 'Review the game';
  if (!result || game !== reviewedGame) {
    reviewPanel.stopped();
    render();
    startAnalysis();
    return;
  }
  reviewPanel.show(result, reviewThresholds());
  // Kept with the game: the session and its library entry save the summary with the marks.
  reviewedGame.review = result.summary;
  render();
  startAnalysis();
}

// ---- URL hash ------------------------------------------------------------------------------
function openFromHash(): boolean {
  const { fen, pgn } = readHash();
  try {
    if (pgn) {
      openForAnalysis(importPgn(pgn).game, 'imported');
      forgetHash();
      return true;
    }
    if (fen) {
      openForAnalysis(new GameModel(fen), 'analysis');
      forgetHash();
      return true;
    }
  } catch (error) {
    toast(`Cannot open the link: ${(error as Error).message}`);
  }
  return false;
}

/** A link is opened once: a reload then restores the game as it has become. */
function forgetHash(): void {
  history.replaceState(null, '', location.pathname + location.search);
}

// ---- the current game across reloads (localStorage) -------------------------------------------
function sessionSnapshot(): SavedSession {
  const record = store.recordOf(game);
  return {
    v: 1,
    ...gameSnapshot(game, game.node(viewPly)),
    // Puzzles are not a session of their own: a reload comes back to the game they interrupted.
    mode: mode === 'puzzle' ? 'analysis' : mode,
    orientation: board.orientation,
    play: playSnapshot(),
    libraryId: record?.id ?? null,
    source: record?.source ?? 'analysis',
    savedAt: Date.now(),
  };
}

/** The game against Axon on the board (over or not): colour, strength, time control, clocks. */
function playSnapshot(): SavedPlay | null {
  if (!play.started) return null;
  return {
    userColor: play.userColor,
    elo: play.elo ?? null,
    tc: gameTc,
    clock: clock.enabled ? { white: Math.max(0, clock.remaining('white')), black: Math.max(0, clock.remaining('black')) } : null,
  };
}

/** An unfinished game against Axon from the library, back on the board in Play with its clocks. */
function resumeGame(entry: LibraryEntry, saved: SavedPlay): string {
  const session: SavedSession = {
    v: 1,
    pgn: entry.pgn,
    mode: 'play',
    path: [],
    orientation: saved.userColor,
    play: saved,
    external: null,
    notes: entry.notes ?? [],
    review: entry.review ?? null,
    libraryId: entry.id,
    source: entry.source,
    savedAt: Date.now(),
  };
  return restoreSession(session) ? 'Your game against Axon goes on.' : 'Cannot resume this game: its moves cannot be read.';
}

/** Puts a saved session back (a reload, an undo); false when its game cannot be read. */
function restoreSession(saved: SavedSession): boolean {
  let restored: ReturnType<typeof restoreGame>;
  try {
    restored = restoreGame(saved);
  } catch {
    return false;
  }
  resetRecord(restored.game, saved.source);
  // The entry is brought up to date by the next save.
  store.adopt(game, { id: saved.libraryId, pgn: '', source: saved.source });
  board.setOrientation(saved.orientation);
  dashboard.setOrientation(saved.orientation);
  if (saved.play) {
    gameTc = saved.play.tc;
    clock.reset(timeControlById(gameTc));
    if (saved.play.clock) clock.setRemaining(saved.play.clock.white, saved.play.clock.black);
  } else clock.reset(timeControlById(saved.mode === 'analysis' ? 'unlimited' : settings.tc));
  setMode(saved.mode, false);
  game.select(restored.viewed);
  viewPly = restored.viewed.ply;
  if (saved.mode === 'play') {
    game.selectMainline();
    viewPly = game.plyCount;
  }
  if (saved.play) play.restore({ userColor: saved.play.userColor, elo: saved.play.elo ?? undefined }, saved.mode === 'analysis');
  render();
  startAnalysis();
  return true;
}

// ---- test hook -----------------------------------------------------------------------------
declare global {
  interface Window {
    axonTest: {
      fen(): string;
      /** The viewed line's moves. */
      movesUci(): string[];
      mainlineUci(): string[];
      viewPly(): number;
      pgn(): string;
      engineMoves(): { uci: string; fenBefore: string; ms: number }[];
    };
  }
}
window.axonTest = {
  fen: () => game.fen(),
  movesUci: () => game.movesUci(),
  mainlineUci: () => game.mainline().slice(1).map((node) => node.move!.uci),
  viewPly: () => viewPly,
  pgn: () => exportPgn(game),
  engineMoves: () => play.engineMoves.map((m) => ({ ...m })),
};

// ---- start ---------------------------------------------------------------------------------
initControls();
clock.reset(timeControlById(settings.tc));
engines.render();
engineOptions.render();
render();
analysis.reset();
// The board is playable at once; the engine joins (and takes its turn) once it is found. A link
// opens what it names; otherwise the game of the last visit comes back.
const savedSession = loadSession();
if (!openFromHash() && !(savedSession && restoreSession(savedSession))) newGame();
void engines.init();
void store.init();

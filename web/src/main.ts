// SPDX-License-Identifier: GPL-3.0-or-later
// The page's wiring: state (game, viewed move, mode, engine), controls, keyboard, URL hash, and the
// render that keeps board, move list, clocks, banner and graphs in step.

import type { Color } from 'chessops/types';
import { AnalysisController } from './analysis';
import { BoardView } from './board-view';
import { ChessClock, timeControlById } from './clock';
import { Dashboard } from './dashboard';
import { byTestId, downloadBlob, toast } from './dom';
import type { Engine, EngineKind } from './engine/engine';
import { kEloMax, kEloMin } from './engine/engine';
import { forcedEngine, tryServerEngine } from './engine/detect';
import { WasmEngine } from './engine/wasm-engine';
import { GameModel, INITIAL_FEN, type GameOutcome } from './game';
import { EvalGraph } from './graphs';
import { HeatmapOverlay } from './heatmap';
import { MoveList, type MarkKind } from './move-list';
import { PlayController } from './play';
import { ReviewRunner, kBlunderDrop, kInaccuracyDrop, kMistakeDrop } from './review';
import type { WhiteScore } from './score';
import { applyTheme, loadSettings, saveSettings } from './settings';
import { boardToSvg, copyText, gameToPgn, linkToFen, parsePgnGame, readHash, svgToPng } from './share';
import { SoundPlayer } from './sound';

type Mode = 'play' | 'analysis';

const settings = loadSettings();
applyTheme(settings.theme);

// ---- state ---------------------------------------------------------------------------------
let game = new GameModel();
let viewPly = 0;
let mode: Mode = 'play';
let engine: Engine | null = null;
const engines: Partial<Record<EngineKind, Engine>> = {};
const watchedEngines = new Set<Engine>();
let evals: (WhiteScore | undefined)[] = [];
let marks = new Map<number, MarkKind>();
let reviewing: ReviewRunner | null = null;

// ---- elements ------------------------------------------------------------------------------
const layout = document.querySelector<HTMLElement>('.layout')!;
const banner = byTestId('status-banner');
const gamePanel = document.querySelector<HTMLElement>('.game-panel')!;
const engineStatus = byTestId('engine-status');
const engineSelect = byTestId<HTMLSelectElement>('engine-select');
const colorSelect = byTestId<HTMLSelectElement>('color-select');
const tcSelect = byTestId<HTMLSelectElement>('tc-select');
const eloSlider = byTestId<HTMLInputElement>('elo-slider');
const fullStrength = byTestId<HTMLInputElement>('full-strength');
const eloOutput = document.querySelector<HTMLOutputElement>('.elo-value')!;
const multipvSelect = byTestId<HTMLSelectElement>('multipv-select');
const fenInput = byTestId<HTMLInputElement>('fen-input');
const pgnText = byTestId<HTMLTextAreaElement>('pgn-text');
const moveInput = byTestId<HTMLInputElement>('move-input');
const reviewButton = byTestId<HTMLButtonElement>('review-button');
const reviewSummary = byTestId('review-summary');

// ---- components ----------------------------------------------------------------------------
const sound = new SoundPlayer();
sound.enabled = settings.sound;
const board = new BoardView(byTestId('board'), (uci) => onUserMove(uci));
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

const play = new PlayController({
  game: () => game,
  engine: () => engine,
  clock,
  refresh: () => {
    viewPly = game.plyCount;
    render();
  },
  moved: (move) => {
    sound.play(move.check ? 'check' : move.capture ? 'capture' : 'move');
    announceMove(game.plyCount);
  },
  ended: () => sound.play('end'),
  engineInfo: (info) => dashboard.update(info),
  engineSearching: (ply) => {
    dashboard.setRoot(game.position(ply));
    dashboard.clear();
  },
  playPremove: () => board.playPremove(),
});

const analysis = new AnalysisController(
  {
    engine: () => engine,
    setArrows: (shapes) => board.setArrows(shapes),
    onInfo: (info, ply, score) => {
      dashboard.update(info);
      evals[ply] = score;
      renderEvalGraph();
    },
    playMove: (uci) => onUserMove(uci),
  },
  byTestId('eval-bar'),
  byTestId('pv-lines'),
  byTestId('analysis-depth'),
);

// The analysis heat map: follows the board, the mode and the engine through their DOM attributes.
new HeatmapOverlay({
  board: byTestId('board'),
  layout,
  toggleHost: document.querySelector<HTMLElement>('.analysis-panel .card-head') ?? layout,
  engine: () => engine,
  engineStatus,
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
  if (mode === 'play' && play.started) {
    if (color === play.userColor) return 'You';
    return settings.elo === 'max' ? 'Axon · full strength' : `Axon · ${settings.elo}`;
  }
  return color === 'white' ? 'White' : 'Black';
}

function pageTitle(outcome: GameOutcome | null): string {
  if (mode === 'analysis') return 'Analysis · Axon';
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
  else if (play.active && atEnd) {
    movable = play.userColor;
    premove = true;
  }
  board.show({ position, lastMoveUci: viewPly > 0 ? game.moves[viewPly - 1]!.uci : '', movable, premove });

  const startTurn = game.turn(0);
  const firstNumber = Number(game.startFen.split(' ')[5] ?? '1') || 1;
  moveList.render(game.moves, viewPly, firstNumber, startTurn === 'black', marks, outcome?.result ?? null);

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
  renderEngineStatus();
}

function renderEvalGraph(): void {
  const scores = Array.from({ length: game.plyCount + 1 }, (_, ply) => evals[ply]);
  evalGraph.render(scores, viewPly, marks);
  const known = scores.some(Boolean);
  byTestId('eval-graph').classList.toggle('empty', !known);
  document.querySelector<HTMLElement>('.graph-hint')!.hidden = known;
}

function renderEngineStatus(): void {
  const e = engine;
  engineStatus.dataset.engine = e?.kind ?? '';
  engineStatus.dataset.build = e?.build ?? '';
  engineStatus.dataset.state = e?.state ?? 'loading';
  for (const color of ['white', 'black'] as const)
    document
      .querySelector(`.player-${color}`)!
      .classList.toggle('thinking', mode === 'play' && play.active && color === play.engineColor && e?.state === 'thinking');
  const text = engineStatus.querySelector('.engine-status-text')!;
  if (!e) text.textContent = 'Looking for an engine…';
  else if (e.state === 'error') text.textContent = `Engine error: ${e.errorMessage}`;
  else {
    const threads = e instanceof WasmEngine && e.threads > 1 ? `, ${e.threads} threads` : '';
    const where = e.kind === 'server' ? 'server' : `in browser${threads}`;
    const doing = e.state === 'thinking' ? 'thinking' : e.state === 'loading' ? 'loading' : 'ready';
    text.textContent = `${e.name.replace(/ \((server|WASM)\)$/, '')} · ${where} · ${doing}`;
  }
  engineStatus.title = e ? `${e.name}, build ${e.build}` : '';
}

// ---- navigation ----------------------------------------------------------------------------
function goTo(ply: number): void {
  const next = Math.max(0, Math.min(ply, game.plyCount));
  if (next === viewPly) return;
  viewPly = next;
  render();
  if (mode === 'analysis') startAnalysis();
}

function startAnalysis(): void {
  if (mode !== 'analysis' || reviewing) return;
  const position = game.position(viewPly);
  dashboard.setRoot(position);
  dashboard.clear();
  analysis.start({
    startFen: game.startFen,
    moves: game.movesUci().slice(0, viewPly),
    ply: viewPly,
    position,
    multipv: settings.multipv,
  });
}

// ---- moves ---------------------------------------------------------------------------------
function onUserMove(uci: string): void {
  if (mode === 'play') {
    if (!play.userMove(uci)) render();
    return;
  }
  if (reviewing) return;
  if (!game.parseMove(uci, viewPly)) {
    render();
    return;
  }
  // In analysis a move from an earlier position replaces the moves after it; a paused game
  // against the engine is over once its record changes.
  if (play.started) play.abandon();
  game.truncate(viewPly);
  evals.length = Math.min(evals.length, viewPly + 1);
  for (const ply of [...marks.keys()]) if (ply > viewPly) marks.delete(ply);
  const played = game.play(uci, true);
  if (!played) {
    render();
    return;
  }
  sound.play(played.check ? 'check' : played.capture ? 'capture' : 'move');
  announceMove(game.plyCount);
  viewPly = game.plyCount;
  render();
  startAnalysis();
}

// ---- game set-up ---------------------------------------------------------------------------
function currentElo(): number | undefined {
  return settings.elo === 'max' ? undefined : settings.elo;
}

function resetRecord(startFen: string): void {
  reviewing?.cancel();
  analysis.stop();
  play.abandon();
  game = new GameModel(startFen);
  viewPly = 0;
  evals = [];
  marks = new Map();
  reviewSummary.replaceChildren();
  dashboard.resetHashGraph();
}

function newGame(startFen: string = INITIAL_FEN): void {
  resetRecord(startFen);
  setMode('play', false);
  const userColor: Color =
    settings.color === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : settings.color;
  board.setOrientation(userColor);
  dashboard.setOrientation(userColor);
  clock.reset(timeControlById(settings.tc));
  play.start({ userColor, elo: currentElo() });
}

/** Opens a position or game for analysis (FEN set-up, PGN import, links). */
function openForAnalysis(startFen: string, sanMoves: string[] = []): void {
  resetRecord(startFen);
  for (const san of sanMoves) if (!game.play(san, true)) throw new Error(`illegal move in the game: ${san}`);
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
  mode = next;
  layout.dataset.mode = mode;
  byTestId('mode-play').setAttribute('aria-selected', String(mode === 'play'));
  byTestId('mode-analysis').setAttribute('aria-selected', String(mode === 'analysis'));
  // Engine lines sit above the moves while analysing (as on analysis boards), under the board in play.
  const analysisPanel = document.querySelector<HTMLElement>('.analysis-panel')!;
  if (mode === 'analysis') document.querySelector('.side')!.prepend(analysisPanel);
  else document.querySelector('.tools')!.prepend(analysisPanel);
  if (!changed) return;
  if (mode === 'analysis') {
    play.pause();
    render();
    startAnalysis();
  } else {
    reviewing?.cancel();
    analysis.reset();
    viewPly = game.plyCount;
    render();
    if (resume) play.resume();
  }
}

// ---- engines -------------------------------------------------------------------------------
function useEngine(kind: EngineKind): void {
  if (kind === 'wasm' && !engines.wasm) engines.wasm = new WasmEngine();
  const next = engines[kind];
  if (!next) {
    toast(`The ${kind} engine is not available here`);
    return;
  }
  const wasPlaying = mode === 'play' && play.active;
  if (wasPlaying) play.pause();
  analysis.stop();
  engine = next;
  if (!watchedEngines.has(next)) {
    watchedEngines.add(next);
    next.onStateChange(() => {
      if (next === engine) renderEngineStatus();
    });
  }
  engineSelect.value = kind;
  renderEngineStatus();
  next.ready().catch(() => toast(`The ${kind === 'wasm' ? 'in-browser' : 'server'} engine could not start`));
  if (wasPlaying) play.resume();
  else if (mode === 'analysis') startAnalysis();
}

async function initEngines(): Promise<void> {
  const forced = forcedEngine();
  const server = forced === 'wasm' ? null : await tryServerEngine();
  if (server) engines.server = server;
  engineSelect.hidden = !server;
  const choice: EngineKind = forced ?? (server ? (settings.engine ?? 'server') : 'wasm');
  if (choice === 'server' && !server) {
    engineStatus.dataset.engine = 'server';
    engineStatus.dataset.build = 'native';
    engineStatus.dataset.state = 'error';
    engineStatus.querySelector('.engine-status-text')!.textContent = 'Engine error: no server engine (/ws) here';
    return;
  }
  useEngine(choice);
}

// ---- controls ------------------------------------------------------------------------------
function initControls(): void {
  colorSelect.value = settings.color;
  tcSelect.value = settings.tc;
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
  tcSelect.addEventListener('change', () => {
    settings.tc = tcSelect.value;
    saveSettings(settings);
    if (!play.started) clock.reset(timeControlById(settings.tc));
  });
  multipvSelect.addEventListener('change', () => {
    settings.multipv = Number(multipvSelect.value);
    saveSettings(settings);
    startAnalysis();
  });
  engineSelect.addEventListener('change', () => {
    settings.engine = engineSelect.value as EngineKind;
    saveSettings(settings);
    useEngine(settings.engine);
  });

  byTestId('new-game').addEventListener('click', () => newGame());
  byTestId('rematch').addEventListener('click', () => newGame());
  byTestId('review-game').addEventListener('click', () => void runReview());
  byTestId('mode-play').addEventListener('click', () => setMode('play'));
  byTestId('mode-analysis').addEventListener('click', () => setMode('analysis'));
  byTestId('flip').addEventListener('click', flip);
  byTestId('takeback').addEventListener('click', () => {
    play.takeback();
    // A takeback to the user's turn starts no search: the dashboard must not keep the lines of a
    // position no longer on the board (a search that did start is about this same position).
    dashboard.setRoot(game.position(game.plyCount));
    dashboard.clear();
  });
  byTestId('resign').addEventListener('click', () => play.resign());
  byTestId('offer-draw').addEventListener('click', () => play.offerDraw());
  byTestId('nav-first').addEventListener('click', () => goTo(0));
  byTestId('nav-prev').addEventListener('click', () => goTo(viewPly - 1));
  byTestId('nav-next').addEventListener('click', () => goTo(viewPly + 1));
  byTestId('nav-last').addEventListener('click', () => goTo(game.plyCount));
  moveList.onSelect((ply) => goTo(ply));
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
    if (mode === 'play') newGame(fen);
    else openForAnalysis(fen);
  });

  byTestId('pgn-export').addEventListener('click', () => {
    pgnText.value = currentPgn();
    pgnText.select();
  });
  byTestId('pgn-download').addEventListener('click', () =>
    downloadBlob(new Blob([currentPgn()], { type: 'application/x-chess-pgn' }), 'axon-game.pgn'),
  );
  byTestId('pgn-import').addEventListener('click', () => {
    try {
      const imported = parsePgnGame(pgnText.value);
      openForAnalysis(imported.startFen, imported.sanMoves);
      toast(`Imported ${imported.sanMoves.length} moves`);
    } catch (error) {
      toast(`Cannot import: ${(error as Error).message}`);
    }
  });
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
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  });
  window.addEventListener('hashchange', openFromHash);
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
  const names = (color: Color): string =>
    play.started ? (color === play.userColor ? 'You' : playerName(color)) : color === 'white' ? 'White' : 'Black';
  // PGN writes time controls in seconds: "3+2" is "180+2".
  const [minutes, increment] = settings.tc.split('+');
  const tc = play.started && clock.enabled ? `${Number(minutes) * 60}+${increment}` : undefined;
  return gameToPgn(game, game.outcome(), { white: names('white'), black: names('black'), timeControl: tc });
}

function currentBoardSvg(): string {
  return boardToSvg(game.position(viewPly), board.orientation, viewPly > 0 ? game.moves[viewPly - 1]!.uci : '');
}

// ---- review --------------------------------------------------------------------------------
async function runReview(): Promise<void> {
  if (reviewing) {
    reviewing.cancel();
    return;
  }
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
  reviewButton.textContent = 'Stop review';
  reviewSummary.textContent = 'Reviewing…';
  reviewSummary.dataset.state = 'running';
  render();
  const result = await runner.run(game, engine, (done, total, partial) => {
    if (game !== reviewedGame) return;
    reviewSummary.textContent = `Reviewing… ${done}/${total}`;
    partial.forEach((score, ply) => (evals[ply] = score));
    renderEvalGraph();
  });
  reviewing = null;
  reviewButton.textContent = 'Review the game';
  if (!result || game !== reviewedGame) {
    reviewSummary.textContent = 'Review stopped';
    reviewSummary.dataset.state = 'stopped';
    render();
    startAnalysis();
    return;
  }
  evals = result.scores;
  marks = result.marks;
  reviewSummary.dataset.state = 'done';
  reviewSummary.replaceChildren();
  for (const color of ['white', 'black'] as const) {
    const s = result.summary[color];
    const row = document.createElement('div');
    row.className = `review-side ${color}`;
    row.dataset.color = color;
    row.innerHTML = `<strong>${color === 'white' ? 'White' : 'Black'}</strong> <span class="accuracy">${s.accuracy.toFixed(0)}% accuracy</span>
      <span class="count inaccuracy" data-kind="inaccuracy">${s.inaccuracy} inaccurac${s.inaccuracy === 1 ? 'y' : 'ies'}</span>
      <span class="count mistake" data-kind="mistake">${s.mistake} mistake${s.mistake === 1 ? '' : 's'}</span>
      <span class="count blunder" data-kind="blunder">${s.blunder} blunder${s.blunder === 1 ? '' : 's'}</span>`;
    reviewSummary.appendChild(row);
  }
  reviewSummary.title = `Win-chance drops: inaccuracy ≥ ${kInaccuracyDrop}, mistake ≥ ${kMistakeDrop}, blunder ≥ ${kBlunderDrop} points`;
  render();
  startAnalysis();
}

// ---- URL hash ------------------------------------------------------------------------------
function openFromHash(): boolean {
  const { fen, pgn } = readHash();
  try {
    if (pgn) {
      const imported = parsePgnGame(pgn);
      openForAnalysis(imported.startFen, imported.sanMoves);
      return true;
    }
    if (fen) {
      openForAnalysis(fen);
      return true;
    }
  } catch (error) {
    toast(`Cannot open the link: ${(error as Error).message}`);
  }
  return false;
}

// ---- test hook -----------------------------------------------------------------------------
declare global {
  interface Window {
    axonTest: {
      fen(): string;
      movesUci(): string[];
      engineMoves(): { uci: string; fenBefore: string; ms: number }[];
    };
  }
}
window.axonTest = {
  fen: () => game.fen(),
  movesUci: () => game.movesUci(),
  engineMoves: () => play.engineMoves.map((m) => ({ ...m })),
};

// ---- start ---------------------------------------------------------------------------------
initControls();
clock.reset(timeControlById(settings.tc));
renderEngineStatus();
render();
analysis.reset();
// The board is playable at once; the engine joins (and takes its turn) once it is found.
if (!openFromHash()) newGame();
void initEngines();

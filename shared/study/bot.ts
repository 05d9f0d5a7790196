// A seeded bot participant: plays a whole study session as the client events (and server calls) a real participant makes.
/*
 * The bot walks the study's steps (expandSteps) like the client: step_start / step_end around every step,
 * consent, the tutorial and warmup boards, the pre-survey, each study puzzle and its rating, the
 * post-survey (with rating revisions and free-text answers) and the completion call. Everything is a
 * function of an Rng and a start time, so one seed always gives the same session; nothing reads a clock.
 *
 * How it plays a board: it ranks the rows and columns by how constrained their clue is (clue span / line
 * length, with noise), then works line by line, filling the line's remaining runs; a run of three or more is
 * often one drag stroke (its cells reached about 12 ms apart and logged with their times, as the client logs a
 * drag), shorter runs are clicked cell by cell. Some bots also cross out the empty cells of a
 * finished line. The gaps between cells come from four processes: the cells of a drag (~12 ms, the
 * paper's first component), rapid clicks inside a run (median ~0.2 s), deliberate moves between runs
 * (~1 s) and thinking pauses (~7 s), whose frequency grows with the puzzle's planted difficulty and falls
 * with skill. Mistakes: with a skill-dependent probability a bot fills a wrong cell (a solution-empty cell
 * next to its run); it notices at once (undo), later (clicks it off), or only when a submission fails. Hints
 * are asked with a skill-dependent probability (the bot computes the same hint the server will, with the
 * engine's hint function) and applied as the client does (hint_shown, then a reveal move). Skips happen
 * part-way through, after the phase's minimum time, more often for weak bots on hard puzzles.
 *
 * The planted effect: the rating of a puzzle is round(3 + b_metric·m + b_skill·s + b_interaction·m·s + ε),
 * clamped to 1..5, where m is the puzzle's standardised metric and s the bot's skill (a standard normal);
 * N/A when skipped. The six expertise answers are noisy readings of s, so the composite recovers it.
 * What it is not: a model of human reasoning. Bots never search or reason; they know the answer.
 */
import type { ClientEvent } from '../schema/event.ts';
import { stampClient } from '../schema/stamp.ts';
import type { Move } from '../schema/move.ts';
import type { Phase, StudyConfig, SurveyItem } from '../schema/config.ts';
import type { Puzzle } from '../schema/puzzle.ts';
import type { CheckRequest, HintRequest } from '../schema/api.ts';
import type { Rng } from '../random.ts';
import { expandSteps, type Step } from './steps.ts';
import { applyMove, boardRows, countWrongCells, initialBoard, matchesSolution, type BoardState } from '../game/board.ts';
import { FILLED, UNKNOWN, gridFromRows } from '../nonogram/grid.ts';
import { hint as engineHint } from '../nonogram/hint.ts';
import { strokeCellMs } from '../game/input.ts';

/** Median milliseconds between two cells of a bot's drag (the paper's first gap component: about 0.01 s). */
export const DRAG_CELL_MS = 12;

/** The planted effect on ratings (see the essay above). */
export interface PlantedEffect {
  /** Standardised metric value per study puzzle id (mean 0, SD 1 over the pool). */
  metric: Record<string, number>;
  b_metric: number;
  b_skill: number;
  b_interaction: number;
  /** SD of the rating noise. */
  noise: number;
}

export const DEFAULT_EFFECT: Omit<PlantedEffect, 'metric'> = { b_metric: 0.6, b_skill: -0.5, b_interaction: -0.25, noise: 0.6 };

export interface BotOptions {
  config: StudyConfig;
  session_id: string;
  /** The participant's ordered puzzle ids (from the server's session_start). */
  sequence: readonly string[];
  /** Latent skill, a standard normal (0 average, +2 an expert). */
  skill: number;
  rng: Rng;
  /** Client wall clock at page load, ms since the epoch. */
  start_ms: number;
  effect: PlantedEffect;
}

/** Server side of a bot's step: what the simulator sends, and (for the NDJSON writer) what the server answers. */
export type BotCall =
  | { type: 'check'; after_seq: number; t_wall: number; request: CheckRequest; solved: boolean; wrong_cells: number }
  | {
      type: 'hint';
      after_seq: number;
      t_wall: number;
      request: HintRequest;
      hint: { row: number; col: number; kind: 'error' | 'cell'; value: 'filled' | 'empty'; reasoning: string; explanation: string } | null;
    }
  | { type: 'complete'; after_seq: number; t_wall: number; last_seq: number };

export interface BotSession {
  session_id: string;
  skill: number;
  events: ClientEvent[];
  calls: BotCall[];
  /** The themes the bot's free-text answers express, per puzzle (a simulated coder's output). */
  codes: { puzzle_id: string; codes: string[] }[];
}

// ---------------------------------------------------------------------------------------------------------------
// Random helpers

function normal(rng: Rng): number {
  let u = rng.next();
  while (u <= 1e-12) u = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}
const logNormal = (rng: Rng, median: number, sigma: number) => median * Math.exp(sigma * normal(rng));
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const pick = <T>(rng: Rng, items: readonly T[]): T => items[rng.int(items.length)];

// ---------------------------------------------------------------------------------------------------------------
// The session writer: stamps events like the client's logEvent.

class Writer {
  readonly events: ClientEvent[] = [];
  readonly calls: BotCall[] = [];
  seq = 0;
  /** ms since page load (what the client's monotonic clock reads). */
  mono: number;
  step: Step | null = null;
  constructor(
    readonly sessionId: string,
    readonly startMs: number,
    initialMono: number,
  ) {
    this.mono = initialMono;
  }
  wait(ms: number): void {
    this.mono += Math.max(0, ms);
  }
  get wall(): number {
    return Math.round(this.startMs + this.mono);
  }
  log<T extends ClientEvent['type']>(type: T, payload: Extract<ClientEvent, { type: T }>['payload'], source: ClientEvent['source'] = 'system'): void {
    const step = this.step!;
    this.seq += 1;
    // The client's one stamping function (shared/schema/stamp.ts), as the participant's page calls it.
    this.events.push(
      stampClient(
        { session_id: this.sessionId, seq: this.seq, step: step.index, phase: step.phase_id, puzzle_id: step.puzzle_id, position: step.position, t_mono: Math.round(this.mono * 10) / 10, t_wall: this.wall, source },
        type,
        payload,
      ),
    );
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Playing one board

interface Tempo {
  /** Multiplies every gap (lower = faster). */
  speed: number;
  /** Probability of a thinking pause before a group of actions. */
  pause: number;
  /** Probability of a wrong fill per group. */
  error: number;
  /** Probability of asking for a hint per group (study puzzles only). */
  hint: number;
  /** Probability of a drag stroke for a run of 3+. */
  drag: number;
  /** Crosses out the empty cells of finished lines. */
  crosses: boolean;
}

interface BoardPlay {
  outcome: 'solved' | 'skipped' | 'timeout' | 'done';
  hints: number;
  mistakes: number;
}

interface Line {
  axis: 'row' | 'col';
  index: number;
  score: number;
}

function linesByConstraint(puzzle: Puzzle, rng: Rng, noise: number): Line[] {
  const lines: Line[] = [];
  const span = (clue: number[]) => (clue.length ? clue.reduce((a, b) => a + b, 0) + clue.length - 1 : 0);
  puzzle.rows.forEach((clue, i) => lines.push({ axis: 'row', index: i, score: span(clue) / puzzle.width + noise * normal(rng) }));
  puzzle.cols.forEach((clue, i) => lines.push({ axis: 'col', index: i, score: span(clue) / puzzle.height + noise * normal(rng) }));
  return lines.sort((a, b) => b.score - a.score);
}

function cellsOf(line: Line, puzzle: Puzzle): [number, number][] {
  const n = line.axis === 'row' ? puzzle.width : puzzle.height;
  return Array.from({ length: n }, (_, k) => (line.axis === 'row' ? [line.index, k] : [k, line.index]) as [number, number]);
}

function playBoard(
  w: Writer,
  rng: Rng,
  puzzle: Puzzle,
  tempo: Tempo,
  limits: { capMs: number | null; skipAfterMs: number | null; skipMinMs: number; canSkip: boolean; submit: boolean; hints: boolean; policy: StudyConfig['hints']['policy'] },
): BoardPlay {
  const solution = puzzle.solution!;
  const width = puzzle.width;
  const solGrid = gridFromRows([...solution]);
  const isFilled = (r: number, c: number) => solution[r][c] === '#';
  let board: BoardState = initialBoard(puzzle.width, puzzle.height);
  const startMono = w.mono;
  let hints = 0;
  let mistakes = 0;
  const pending: [number, number][] = []; // wrong fills the bot has not noticed yet
  const act = (move: Move, gapMs: number, source: ClientEvent['source'] = 'mouse') => {
    w.wait(gapMs);
    w.log('move', { move }, source);
    board = applyMove(board, move);
  };
  // A drag: the pointer reaches the first cell after gapMs, then each next cell after a few milliseconds (drag speed),
  // and the stroke is logged at the pointer-up with each cell's time (cell_ms), as the client does.
  const drag = (state: 'filled' | 'crossed', cells: [number, number][], gapMs: number) => {
    w.wait(gapMs);
    const times = [w.mono];
    for (let k = 1; k < cells.length; k++) {
      w.wait(logNormal(rng, DRAG_CELL_MS * tempo.speed, 0.35));
      times.push(w.mono);
    }
    w.wait(logNormal(rng, 35, 0.4)); // until the pointer-up
    const move: Move = { type: 'stroke', state, cells, cell_ms: strokeCellMs({ cells: times, end: Math.round(w.mono * 10) / 10 }) };
    w.log('move', { move }, 'mouse');
    board = applyMove(board, move);
  };
  const cell = (r: number, c: number) => board.grid.cells[r * width + c];
  const fast = () => logNormal(rng, 190 * tempo.speed, 0.35);
  const deliberate = () => logNormal(rng, 1_000 * tempo.speed, 0.45);
  const thinking = () => logNormal(rng, 7_000 * tempo.speed, 0.55);
  const elapsed = () => w.mono - startMono;
  const timeUp = () => limits.capMs !== null && elapsed() >= limits.capMs;

  const submit = (): boolean => {
    act({ type: 'submit' }, deliberate());
    const rows = boardRows(board.grid);
    const solved = matchesSolution(rows, solution);
    w.calls.push({
      type: 'check',
      after_seq: w.seq,
      t_wall: w.wall,
      request: { puzzle_id: puzzle.id, position: w.step!.position, rows },
      solved,
      wrong_cells: countWrongCells(rows, solution),
    });
    w.wait(120 + rng.int(120));
    w.log('submit_result', { solved });
    return solved;
  };

  const askHint = () => {
    act({ type: 'hint' }, deliberate());
    hints++;
    const rows = boardRows(board.grid);
    const found = engineHint({ rows: puzzle.rows, cols: puzzle.cols }, board.grid, solGrid, limits.policy);
    w.calls.push({
      type: 'hint',
      after_seq: w.seq,
      t_wall: w.wall,
      request: { puzzle_id: puzzle.id, position: w.step!.position, rows },
      hint: found && { row: found.row, col: found.col, kind: found.kind, value: found.value, reasoning: found.reasoning, explanation: found.explanation },
    });
    if (!found) return;
    w.wait(150 + rng.int(100));
    w.log('hint_shown', { row: found.row, col: found.col, explanation: found.explanation.slice(0, 2_000) });
    act({ type: 'reveal', row: found.row, col: found.col, state: found.value === 'filled' ? 'filled' : 'crossed' }, logNormal(rng, 2_500 * tempo.speed, 0.4), 'system');
    const i = pending.findIndex(([r, c]) => r === found.row && c === found.col);
    if (i >= 0) pending.splice(i, 1);
  };

  // Fix every wrong fill on the board (after a failed submission): click each off.
  const fixAll = () => {
    for (let r = 0; r < puzzle.height; r++)
      for (let c = 0; c < width; c++)
        if (cell(r, c) === FILLED && !isFilled(r, c)) act({ type: 'fill', row: r, col: c }, pending.length ? thinking() * 0.5 : deliberate());
    pending.length = 0;
  };

  w.wait(logNormal(rng, 3_500 * tempo.speed, 0.5)); // reading the clues before the first action
  const lines = linesByConstraint(puzzle, rng, 0.15);
  let firstLine = true;
  let resetDone = false;
  for (let guard = 0; guard < 50; guard++) {
    for (const line of lines) {
      const cells = cellsOf(line, puzzle);
      // Runs of solution-filled cells of this line that are not yet filled on the board.
      const runs: [number, number][][] = [];
      let cur: [number, number][] = [];
      for (const [r, c] of cells) {
        if (isFilled(r, c) && cell(r, c) !== FILLED) cur.push([r, c]);
        else if (cur.length) {
          runs.push(cur);
          cur = [];
        }
      }
      if (cur.length) runs.push(cur);
      if (runs.length === 0) continue;
      for (const run of runs) {
        if (timeUp()) return { outcome: 'timeout', hints, mistakes };
        if (limits.canSkip && limits.skipAfterMs !== null && elapsed() >= Math.max(limits.skipMinMs, limits.skipAfterMs)) {
          act({ type: 'skip' }, deliberate());
          return { outcome: 'skipped', hints, mistakes };
        }
        const before = firstLine ? 0 : rng.next() < tempo.pause ? thinking() : deliberate();
        firstLine = false;
        if (limits.hints && rng.next() < tempo.hint) askHint();
        if (cell(run[0][0], run[0][1]) === FILLED && run.length === 1) continue; // a hint filled it
        const todo = run.filter(([r, c]) => cell(r, c) !== FILLED);
        if (todo.length === 0) continue;
        if (todo.length >= 3 && rng.next() < tempo.drag && todo.length === run.length) drag('filled', todo, before);
        else todo.forEach(([r, c], k) => act({ type: 'fill', row: r, col: c }, k === 0 ? before : fast()));
        // A mistake: a wrong fill next to the run.
        if (rng.next() < tempo.error) {
          const [lr, lc] = todo[todo.length - 1];
          const options = ([[lr, lc + 1], [lr + 1, lc], [lr, lc - 1], [lr - 1, lc]] as [number, number][]).filter(
            ([r, c]) => r >= 0 && c >= 0 && r < puzzle.height && c < width && !isFilled(r, c) && cell(r, c) === UNKNOWN,
          );
          if (options.length) {
            const [r, c] = pick(rng, options);
            act({ type: 'fill', row: r, col: c }, fast());
            mistakes++;
            const u = rng.next();
            if (u < 0.45) act({ type: 'undo' }, logNormal(rng, 600 * tempo.speed, 0.4));
            else if (u < 0.75) act({ type: 'fill', row: r, col: c }, deliberate());
            else pending.push([r, c]);
          }
        }
        // Now and then a bot clears the grid early on, thinks, and takes it back.
        if (!resetDone && rng.next() < 0.003) {
          resetDone = true;
          act({ type: 'reset' }, deliberate());
          act({ type: 'undo' }, logNormal(rng, 1_500 * tempo.speed, 0.4));
        }
      }
      if (tempo.crosses) {
        const empties = cells.filter(([r, c]) => !isFilled(r, c) && cell(r, c) === UNKNOWN);
        if (empties.length >= 2 && rng.next() < 0.5) {
          // cross the first contiguous stretch of empties with one stroke
          const stretch: [number, number][] = [empties[0]];
          for (let k = 1; k < empties.length; k++) {
            const [pr, pc] = stretch[stretch.length - 1];
            const [r, c] = empties[k];
            if (Math.abs(r - pr) + Math.abs(c - pc) === 1) stretch.push([r, c]);
            else break;
          }
          if (stretch.length >= 2) drag('crossed', stretch, fast() * 1.5);
          else act({ type: 'cross', row: stretch[0][0], col: stretch[0][1] }, fast());
        }
      }
    }
    if (!limits.submit) return { outcome: 'done', hints, mistakes };
    if (timeUp()) return { outcome: 'timeout', hints, mistakes };
    if (submit()) return { outcome: 'solved', hints, mistakes };
    fixAll();
    if (submit()) return { outcome: 'solved', hints, mistakes };
  }
  return { outcome: 'timeout', hints, mistakes };
}

// ---------------------------------------------------------------------------------------------------------------
// Surveys

const FREQ_FALLBACK = ['Never', 'Rarely', 'Sometimes', 'Often', 'Very often'];

function answerItem(item: SurveyItem, skill: number, rng: Rng): number | string | string[] | null {
  const s = 0.8 * skill + 0.6 * normal(rng); // a noisy reading of the skill
  switch (item.type) {
    case 'scale':
      return clamp(Math.round((item.min + item.max) / 2 + s * (item.max - item.min) / 4.5), item.min, item.max);
    case 'number':
      return item.min ?? 0;
    case 'likert':
    case 'single': {
      const opts = item.options.length ? item.options : FREQ_FALLBACK;
      return opts[clamp(Math.round((opts.length - 1) / 2 + s * (opts.length - 1) / 3.5), 0, opts.length - 1)];
    }
    case 'multi': {
      const k = clamp(Math.round(item.options.length * (0.4 + 0.18 * s)), 0, item.options.length);
      return item.options.slice(0, k);
    }
    case 'text':
      return item.required ? 'Nothing in particular.' : null;
  }
}

const WHY: Record<string, string[]> = {
  FOOT: ['Some lines were fully given by their clue, so I had a foothold.', 'There were full rows to start from.'],
  CLUE: ['Big numbers made it quick.', 'Lots of small numbers made it harder.'],
  PROP: ['Once I had a few cells everything followed.', 'I could chain one line into the next.'],
  AMBIG: ['Several lines had many possible placements.', 'It was ambiguous where the blocks went.'],
  GUESS: ['I had to guess at some point.', 'I ended up trying things.'],
  ERR: ['I made a mistake and had to fix it.', 'I filled a wrong cell early.'],
  LOAD: ['I had to keep too much in my head.', 'It needed a lot of concentration.'],
  HINT: ['The hint got me unstuck.'],
  TIME: ['It took me a long time.'],
};

function whyAnswer(difficulty: number | null, hints: number, errors: boolean, rng: Rng): { text: string; codes: string[] } {
  const d = difficulty ?? 5;
  const codes = new Set<string>();
  if (d <= 2 || rng.next() < 0.15) codes.add('FOOT');
  if (d <= 2 && rng.next() < 0.5) codes.add('PROP');
  if (d >= 3 && rng.next() < 0.3 + 0.15 * (d - 3)) codes.add('AMBIG');
  if (d >= 4 && rng.next() < 0.6) codes.add('GUESS');
  if (d >= 4 && rng.next() < 0.4) codes.add('LOAD');
  if (rng.next() < 0.25) codes.add('CLUE');
  if (hints > 0) codes.add('HINT');
  if (errors) codes.add('ERR');
  if (d >= 4 && rng.next() < 0.3) codes.add('TIME');
  if (codes.size === 0) codes.add(d <= 3 ? 'PROP' : 'AMBIG');
  const list = [...codes];
  return { text: list.map((c) => pick(rng, WHY[c])).join(' '), codes: list };
}

// ---------------------------------------------------------------------------------------------------------------

/** A whole session of one bot participant. */
export function botSession(opts: BotOptions): BotSession {
  const { config, rng, skill, effect } = opts;
  const w = new Writer(opts.session_id, opts.start_ms, 300 + rng.int(1_500));
  const steps = expandSteps(config.phases, opts.sequence);
  const allPuzzles = new Map([...config.puzzles, ...config.practice_puzzles].map((p) => [p.id, p]));
  const phaseOf = (s: Step): Phase => config.phases.find((p) => p.id === s.phase_id)!;
  const baseSpeed = Math.exp(-0.3 * skill + 0.15 * normal(rng));
  const crosses = rng.next() < 0.35;
  const outcomes: Record<string, { outcome: string; hints: number; errors: boolean }> = {};
  const ratings: Record<string, number | null> = {};
  const codes: BotSession['codes'] = [];
  const policy = config.hints.policy;

  w.step = steps[0];
  w.log('client_start', { user_agent: 'nonolab-bot/1', width: 1280, height: 800, page_id: `${opts.session_id}-page` });
  for (const step of steps) {
    w.step = step;
    w.wait(200 + rng.int(300));
    w.log('step_start', { kind: step.kind });
    const phase = phaseOf(step);
    switch (step.kind) {
      case 'consent':
        w.wait(logNormal(rng, 15_000, 0.4));
        w.log('consent', { agreed: true }, 'mouse');
        w.log('step_end', { kind: step.kind, reason: 'done' });
        break;
      case 'tutorial':
      case 'warmup': {
        const puzzle = allPuzzles.get(step.puzzle_id!)!;
        const cap = phase.kind === 'warmup' ? phase.cap_seconds * 1000 : null;
        const tempo: Tempo = { speed: baseSpeed * 1.2, pause: 0.1, error: 0.05, hint: 0, drag: 0.5, crosses: false };
        const played = playBoard(w, rng, puzzle, tempo, { capMs: cap, skipAfterMs: null, skipMinMs: 0, canSkip: false, submit: step.kind === 'warmup', hints: false, policy });
        if (step.kind === 'tutorial') w.wait(deliberateGap(rng));
        w.log('step_end', { kind: step.kind, reason: played.outcome === 'solved' ? 'solved' : played.outcome === 'timeout' ? 'timeout' : 'done' });
        break;
      }
      case 'survey': {
        if (phase.kind !== 'survey') break;
        const answers: Record<string, number | string | string[] | null> = {};
        for (const item of phase.items) {
          w.wait(logNormal(rng, 4_000, 0.4));
          answers[item.id] = answerItem(item, skill, rng);
        }
        w.log('survey_submit', { survey_id: phase.id, answers }, 'mouse');
        w.log('step_end', { kind: step.kind, reason: 'done' });
        break;
      }
      case 'puzzle': {
        if (phase.kind !== 'puzzles') break;
        const puzzle = allPuzzles.get(step.puzzle_id!)!;
        const m = effect.metric[puzzle.id] ?? 0;
        const tempo: Tempo = {
          speed: baseSpeed * Math.exp(0.12 * m),
          pause: clamp(0.14 + 0.05 * m - 0.05 * skill, 0.02, 0.5),
          error: clamp(0.06 + 0.02 * m - 0.03 * skill, 0.005, 0.25),
          hint: policy === 'off' ? 0 : clamp(0.012 + 0.006 * m - 0.008 * skill, 0, 0.08),
          drag: clamp(0.55 + 0.15 * skill, 0.1, 0.95),
          crosses,
        };
        const pSkip = clamp(0.04 + 0.04 * m - 0.04 * skill, 0, 0.4);
        const skipAfterMs = rng.next() < pSkip ? logNormal(rng, 60_000, 0.4) : null;
        const limit = phase.time_limit_seconds ? phase.time_limit_seconds * 1000 : null;
        const played = playBoard(w, rng, puzzle, tempo, {
          capMs: limit,
          skipAfterMs,
          skipMinMs: phase.skip_min_seconds * 1000,
          canSkip: true,
          submit: true,
          hints: tempo.hint > 0,
          policy,
        });
        outcomes[puzzle.id] = { outcome: played.outcome, hints: played.hints, errors: played.mistakes > 0 };
        w.log('step_end', { kind: step.kind, reason: played.outcome === 'done' ? 'done' : played.outcome });
        break;
      }
      case 'rating': {
        if (phase.kind !== 'puzzles') break;
        const id = step.puzzle_id!;
        const m = effect.metric[id] ?? 0;
        const skipped = outcomes[id]?.outcome !== 'solved';
        const latent = 3 + effect.b_metric * m + effect.b_skill * skill + effect.b_interaction * m * skill + effect.noise * normal(rng);
        const difficulty = skipped ? null : clamp(Math.round(latent), 1, 5);
        ratings[id] = difficulty;
        const g = phase.rating.guessing_options;
        const guessLevel = clamp(Math.round((g.length - 1) * (0.25 + 0.12 * (latent - 3) - 0.1 * skill) + 0.6 * normal(rng)), 0, g.length - 1);
        w.wait(logNormal(rng, 5_000, 0.4));
        w.log('rating', { difficulty, guessing: g[guessLevel] }, 'mouse');
        w.log('step_end', { kind: step.kind, reason: 'done' });
        break;
      }
      case 'post_survey': {
        if (phase.kind !== 'post_survey') break;
        const answers: Record<string, number | string | string[] | null> = {};
        for (const s of steps.filter((x) => x.kind === 'puzzle')) {
          const id = s.puzzle_id!;
          if (ratings[id] !== null && ratings[id] !== undefined && rng.next() < 0.15) {
            const to = clamp(ratings[id]! + (rng.next() < 0.5 ? -1 : 1), 1, 5);
            if (to !== ratings[id]) {
              w.wait(logNormal(rng, 3_000, 0.4));
              w.log('rating_revise', { rated_puzzle_id: id, from: ratings[id], to }, 'mouse');
              ratings[id] = to;
            }
          }
          const why = whyAnswer(ratings[id] ?? null, outcomes[id]?.hints ?? 0, outcomes[id]?.errors ?? false, rng);
          answers[`why_${id}`] = why.text;
          codes.push({ puzzle_id: id, codes: why.codes });
          w.wait(logNormal(rng, 20_000, 0.5));
        }
        for (const item of phase.items) {
          w.wait(logNormal(rng, 6_000, 0.5));
          answers[item.id] = item.id === 'strategies' ? 'I started with the lines whose clues filled most of the line, then crossed out the rest.' : answerItem(item, skill, rng);
        }
        w.log('survey_submit', { survey_id: phase.id, answers }, 'mouse');
        w.log('step_end', { kind: step.kind, reason: 'done' });
        break;
      }
      case 'complete':
        w.wait(300);
        w.calls.push({ type: 'complete', after_seq: w.seq, t_wall: w.wall, last_seq: w.seq });
        break;
    }
  }
  return { session_id: opts.session_id, skill, events: w.events, calls: w.calls, codes };
}

function deliberateGap(rng: Rng): number {
  return logNormal(rng, 2_000, 0.4);
}

/** Standardise metric values over the pool (mean 0, SD 1; all 0 when constant). */
export function standardiseMetric(values: Record<string, number>): Record<string, number> {
  const ids = Object.keys(values);
  const xs = ids.map((id) => values[id]);
  const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, xs.length - 1));
  return Object.fromEntries(ids.map((id) => [id, sd > 0 ? (values[id] - mean) / sd : 0]));
}

/** A bot's latent skill: a standard normal from the generator. */
export function drawSkill(rng: Rng): number {
  return normal(rng);
}

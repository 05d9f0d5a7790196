// A simulated participant's hands: how a bot plays a board and answers a survey item, for the phase kinds' simulate().
/*
 * How it plays a board: it ranks the rows and columns by how constrained their clue is (clue span / line
 * length, with noise), then works line by line, filling the line's remaining runs; a run of three or more is
 * often one drag stroke (its cells reached about 12 ms apart and logged with their times, as the client logs a
 * drag), shorter runs are clicked cell by cell. Some bots also cross out the empty cells of a
 * finished line. The gaps between cells come from four processes: the cells of a drag (~12 ms, the
 * paper's first component), rapid clicks inside a run (median ~0.2 s), deliberate moves between runs
 * (~1 s) and thinking pauses (~7 s), whose frequency grows with the puzzle's planted difficulty and falls
 * with skill (the puzzles kind sets the tempo). Mistakes: with a probability from the tempo a bot fills a wrong cell
 * (a solution-empty cell next to its run); it notices at once (undo), later (clicks it off), or only when a submission
 * fails. Hints are asked with a probability from the tempo (the bot computes the same hint the server will, with the
 * engine's hint function, through the driver: it stays out of the participant's bundle) and applied as the client does (hint_shown, then a reveal move). Skips happen part-way
 * through, after the phase's minimum time.
 *
 * Survey answers: `surveyAnswers` is the one place answers to a survey's items are made for bots and tests (the
 * simulator's skill-driven answers, the HTTP test bot's random ones, the test helpers' first choices); it also meets
 * the survey's eligibility criteria, so that a bot is never screened out by accident.
 * What it is not: a model of human reasoning. Bots never search or reason; they know the answer.
 */
import type { ClientEvent } from '../../schema/event.ts';
import type { Move } from '../../schema/move.ts';
import type { NonogramStudyPuzzle, Phase, StudyConfig, SurveyItem } from '../../schema/config.ts';
import type { Puzzle } from '../../schema/puzzle.ts';
import type { Rng } from '../../random.ts';
import type { Answer } from '../survey.ts';
import type { SimulateContext, SimulatedPage } from './types.ts';
import { applyMove, boardRows, countWrongCells, initialBoard, matchesSolution, type BoardState } from '../../game/board.ts';
import { FILLED, UNKNOWN } from '../../nonogram/grid.ts';
import { strokeCellMs } from '../../game/input.ts';
import { sudokuPlayOrThrow } from './sudokuBots.ts';
import { recordHint } from './botHint.ts';

/** Median milliseconds between two cells of a bot's drag (the paper's first gap component: about 0.01 s). */
export const DRAG_CELL_MS = 12;

// ---------------------------------------------------------------------------------------------------------------
// Random helpers

export { normal, logNormal, clamp, pick } from './random.ts';
import { normal, logNormal, clamp, pick } from './random.ts';
/** A deliberate pause (reading, deciding): about 2 s. */
export const deliberateGap = (rng: Rng): number => logNormal(rng, 2_000, 0.4);

// ---------------------------------------------------------------------------------------------------------------
// Playing one board

export interface Tempo {
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

export type { BoardPlay } from './random.ts';
import type { BoardPlay } from './random.ts';

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

export function playBoard(
  w: SimulatedPage,
  rng: Rng,
  puzzle: Puzzle,
  tempo: Tempo,
  limits: { capMs: number | null; skipAfterMs: number | null; skipMinMs: number; canSkip: boolean; submit: boolean; hints: boolean; policy: StudyConfig['hints']['policy'] },
): BoardPlay {
  const solution = puzzle.solution!;
  const width = puzzle.width;
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
      request: { puzzle_id: puzzle.id, position: w.step.position, rows },
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
    const found = w.hint(puzzle, board.grid, limits.policy);
    if (!recordHint(w, rng, { puzzle_id: puzzle.id, rows }, found, (h) => ({ row: h.row, col: h.col, kind: h.kind, value: h.value, reasoning: h.reasoning, explanation: h.explanation }))) return;
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
// Survey answers

const FREQ_FALLBACK = ['Never', 'Rarely', 'Sometimes', 'Often', 'Very often'];

/** A skill-driven answer: a noisy reading of the skill placed on the item's scale. */
export function answerItem(item: SurveyItem, skill: number, rng: Rng): number | string | string[] | null {
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

/** The first valid choice of an item (the lowest scale point, the first option, the minimum). */
export function firstChoice(item: SurveyItem): Answer {
  switch (item.type) {
    case 'scale':
      return item.min;
    case 'likert':
    case 'single':
      return item.options[0];
    case 'multi':
      return [item.options[0]];
    case 'number':
      return item.min ?? 1;
    case 'text':
      return 'an answer';
  }
}

/** A uniformly random valid choice; `text` answers every free-text item. */
export function randomChoice(rng: Rng, text: string): (item: SurveyItem) => Answer {
  return (item) => {
    switch (item.type) {
      case 'scale':
        return item.min + rng.int(item.max - item.min + 1);
      case 'likert':
      case 'single':
        return item.options[rng.int(item.options.length)];
      case 'multi':
        return [item.options[0]];
      case 'number':
        return item.min ?? 1;
      case 'text':
        return text;
    }
  };
}

/**
 * Answers to a survey phase's items, in item order, each made by `choose` (which may let time pass); then, for a
 * survey with eligibility criteria, each criterion's item gets its first accepted value. No answers for other kinds.
 */
export function surveyAnswers(phase: Phase, choose: (item: SurveyItem) => Answer = firstChoice): Record<string, Answer> {
  const answers: Record<string, Answer> = {};
  if (phase.kind !== 'survey' && phase.kind !== 'post_survey') return answers;
  for (const item of phase.items) answers[item.id] = choose(item);
  if (phase.kind === 'survey' && phase.eligibility)
    for (const [id, accepted] of Object.entries(phase.eligibility.criteria)) {
      const item = phase.items.find((i) => i.id === id);
      answers[id] = item?.type === 'multi' ? [String(accepted[0])] : accepted[0];
    }
  return answers;
}

/**
 * A practice board (tutorial, warmup): a little slower than the bot's study pace, no hints, no skipping; submitted
 * only when `submit` (the warmup), cut off at the cap. Ends the step: solved, timeout, or done.
 */
export function practiceBoard(ctx: SimulateContext<{ puzzle: string }>, capSeconds: number | null, submit: boolean, after: () => void = () => {}): void {
  const { page, rng, who, config } = ctx;
  const tempo: Tempo = { speed: who.speed * 1.2, pause: 0.1, error: 0.05, hint: 0, drag: 0.5, crosses: false };
  const capMs = capSeconds === null ? null : capSeconds * 1000;
  const puzzle = ctx.puzzle(ctx.phase.puzzle);
  const limits = { capMs, skipAfterMs: null, skipMinMs: 0, canSkip: false, submit, hints: false, policy: config.hints.policy };
  const sudoku = (puzzle as { kind?: string }).kind === 'sudoku' ? sudokuPlayOrThrow().sudokuOf(puzzle) : null;
  const played = sudoku
    ? sudokuPlayOrThrow().playSudoku(page, rng, sudoku, { speed: who.speed * 1.2, pause: 0.1, error: 0.05, hint: 0, reach: sudokuPlayOrThrow().TOP_REACH, pencil: false, source: sudokuPlayOrThrow().sudokuSource(rng) }, limits)
    : playBoard(page, rng, puzzle as NonogramStudyPuzzle, tempo, limits);
  after();
  page.log('step_end', { kind: page.step.kind, reason: played.outcome === 'solved' ? 'solved' : played.outcome === 'timeout' ? 'timeout' : 'done' });
}

// The bot driver: one seeded bot participant walks a whole study session, each step played by its phase kind's simulate().
/*
 * The driver walks the study's steps (expandSteps) like the client: step_start / step_end around every step; what
 * happens inside a step (consent, the tutorial and warmup boards, the surveys, each study puzzle and its rating, the
 * post-survey with rating revisions and free-text answers, the completion call) is the `simulate()` of the step's
 * phase kind (shared/study/phases/<kind>.ts; the board play and survey answers they share are in
 * shared/study/phases/simulate.ts). The driver owns what lasts across steps: the page (its clocks, the records
 * stamped with stampClient as the client stamps them, the server calls), who the bot is (skill, pace, whether it
 * crosses out cells, the planted effect) and what it remembers (outcomes, ratings, free-text codes). Everything is a
 * function of an Rng and a start time, so one seed always gives the same session; nothing reads a clock.
 *
 * The planted effect: the rating of a puzzle is round(3 + b_metric·m + b_skill·s + b_interaction·m·s + ε),
 * clamped to 1..5, where m is the puzzle's standardised metric and s the bot's skill (a standard normal);
 * N/A when skipped. The six expertise answers are noisy readings of s, so the composite recovers it.
 * What it is not: a model of human reasoning. Bots never search or reason; they know the answer.
 */
import type { ClientEvent } from '../../shared/schema/event.ts';
import { stampClient } from '../../shared/schema/stamp.ts';
import type { StudyConfig } from '../../shared/schema/config.ts';
import type { Rng } from '../../shared/random.ts';
import { expandSteps, type Step } from '../../shared/study/steps.ts';
import { simulatorOf } from '../../shared/study/phases/bots.ts';
import { normal } from '../../shared/study/phases/simulate.ts';
import { gridFromRows } from '../../shared/nonogram/grid.ts';
import { hint as engineHint } from '../../shared/nonogram/hint.ts';
import { sudokuHint } from '../../shared/sudoku/hint.ts';
import { recordGrids, type SudokuPuzzle } from '../../shared/sudoku/schema.ts';
import { givensOf } from '../../shared/puzzles/sudoku.ts';
import * as sudokuPlayModule from '../../shared/study/phases/sudokuPlay.ts';
import { registerSudokuPlay } from '../../shared/study/phases/puzzles.ts';

registerSudokuPlay(sudokuPlayModule);
import type { BotCall, PlantedEffect, SimulatedPage, SimulationMemory } from '../../shared/study/phases/types.ts';

export type { BotCall, PlantedEffect } from '../../shared/study/phases/types.ts';
export { DRAG_CELL_MS } from '../../shared/study/phases/simulate.ts';

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

export interface BotSession {
  session_id: string;
  skill: number;
  events: ClientEvent[];
  calls: BotCall[];
  /** The themes the bot's free-text answers express, per puzzle (a simulated coder's output). */
  codes: { puzzle_id: string; codes: string[] }[];
}

/**
 * The simulated page: stamps events as the client's stampClient does (same fields, same rounding), without its
 * per-event zod check: measured 4x slower over a whole simulated study (150 sessions, 37,260 events: 2.0 s against
 * 0.46 s); bot.test.ts checks every event the bots make against the schema instead.
 */
class Page implements SimulatedPage {
  readonly events: ClientEvent[] = [];
  readonly calls: BotCall[] = [];
  seq = 0;
  /** ms since page load (what the client's monotonic clock reads). */
  mono: number;
  constructor(
    readonly sessionId: string,
    readonly startMs: number,
    initialMono: number,
    public step: Step,
  ) {
    this.mono = initialMono;
  }
  wait(ms: number): void {
    this.mono += Math.max(0, ms);
  }
  get wall(): number {
    return Math.round(this.startMs + this.mono);
  }
  hint: SimulatedPage['hint'] = (puzzle, board, policy) => engineHint({ rows: puzzle.rows, cols: puzzle.cols }, board, gridFromRows([...puzzle.solution!]), policy);
  sudokuHint: SimulatedPage['sudokuHint'] = (puzzle, rows, policy) => {
    const { solution } = recordGrids(puzzle as SudokuPuzzle);
    return sudokuHint(givensOf({ ...(puzzle as SudokuPuzzle), givens: [...rows] }), solution, { policy });
  };
  log: SimulatedPage['log'] = (type, payload, source = 'system') => {
    const step = this.step;
    this.seq += 1;
    // The client's one stamping function (shared/schema/stamp.ts), as the participant's page calls it.
    this.events.push(
      stampClient(
        { session_id: this.sessionId, seq: this.seq, step: step.index, phase: step.phase_id, puzzle_id: step.puzzle_id, position: step.position, t_mono: Math.round(this.mono * 10) / 10, t_wall: this.wall, source },
        type,
        payload as never,
      ),
    );
  };
}

/** A whole session of one bot participant. */
export function botSession(opts: BotOptions): BotSession {
  const { config, rng, skill, effect } = opts;
  const steps = expandSteps(config.phases, opts.sequence);
  const page = new Page(opts.session_id, opts.start_ms, 300 + rng.int(1_500), steps[0]);
  const allPuzzles = new Map([...config.puzzles, ...config.practice_puzzles].map((p) => [p.id, p]));
  const puzzle = (id: string) => {
    const p = allPuzzles.get(id);
    if (!p) throw new Error(`bot: no puzzle '${id}' in the study`);
    return p;
  };
  const who = { skill, speed: Math.exp(-0.3 * skill + 0.15 * normal(rng)), crosses: rng.next() < 0.35, effect };
  const memory: SimulationMemory = { outcomes: {}, ratings: {}, codes: [] };

  page.log('client_start', { user_agent: 'nonolab-bot/1', width: 1280, height: 800, page_id: `${opts.session_id}-page` });
  for (const step of steps) {
    page.step = step;
    page.wait(200 + rng.int(300));
    page.log('step_start', { kind: step.kind });
    const phase = config.phases.find((p) => p.id === step.phase_id)!;
    simulatorOf(phase)({ config, phase, step, steps, puzzle, rng, page, who, memory });
  }
  return { session_id: opts.session_id, skill, events: page.events, calls: page.calls, codes: memory.codes };
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

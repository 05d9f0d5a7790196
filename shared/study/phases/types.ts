// One phase kind as one module: its config schema, its steps, its clocks, its board, its records, its end rule, its bot.
import type { z } from 'zod';
import type { HintPolicy, Phase, PhaseKind, StudyConfig, StudyPuzzle } from '../../schema/config.ts';
import type { Grid } from '../../nonogram/grid.ts';
import type { Hint } from '../../nonogram/hint.ts';
import type { SudokuHint } from '../../sudoku/hint.ts';
import type { ClientEvent, ClientEventType } from '../../schema/event.ts';
import type { CheckRequest, HintRequest } from '../../schema/api.ts';
import type { Puzzle } from '../../schema/puzzle.ts';
import type { Rng } from '../../random.ts';
import type { Answer } from '../survey.ts';

export type StepKind = Exclude<PhaseKind, 'puzzles'> | 'puzzle' | 'rating';

/** One step of a participant's timeline (steps.ts). */
export interface Step {
  index: number;
  kind: StepKind;
  phase_id: string;
  puzzle_id: string | null;
  /** 1-based position of a study puzzle in the participant's sequence. */
  position: number | null;
}

export type PhaseOf<K extends PhaseKind> = Extract<Phase, { kind: K }>;
export type StepEnd = Extract<ClientEvent, { type: 'step_end' }>;
export type EndReason = StepEnd['payload']['reason'];
/** A step before it has its place in the timeline. */
export type StepDraft = Omit<Step, 'index'>;

/** What the current step has shown the server so far (reset when the step ends). */
export interface StepFacts {
  /** The consent answer given in this step, if any. */
  consent: boolean | null;
  /** Survey answers submitted in this step (already valid for the config), if any. */
  survey: Record<string, Answer> | null;
  /** A rating was given in this step. */
  rated: boolean;
}

export interface EndContext<K extends PhaseKind> {
  phase: PhaseOf<K>;
  step: Step;
  reason: EndReason;
  facts: StepFacts;
  /** The server's check found this step's puzzle solved (at this position). */
  solved: boolean;
  /** Milliseconds the step lasted by the client's wall clock (already bounded by the server's clock). */
  elapsedMs: number;
}

/**
 * One phase kind (jsPsych's plugin with its `info` and `simulate`): a study reorders or drops phases in its config
 * alone, and each kind brings everything that is true of it wherever it is asked (server, client, analysis, bots):
 * - `params`: the zod schema of its config entry (declared in shared/schema/config.ts, the config's one source),
 * - `expand`: the steps one phase entry becomes for a participant with this puzzle sequence (steps.ts numbers them),
 * - `boards`: the step kinds of it that show a puzzle board (moves, checks, hints and a replay belong to those),
 * - `capSeconds` / `skipAfterSeconds`: how long a step may last before it moves on by itself, and when it may be
 *   skipped (null: never); the client's countdown, the server's check/hint refusal and the bot all read these,
 * - `records`: the client event types each of its step kinds may log (besides step_start/step_end, which every step
 *   logs, and the page's visibility/focus/resize records),
 * - `end`: whether a step may end with this reason now; null when it may, else why not (in the participant's terms),
 * - `timed`: the end reasons whose rule depends on elapsed time (the server bounds the client's clock for those),
 * Beside the module, in the same file, each kind exports its `simulate<Kind>` (a `PhaseSimulate`): what a bot
 * participant does on one of its steps, written through a `SimulateContext` (simulate.ts). It is a separate export,
 * not a member, so that the participant's bundle, which imports the modules, leaves the bots out (tree-shaking drops
 * an unused export, never an object's member); `bots.ts` gathers them, and the driver that walks a whole session lives
 * in analysis/simulate/.
 * The client adds only the screen (client/src/phases/<kind>.tsx).
 */
export interface PhaseModule<K extends PhaseKind> {
  kind: K;
  params: z.ZodType<PhaseOf<K>, unknown>;
  expand(phase: PhaseOf<K>, sequence: readonly string[]): StepDraft[];
  boards: readonly StepKind[];
  capSeconds(phase: PhaseOf<K>, step: Step): number | null;
  skipAfterSeconds(phase: PhaseOf<K>, step: Step): number | null;
  records: Partial<Record<StepKind, readonly ClientEventType[]>>;
  end(ctx: EndContext<K>): string | null;
  timed: readonly EndReason[];
}

/** What a bot participant does on one step of a phase of kind K. */
export type PhaseSimulate<K extends PhaseKind> = (ctx: SimulateContext<PhaseOf<K>>) => void;

// ---- what a phase kind's simulate() is given (the driver, analysis/simulate/bot.ts, provides it) ----

/** The planted effect on ratings (see analysis/simulate/bot.ts). */
export interface PlantedEffect {
  /** Standardised metric value per study puzzle id (mean 0, SD 1 over the pool). */
  metric: Record<string, number>;
  b_metric: number;
  b_skill: number;
  b_interaction: number;
  /** SD of the rating noise. */
  noise: number;
}

/** Server side of a bot's step: what the simulator sends, and (for the NDJSON writer) what the server answers. */
export type BotCall =
  | { type: 'check'; after_seq: number; t_wall: number; request: CheckRequest; solved: boolean; wrong_cells: number }
  | {
      type: 'hint';
      after_seq: number;
      t_wall: number;
      request: HintRequest;
      /** A Nonogram hint names the cell's value, a Sudoku hint its digit (null: an elimination). */
      hint: ({ row: number; col: number; kind: 'error' | 'cell'; value: 'filled' | 'empty' } | { row: number; col: number; kind: SudokuHint['kind']; digit: number | null }) & { reasoning: string; explanation: string } | null;
    }
  | { type: 'complete'; after_seq: number; t_wall: number; last_seq: number };

/** The simulated page: its clock, the records it stamps at the current step, the server calls it makes. */
export interface SimulatedPage {
  /** ms since page load (what the client's monotonic clock reads). */
  readonly mono: number;
  /** The client wall clock now. */
  readonly wall: number;
  /** The last sequence number used. */
  readonly seq: number;
  readonly step: Step;
  readonly calls: BotCall[];
  /** Let time pass. */
  wait(ms: number): void;
  /** The hint the server would give for this board under this policy (the engine's, as POST /api/session/hint). */
  hint(puzzle: Puzzle, board: Grid, policy: HintPolicy): Hint | null;
  /** The hint the server would give for this Sudoku board (rows of digit symbols, '.' empty) under this policy. */
  sudokuHint(puzzle: SudokuBotPuzzle, rows: readonly string[], policy: HintPolicy): SudokuHint | null;
  /** Stamp a client record at the current step, now. */
  log<T extends ClientEvent['type']>(type: T, payload: Extract<ClientEvent, { type: T }>['payload'], source?: ClientEvent['source']): void;
}

/** A Sudoku puzzle as a bot plays it: the record's board fields with its solution. */
export interface SudokuBotPuzzle {
  id: string;
  size: number;
  box: readonly [number, number] | readonly number[];
  givens: readonly string[];
  solution: readonly string[];
}

/** Who the bot is: the same across its steps. */
export interface SimulatedParticipant {
  /** Latent skill, a standard normal (0 average, +2 an expert). */
  skill: number;
  /** Multiplies every gap (lower = faster). */
  speed: number;
  /** Crosses out the empty cells of finished lines. */
  crosses: boolean;
  effect: PlantedEffect;
}

/** What a bot remembers from one step to a later one (a rating follows its puzzle; the post-survey looks back). */
export interface SimulationMemory {
  outcomes: Record<string, { outcome: string; hints: number; errors: boolean }>;
  ratings: Record<string, number | null>;
  /** The themes the bot's free-text answers express, per puzzle (a simulated coder's output). */
  codes: { puzzle_id: string; codes: string[] }[];
}

export interface SimulateContext<P> {
  config: StudyConfig;
  phase: P;
  step: Step;
  /** The whole timeline (the post-survey asks about every puzzle step). */
  steps: readonly Step[];
  /** A study or practice puzzle of any kind (a Sudoku record has `kind: 'sudoku'`: sudokuPlay.ts sudokuOf). */
  puzzle(id: string): StudyPuzzle;
  rng: Rng;
  page: SimulatedPage;
  who: SimulatedParticipant;
  memory: SimulationMemory;
}

/** The server-side rules of a phase kind: the part of its module that judges a session's records. */
export type PhaseRules<K extends PhaseKind> = Pick<PhaseModule<K>, 'kind' | 'records' | 'end' | 'timed'>;

/** The slack given to a client clock rule (timer rounding, a reload): a step may end this early. */
export const CLOCK_TOLERANCE_MS = 1_000;

export function reasons(allowed: readonly EndReason[], reason: EndReason): string | null {
  return allowed.includes(reason) ? null : `a step of this kind ends with ${allowed.map((r) => `'${r}'`).join(' or ')}, not '${reason}'`;
}

/** The one step of a phase without a board or puzzle (consent, a survey, the end). */
export const singleStep = (phase: { kind: string; id: string }): StepDraft[] => [{ kind: phase.kind as StepKind, phase_id: phase.id, puzzle_id: null, position: null }];
export const noClock = (): null => null;

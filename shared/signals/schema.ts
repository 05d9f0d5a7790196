// Row schemas of the per-attempt, per-participant and per-gap tables derived from the event logs (snake_case columns).
import { z } from 'zod';
import { LoggedSessionStatus } from '../schema/session.ts';

/** How a study-puzzle attempt ended. `incomplete`: the session stopped during the attempt. */
export const AttemptOutcome = z.enum(['solved', 'skipped', 'timeout', 'incomplete']);
export type AttemptOutcome = z.infer<typeof AttemptOutcome>;

const Count = z.number().int().nonnegative();
const Seconds = z.number().nonnegative();

/** One row per (participant, study puzzle). Warmup and tutorial never give a row. */
export const AttemptRow = z.object({
  participant_id: z.string(),
  puzzle_id: z.string(),
  /** 1-based position of the puzzle in the participant's sequence. */
  position: z.number().int().positive(),
  step: z.number().int().nonnegative(),
  outcome: AttemptOutcome,
  solved: z.boolean(),
  skipped: z.boolean(),
  /** Seconds from the puzzle's start to the correct submission, to the skip if skipped, else to the attempt's end. */
  time_s: Seconds,
  /** Seconds from the start to the first board action (null: none). */
  first_action_s: Seconds.nullable(),
  /** The participant's move events (board paints, undo, reset, hint, submit, skip; not the client's hint reveals). */
  actions: Count,
  /** Board paints: fill, cross, clear and stroke moves (a drag stroke is one move); a Sudoku's set_digit, pencil and clear. */
  moves: Count,
  /** Drag strokes among the moves. */
  strokes: Count,
  /** Cells the participant turned filled (a stroke counts each cell it fills); a Sudoku's digits entered (set_digit that changed the board). */
  cells_filled: Count,
  /**
   * Errors as the paper counts them: the number of times the participant turned a cell filled where the solution is
   * empty (each such cell of a stroke counts; filling the same wrong cell again after clearing it counts again).
   */
  /** A Sudoku's errors: each digit entered (set_digit, not a hint's reveal) that differs from the solution's digit there. */
  errors: Count,
  /** Distinct cells among the errors (a cell filled wrongly twice is one). */
  error_cells: Count,
  hints: Count,
  undos: Count,
  resets: Count,
  submissions: Count,
  wrong_submissions: Count,
  /** Gaps between consecutive points in time of the attempt (actions, or the cells of timed strokes at the cell level). */
  gaps: Count,
  median_gap_s: Seconds.nullable(),
  /** Gaps longer than the pause threshold (null when no threshold was given). */
  pauses: Count.nullable(),
  pause_time_s: Seconds.nullable(),
  pause_threshold_s: Seconds.nullable(),
  /** The first cell acted on (first cell of a stroke), 0-based. */
  first_row: z.number().int().nonnegative().nullable(),
  first_col: z.number().int().nonnegative().nullable(),
  /** Wrong cells on the board when the attempt ended (filled where empty, crossed where filled). */
  final_wrong_cells: Count,
  difficulty_initial: z.number().int().min(1).max(5).nullable(),
  /** The difficulty after the post-survey revisions (the one analysed). */
  difficulty: z.number().int().min(1).max(5).nullable(),
  guessing: z.string().nullable(),
  /** 1-based position of the guessing answer among the options (1 = never), null if unknown. */
  guessing_level: z.number().int().positive().nullable(),
  /** The puzzle kind, on a Sudoku's attempt (a Nonogram's row has none: its fields are as they always were). */
  kind: z.enum(['nonogram', 'sudoku']).optional(),
  /** A Sudoku's pencil-mark toggles (each `pencil` move, on or off). */
  pencil_marks: Count.optional(),
  /** A Sudoku's distinct cells that got a pencil-mark toggle. */
  pencil_cells: Count.optional(),
});
export type AttemptRow = z.infer<typeof AttemptRow>;

/** The attempt fields only a study with a kind other than Nonogram has (a Nonogram study's tables and exports leave them out). */
export const KIND_ATTEMPT_FIELDS: readonly string[] = ['kind', 'pencil_marks', 'pencil_cells'];

/** One inter-action gap (for the mixture fit). */
export const GapRow = z.object({
  participant_id: z.string(),
  puzzle_id: z.string(),
  position: z.number().int().positive(),
  /** 1-based index of the action that ends the gap. */
  index: z.number().int().positive(),
  /** 0-based cell of the timed stroke that ends the gap (cell > 0: a gap inside the drag); null: a whole action. */
  cell: z.number().int().nonnegative().nullable(),
  gap_s: Seconds,
  /** Move type that ends the gap. */
  action: z.string(),
});
export type GapRow = z.infer<typeof GapRow>;

/** The status the log alone tells (declared with the server's statuses in shared/schema/session.ts). */
export { LoggedSessionStatus as SessionStatus } from '../schema/session.ts';

/** One row per session: status and the six expertise items as numbers. */
export const ParticipantRow = z.object({
  participant_id: z.string(),
  status: LoggedSessionStatus,
  /** pilot/test/excluded marks found in the log (see sessionMarks), joined by ';'; '' when none. */
  marks: z.string(),
  config_hash: z.string().nullable(),
  app_version: z.string().nullable(),
  started_at: z.string().nullable(),
  /** The language the session's page spoke: session_start's `lang`; 'en' for logs from before studies had languages (none stamped); null without a session_start. */
  language: z.string().nullable(),
  attempts: Count,
  /** Self-rated Nonogram skill (scale item). */
  nonogram_skill: z.number().nullable(),
  puzzle_skill: z.number().nullable(),
  /** Likert items as 1-based option positions (1 = never). */
  nonogram_frequency: z.number().nullable(),
  logic_frequency: z.number().nullable(),
  /** Multi-choice items as the number of options chosen. */
  nonogram_sizes: z.number().nullable(),
  logic_types: z.number().nullable(),
});
export type ParticipantRow = z.infer<typeof ParticipantRow>;

export const EXPERTISE_ITEMS = ['nonogram_skill', 'puzzle_skill', 'nonogram_frequency', 'logic_frequency', 'nonogram_sizes', 'logic_types'] as const;
export type ExpertiseItem = (typeof EXPERTISE_ITEMS)[number];

/** A post-survey free-text answer (why a puzzle felt as it did, strategies, comments), for coding. */
export const AnswerRow = z.object({
  participant_id: z.string(),
  item: z.string(),
  puzzle_id: z.string().nullable(),
  text: z.string(),
});
export type AnswerRow = z.infer<typeof AnswerRow>;

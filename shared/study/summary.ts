// Live session summaries for the experimenter dashboard: a session's logged records folded into what a person watching needs.
//
// The NDJSON log is the only source: a summary is a left fold over a session's typed records (LoggedEvent, read by
// shared/log's parseRecord or written by the intake) in log order, with the log's shared rules (board moves, the next
// step, how a session ends: shared/log/rules.ts), so the server can
// build one from a file after a restart and then keep it current by folding each newly appended batch (foldRecords is
// associative over batches: folding a+b equals folding a then b). Times come from the server's receive stamp (t_server),
// the one clock shared by every session; the client's own clocks are left to the replay. What depends on "now" (time in
// the phase, the connection state) is not stored but computed by `connectionState` and `timeInStep` from a clock
// passed in, so the browser can keep them ticking between pushes. What the fold cannot know: whether a silent
// participant is thinking or gone. Silence is all it sees, so the connection state is a judgement by thresholds.
import { z } from 'zod';
import { SessionFlag, StoredSessionStatus } from '../schema/session.ts';
import type { LoggedEvent } from '../schema/event.ts';
import { isBoardMove, sessionEndOf, stepAfter } from '../log/rules.ts';

export { SessionFlag };

export const ConnectionState = z.enum(['active', 'idle', 'disconnected', 'abandoned', 'finished']);
export type ConnectionState = z.infer<typeof ConnectionState>;

/** One step of a session as it went (puzzle attempts, but also surveys and practice). */
export const StepSummary = z.object({
  step: z.number().int().nonnegative(),
  kind: z.string(),
  phase: z.string(),
  puzzle_id: z.string().nullable(),
  position: z.number().int().nullable(),
  started_at: z.number(),
  ended_at: z.number().nullable(),
  outcome: z.string().nullable(),
  moves: z.number().int().nonnegative(),
  hints: z.number().int().nonnegative(),
  wrong_submissions: z.number().int().nonnegative(),
});
export type StepSummary = z.infer<typeof StepSummary>;

export const SessionSummary = z.object({
  session_id: z.string(),
  mode: z.string(),
  label: z.string().nullable(),
  /** The language the participant's page speaks (session_start's lang; absent before the start record is read, en before studies had languages). */
  lang: z.string().optional(),
  /** The server's status (shared/schema/session.ts). */
  status: StoredSessionStatus,
  flag: SessionFlag.nullable(),
  sequence: z.array(z.string()),
  total_steps: z.number().int().nonnegative(),
  created_at: z.number(),
  /** Last record the server received, by its clock. */
  last_activity: z.number(),
  /** The step the participant is on: index, kind, phase, puzzle. */
  step: z.number().int().nonnegative(),
  step_kind: z.string().nullable(),
  phase: z.string().nullable(),
  puzzle_id: z.string().nullable(),
  position: z.number().int().nullable(),
  step_started_at: z.number().nullable(),
  /** Board moves (fill, cross, clear, stroke, reveal, undo, reset) on the study puzzles of the session. */
  moves: z.number().int().nonnegative(),
  /** Hints given and wrong submissions on the study puzzles (the tutorial's and warm-up's practice is in `practice`). */
  hints: z.number().int().nonnegative(),
  wrong_submissions: z.number().int().nonnegative(),
  /** The same counts for practice (the tutorial and the warm-up), kept apart from the study puzzles'. */
  practice: z
    .object({ moves: z.number().int().nonnegative(), hints: z.number().int().nonnegative(), wrong_submissions: z.number().int().nonnegative() })
    .default({ moves: 0, hints: 0, wrong_submissions: 0 }),
  solved: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  /** Whether the participant's page was visible at its last report. */
  visible: z.boolean(),
  completed_at: z.number().nullable(),
  /** The experimenter said: do not count this session as abandoned before this time. */
  extended_until: z.number().nullable(),
  /** The experimenter ended this session by hand. */
  ended_at: z.number().nullable(),
  steps: z.array(StepSummary),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

/** What the log does not say about a session: the server's row and the experimenter's marks. */
export interface SummaryMeta {
  session_id: string;
  mode: string;
  label: string | null;
  status: StoredSessionStatus;
  created_at: number;
  sequence: readonly string[];
  total_steps: number;
  flag?: SessionFlag | null;
  extended_until?: number | null;
  ended_at?: number | null;
}

export function emptySummary(meta: SummaryMeta): SessionSummary {
  return {
    session_id: meta.session_id,
    mode: meta.mode,
    label: meta.label,
    status: meta.status,
    flag: meta.flag ?? null,
    sequence: [...meta.sequence],
    total_steps: meta.total_steps,
    created_at: meta.created_at,
    last_activity: meta.created_at,
    step: 0,
    step_kind: null,
    phase: null,
    puzzle_id: null,
    position: null,
    step_started_at: null,
    moves: 0,
    hints: 0,
    wrong_submissions: 0,
    practice: { moves: 0, hints: 0, wrong_submissions: 0 },
    solved: 0,
    skipped: 0,
    visible: true,
    completed_at: null,
    extended_until: meta.extended_until ?? null,
    ended_at: meta.ended_at ?? null,
    steps: [],
  };
}

/** Step kinds that are practice, not study puzzles: their moves, hints and wrong submissions are counted apart. */
export const PRACTICE_KINDS: ReadonlySet<string> = new Set(['tutorial', 'warmup']);

/** Fold records (in log order) into a copy of the summary. */
export function foldRecords(summary: SessionSummary, records: readonly LoggedEvent[]): SessionSummary {
  const s: SessionSummary = { ...summary, practice: { ...(summary.practice ?? { moves: 0, hints: 0, wrong_submissions: 0 }) }, steps: summary.steps.map((x) => ({ ...x })) };
  const current = (): StepSummary | undefined => s.steps[s.steps.length - 1];
  /** Where a count of a step goes: the session's study totals, or its practice (tutorial, warm-up). */
  const tally = (step: StepSummary | undefined) => (step && PRACTICE_KINDS.has(step.kind) ? s.practice : s);
  for (const r of records) {
    const t = r.t_server;
    if (t > s.last_activity) s.last_activity = t;
    const at = t;
    if (r.origin === 'server') {
      if (r.type === 'check') {
        if (!r.payload.solved) {
          const c = current();
          tally(c).wrong_submissions++;
          if (c) c.wrong_submissions++;
        }
      } else if (r.type === 'hint') {
        const c = current();
        tally(c).hints++;
        if (c) c.hints++;
      } else if (r.type === 'session_complete') {
        s.completed_at = at;
        s.status = 'complete';
      } else if (r.type === 'session_mark') {
        s.flag = r.payload.mark;
      } else if (r.type === 'session_start' || r.type === 'sequence_assigned') {
        // The sequence: named at the start, or leased at consent (sequence_assigned).
        if (r.payload.sequence.length > 0 && s.sequence.length === 0) s.sequence = [...r.payload.sequence];
        if (r.type === 'session_start' && r.payload.lang) s.lang = r.payload.lang;
      }
      continue;
    }
    const step = r.step;
    if (r.type === 'step_start') {
      const c = current();
      if (c && c.ended_at === null && c.step !== step) c.ended_at = at;
      if (!c || c.step !== step) {
        s.steps.push({
          step,
          kind: r.payload.kind,
          phase: r.phase,
          puzzle_id: r.puzzle_id,
          position: r.position,
          started_at: at,
          ended_at: null,
          outcome: null,
          moves: 0,
          hints: 0,
          wrong_submissions: 0,
        });
      }
      if (step !== s.step || s.step_kind === null) s.step_started_at = current()?.started_at ?? at;
      s.step = step;
      s.step_kind = r.payload.kind;
      s.phase = r.phase;
      s.puzzle_id = r.puzzle_id;
      s.position = r.position;
    } else if (r.type === 'step_end') {
      const c = s.steps.find((x) => x.step === step);
      if (c) {
        c.ended_at = at;
        c.outcome = r.payload.reason;
      }
      if (r.payload.kind === 'puzzle') {
        if (r.payload.reason === 'solved') s.solved++;
        if (r.payload.reason === 'skipped') s.skipped++;
      }
      const next = stepAfter(s.step, r);
      if (next > s.step) {
        s.step = next;
        s.step_kind = null;
        s.puzzle_id = null;
        s.position = null;
        s.step_started_at = at;
      }
      const end = sessionEndOf(r);
      if (end) s.status = end;
    } else if (r.type === 'move') {
      if (isBoardMove(r.payload.move)) {
        const c = current();
        tally(c && c.step === step ? c : s.steps.find((x) => x.step === step)).moves++;
        if (c && c.step === step) c.moves++;
      }
    } else if (r.type === 'visibility') {
      s.visible = r.payload.state !== 'hidden';
    }
  }
  return s;
}

export function summarizeSession(meta: SummaryMeta, records: readonly LoggedEvent[]): SessionSummary {
  return foldRecords(emptySummary(meta), records);
}

/** Silence thresholds (ms) that turn an active session idle, disconnected, abandoned. */
export const Liveness = z.object({
  idle_ms: z.number().positive(),
  disconnected_ms: z.number().positive(),
  abandoned_ms: z.number().positive(),
});
export type Liveness = z.infer<typeof Liveness>;

export const DEFAULT_LIVENESS: Liveness = { idle_ms: 30_000, disconnected_ms: 120_000, abandoned_ms: 30 * 60_000 };

/**
 * The connection state at `now`: abandoned when the server or the experimenter said so, or when the silence passed
 * the abandon threshold (unless extended); finished once the server closed the session; disconnected after a long
 * silence; idle after a short one or while the participant's page is hidden; active otherwise.
 */
export function connectionState(s: SessionSummary, now: number, liveness: Liveness = DEFAULT_LIVENESS): ConnectionState {
  if (s.status === 'abandoned' || s.ended_at !== null) return 'abandoned';
  if (s.status !== 'active') return 'finished';
  const silence = Math.max(0, now - s.last_activity);
  const extended = s.extended_until !== null && now < s.extended_until;
  if (silence >= liveness.abandoned_ms && !extended) return 'abandoned';
  if (silence >= liveness.disconnected_ms) return 'disconnected';
  if (silence >= liveness.idle_ms || !s.visible) return 'idle';
  return 'active';
}

/** Milliseconds spent in the current step at `now` (0 when finished or not started). */
export function timeInStep(s: SessionSummary, now: number): number {
  if (s.status !== 'active' || s.step_started_at === null) return 0;
  return Math.max(0, now - s.step_started_at);
}

/** Fraction of the study's steps done (0..1). */
export function completion(s: SessionSummary): number {
  if (s.status === 'complete') return 1;
  if (s.total_steps <= 0) return 0;
  return Math.min(1, s.step / s.total_steps);
}

export const PoolSequence = z.object({
  id: z.number().int(),
  round: z.number().int(),
  puzzle_ids: z.array(z.string()),
  status: z.enum(['free', 'leased', 'used']),
  session_id: z.string().nullable(),
  flag: SessionFlag.nullable(),
});
export type PoolSequence = z.infer<typeof PoolSequence>;

export const PoolBalance = z.object({
  free: z.number().int(),
  leased: z.number().int(),
  used: z.number().int(),
  /** Leased or used sequences of flagged (pilot, test, excluded) sessions: kept, but out of the balance. */
  flagged: z.number().int(),
  current_round: z.number().int(),
  puzzles: z.array(z.string()),
  positions: z.number().int(),
  /** Attempts per puzzle, by unflagged leased and used sequences. */
  per_puzzle: z.record(z.string(), z.number().int()),
  /** Attempts per puzzle at each position: per_position[puzzle][position - 1]. */
  per_position: z.record(z.string(), z.array(z.number().int())),
  /** Most minus least attempted puzzle; and the same over (puzzle, position) cells. */
  puzzle_spread: z.number().int(),
  position_spread: z.number().int(),
});
export type PoolBalance = z.infer<typeof PoolBalance>;

/** Counts of the pool: sequences by status and the attempts they give each puzzle and (puzzle, position). */
export function poolBalance(sequences: readonly PoolSequence[], puzzles: readonly string[]): PoolBalance {
  const positions = Math.max(0, ...sequences.map((s) => s.puzzle_ids.length));
  const perPuzzle: Record<string, number> = Object.fromEntries(puzzles.map((p) => [p, 0]));
  const perPosition: Record<string, number[]> = Object.fromEntries(puzzles.map((p) => [p, new Array<number>(positions).fill(0)]));
  let free = 0;
  let leased = 0;
  let used = 0;
  let flagged = 0;
  for (const s of sequences) {
    if (s.status === 'free') free++;
    else if (s.status === 'leased') leased++;
    else used++;
    if (s.status === 'free') continue;
    if (s.flag !== null) {
      flagged++;
      continue;
    }
    s.puzzle_ids.forEach((p, i) => {
      perPuzzle[p] = (perPuzzle[p] ?? 0) + 1;
      (perPosition[p] ??= new Array<number>(positions).fill(0))[i]++;
    });
  }
  const spread = (xs: number[]) => (xs.length ? Math.max(...xs) - Math.min(...xs) : 0);
  return {
    free,
    leased,
    used,
    flagged,
    current_round: Math.max(0, ...sequences.map((s) => s.round)),
    puzzles: [...puzzles],
    positions,
    per_puzzle: perPuzzle,
    per_position: perPosition,
    puzzle_spread: spread(Object.values(perPuzzle)),
    position_spread: spread(Object.values(perPosition).flat()),
  };
}

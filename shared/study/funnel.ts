// The drop-out funnel: from session summaries, how many reached each step of the study, who stopped where, and how long each step took.
//
// Every session walks the same timeline (expandSteps: the puzzles differ, the steps do not), so steps are compared by
// index. A session's furthest step is the step it is on (`summary.step`; a completed one counts as at the complete
// step). Reached: sessions whose furthest step is at or past the step. Where sessions stopped: an active session is
// still on its step; an abandoned one (the inactivity sweep, or ended by hand) left at the step it was on; a declined
// or screened-out one ended at the step whose step_end ended it (consent, the screening survey). Times are the server's
// receive times of step_start and the step's end (the summary's started_at/ended_at), so one clock serves every
// session; the median is taken over the sessions that ended the step. What it cannot see: withdrawn sessions (nothing
// of them remains) and a step a participant skipped past without its step_start reaching the server.
import { z } from 'zod';
import type { SessionSummary } from './summary.ts';
import type { Step } from './steps.ts';

export const FunnelRow = z.object({
  step: z.number().int().nonnegative(),
  kind: z.string(),
  phase: z.string(),
  /** 1-based position of the study puzzle (puzzle and rating steps), else null. */
  position: z.number().int().positive().nullable(),
  /** Sessions that got at least this far. */
  reached: z.number().int().nonnegative(),
  /** Active sessions on this step now. */
  here_now: z.number().int().nonnegative(),
  /** Abandoned sessions that stopped on this step. */
  left_here: z.number().int().nonnegative(),
  declined_here: z.number().int().nonnegative(),
  screened_out_here: z.number().int().nonnegative(),
  /** Median seconds from the step's start to its end, over the sessions that ended it (null: none did). */
  median_time_s: z.number().nonnegative().nullable(),
  /** How many step durations the median is taken over. */
  timed: z.number().int().nonnegative(),
});
export type FunnelRow = z.infer<typeof FunnelRow>;

export const Funnel = z.object({
  sessions: z.number().int().nonnegative(),
  complete: z.number().int().nonnegative(),
  active: z.number().int().nonnegative(),
  abandoned: z.number().int().nonnegative(),
  declined: z.number().int().nonnegative(),
  screened_out: z.number().int().nonnegative(),
  steps: z.array(FunnelRow),
});
export type Funnel = z.infer<typeof Funnel>;

/** The funnel's CSV columns, in order. */
export const FUNNEL_COLUMNS = Object.keys(FunnelRow.shape) as (keyof FunnelRow)[];

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Where a session stopped (or is now): the step index, clamped to the timeline. */
function stoppedAt(s: SessionSummary, steps: readonly Step[]): number {
  const last = steps.length - 1;
  const clamp = (i: number) => Math.max(0, Math.min(last, i));
  if (s.status === 'complete') return last >= 0 ? clamp(Math.max(s.step, steps.findIndex((x) => x.kind === 'complete'))) : 0;
  if (s.status === 'declined' || s.status === 'screened_out') {
    const ending = [...s.steps].reverse().find((x) => x.outcome === s.status);
    return clamp(ending ? ending.step : s.step - 1);
  }
  return clamp(s.step);
}

/** The funnel over `summaries` (full summaries: their `steps` are used for the times) along the study's `steps`. */
export function dropoutFunnel(steps: readonly Step[], summaries: readonly SessionSummary[]): Funnel {
  const rows: FunnelRow[] = steps.map((s) => ({
    step: s.index,
    kind: s.kind,
    phase: s.phase_id,
    position: s.position,
    reached: 0,
    here_now: 0,
    left_here: 0,
    declined_here: 0,
    screened_out_here: 0,
    median_time_s: null,
    timed: 0,
  }));
  const durations: number[][] = steps.map(() => []);
  const totals = { sessions: 0, complete: 0, active: 0, abandoned: 0, declined: 0, screened_out: 0 };
  for (const s of summaries) {
    totals.sessions++;
    if (s.status in totals) totals[s.status as Exclude<keyof typeof totals, 'sessions'>]++;
    if (rows.length === 0) continue;
    const at = stoppedAt(s, steps);
    for (let i = 0; i <= at; i++) rows[i].reached++;
    const row = rows[at];
    if (s.status === 'active') row.here_now++;
    else if (s.status === 'abandoned') row.left_here++;
    else if (s.status === 'declined') row.declined_here++;
    else if (s.status === 'screened_out') row.screened_out_here++;
    for (const x of s.steps) if (x.ended_at !== null && x.step < durations.length && x.ended_at >= x.started_at) durations[x.step].push((x.ended_at - x.started_at) / 1000);
  }
  rows.forEach((r, i) => {
    const m = median(durations[i]);
    // To the millisecond, as every other export rounds its seconds (not 1.8104999999999998).
    r.median_time_s = m === null ? null : Math.round(m * 1000) / 1000;
    r.timed = durations[i].length;
  });
  return { ...totals, steps: rows };
}

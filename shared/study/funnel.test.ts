// The drop-out funnel on hand-made summaries: reach, where each kind of leaver stopped, medians of step times.
import { describe, expect, it } from 'vitest';
import { dropoutFunnel, median } from './funnel.ts';
import { emptySummary, type SessionSummary, type StepSummary } from './summary.ts';
import type { Step } from './steps.ts';
import type { StoredSessionStatus } from '../schema/session.ts';

const kinds = ['consent', 'survey', 'puzzle', 'rating', 'complete'] as const;
const steps: Step[] = kinds.map((kind, index) => ({ index, kind, phase_id: kind === 'rating' ? 'puzzles' : kind, puzzle_id: null, position: kind === 'puzzle' || kind === 'rating' ? 1 : null }));

/** A session that went through `durations` (seconds per step from step 0) and is on `step` with `status`. */
function session(id: string, status: StoredSessionStatus, step: number, durations: number[], outcomeOfLast: string | null = null): SessionSummary {
  const s = emptySummary({ session_id: id, mode: 'general', label: null, status, created_at: 0, sequence: [], total_steps: steps.length });
  let t = 0;
  s.steps = durations.map((d, i): StepSummary => {
    const x = { step: i, kind: kinds[i], phase: kinds[i], puzzle_id: null, position: null, started_at: t, ended_at: t + d * 1000, outcome: i === durations.length - 1 ? outcomeOfLast : 'done', moves: 0, hints: 0, wrong_submissions: 0 };
    t += d * 1000;
    return x;
  });
  s.step = step;
  return s;
}

describe('dropoutFunnel', () => {
  it('counts reach, where sessions stopped by kind, and the median time of each step', () => {
    const f = dropoutFunnel(steps, [
      session('done1', 'complete', 4, [10, 60, 100, 5]),
      session('done2', 'complete', 4, [20, 40, 300, 7]),
      session('declined', 'declined', 1, [30], 'declined'),
      session('screened', 'screened_out', 2, [12, 50], 'screened_out'),
      session('left', 'abandoned', 2, [8, 30]),
      session('here', 'active', 3, [6, 20, 200]),
    ]);
    expect(f).toMatchObject({ sessions: 6, complete: 2, declined: 1, screened_out: 1, abandoned: 1, active: 1 });
    expect(f.steps.map((r) => r.reached)).toEqual([6, 5, 4, 3, 2]);
    expect(f.steps.map((r) => r.declined_here)).toEqual([1, 0, 0, 0, 0]);
    expect(f.steps.map((r) => r.screened_out_here)).toEqual([0, 1, 0, 0, 0]);
    expect(f.steps.map((r) => r.left_here)).toEqual([0, 0, 1, 0, 0]);
    expect(f.steps.map((r) => r.here_now)).toEqual([0, 0, 0, 1, 0]);
    expect(f.steps.map((r) => r.median_time_s)).toEqual([11, 40, 200, 6, null]);
    expect(f.steps.map((r) => r.timed)).toEqual([6, 5, 3, 2, 0]);
  });

  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('rounds the median to the millisecond, like every other export (issue 32: 1.8104999999999998)', () => {
    const f = dropoutFunnel(steps, [session('a', 'complete', 4, [1.799]), session('b', 'complete', 4, [1.822])]);
    expect(f.steps[0].median_time_s).toBe(1.811);
  });
});

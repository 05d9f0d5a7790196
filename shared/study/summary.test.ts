// Tests for the dashboard's session summaries: the fold over logged records, liveness by silence, pool balance.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIVENESS,
  SessionSummary,
  completion,
  connectionState,
  foldRecords,
  poolBalance,
  summarizeSession,
  timeInStep,
  type PoolSequence,
  type SummaryMeta,
} from './summary.ts';
import { parseRecord } from '../log/record.ts';
import type { LoggedEvent } from '../schema/event.ts';

const T0 = 1_780_000_000_000;
const meta: SummaryMeta = { session_id: 's1', mode: 'kiosk', label: 'P07', status: 'active', created_at: T0, sequence: ['a', 'b', 'c'], total_steps: 13 };

/** A record as the reader gives it (parseRecord checks it against the schema). */
function read(raw: object): LoggedEvent {
  const parsed = parseRecord(raw);
  if (parsed.kind !== 'event') throw new Error(`not a logged event: ${JSON.stringify(parsed)}`);
  return parsed.event;
}
const stamps = { config_hash: 'h', app_version: '0.1.0' };
let seq = 0;
function client(type: string, step: number, t: number, payload: object, extra: object = {}): LoggedEvent {
  seq++;
  return read({ session_id: 's1', origin: 'client', type, step, phase: 'puzzles', puzzle_id: null, position: null, t_mono: t, t_wall: T0 + t, source: 'mouse', t_server: T0 + t, seq, payload, ...stamps, ...extra });
}
function server(type: string, t: number, payload: object): LoggedEvent {
  return read({ session_id: 's1', origin: 'server', type, t_server: T0 + t, payload, ...stamps });
}

/** A session that did consent (step 0), then puzzle a at position 1 (step 4): moves, a wrong submit, a hint, solved. */
function records(): LoggedEvent[] {
  const onA = { puzzle_id: 'a', position: 1 };
  return [
    server('session_start', 0, { mode: 'kiosk', sequence: ['a', 'b', 'c'], sequence_id: 7, round: 1 }),
    client('step_start', 0, 100, { kind: 'consent' }, { phase: 'consent' }),
    client('consent', 0, 900, { agreed: true }, { phase: 'consent' }),
    client('step_end', 0, 1_000, { kind: 'consent', reason: 'done' }, { phase: 'consent' }),
    client('step_start', 4, 2_000, { kind: 'puzzle' }, onA),
    client('move', 4, 3_000, { move: { type: 'fill', row: 0, col: 0 } }, onA),
    client('move', 4, 3_500, { move: { type: 'stroke', state: 'filled', cells: [[1, 0], [1, 1]] } }, onA),
    client('move', 4, 3_700, { move: { type: 'submit' } }, onA),
    server('check', 3_800, { puzzle_id: 'a', position: 1, solved: false, wrong_cells: 2 }),
    client('move', 4, 4_000, { move: { type: 'hint' } }, onA),
    server('hint', 4_100, { puzzle_id: 'a', row: 0, col: 1, kind: 'cell', reasoning: 'overlap' }),
    client('move', 4, 4_500, { move: { type: 'undo' } }, onA),
    client('visibility', 4, 5_000, { state: 'hidden' }, onA),
    client('step_end', 4, 9_000, { kind: 'puzzle', reason: 'solved' }, onA),
  ];
}

describe('summarizeSession', () => {
  it('counts board moves, hints and wrong submissions per session and per step', () => {
    const s = summarizeSession(meta, records());
    expect(s.moves).toBe(3); // fill, stroke, undo; hint and submit are not board moves
    expect(s.hints).toBe(1);
    expect(s.wrong_submissions).toBe(1);
    expect(s.solved).toBe(1);
    expect(s.skipped).toBe(0);
    expect(s.visible).toBe(false);
    expect(s.last_activity).toBe(T0 + 9_000);
    const attempt = s.steps.find((x) => x.step === 4)!;
    expect(attempt).toMatchObject({ kind: 'puzzle', puzzle_id: 'a', position: 1, moves: 3, hints: 1, wrong_submissions: 1, outcome: 'solved', started_at: T0 + 2_000, ended_at: T0 + 9_000 });
    expect(s.steps.map((x) => x.step)).toEqual([0, 4]);
  });

  it("keeps the tutorial's and warm-up's practice apart from study puzzles (issue 32)", () => {
    // The tutorial (step 1) with a practice submit that is not solved yet and a hint, then the warm-up, then puzzle a.
    const tut = { phase: 'tutorial', puzzle_id: 'practice', position: null };
    const warm = { phase: 'warmup', puzzle_id: 'practice2', position: null };
    const [start, ...rest] = records();
    const practice = [
      client('step_start', 1, 1_100, { kind: 'tutorial' }, tut),
      client('move', 1, 1_200, { move: { type: 'fill', row: 0, col: 0 } }, tut),
      client('move', 1, 1_300, { move: { type: 'submit' } }, tut),
      server('check', 1_310, { puzzle_id: 'practice', position: null, solved: false, wrong_cells: 1 }),
      server('hint', 1_320, { puzzle_id: 'practice', row: 0, col: 1, kind: 'cell', reasoning: 'overlap' }),
      client('step_end', 1, 1_400, { kind: 'tutorial', reason: 'done' }, tut),
      client('step_start', 2, 1_500, { kind: 'warmup' }, warm),
      client('move', 2, 1_600, { move: { type: 'cross', row: 0, col: 0 } }, warm),
      client('step_end', 2, 1_700, { kind: 'warmup', reason: 'timeout' }, warm),
    ];
    const s = summarizeSession(meta, [start, ...rest.slice(0, 3), ...practice, ...rest.slice(3)]);
    // The study puzzle's counts, as without the practice.
    expect(s).toMatchObject({ moves: 3, hints: 1, wrong_submissions: 1 });
    expect(s.practice).toEqual({ moves: 2, hints: 1, wrong_submissions: 1 });
    expect(s.steps.find((x) => x.step === 1)).toMatchObject({ kind: 'tutorial', moves: 1, hints: 1, wrong_submissions: 1 });
    // A summary from before the split (no practice field) still reads.
    expect(SessionSummary.parse({ ...s, practice: undefined }).practice).toEqual({ moves: 0, hints: 0, wrong_submissions: 0 });
  });

  it('tracks the current step and when it began; a repeated step_start (a resume) keeps the start', () => {
    const rs = records().slice(0, 6);
    const s = summarizeSession(meta, rs);
    expect(s).toMatchObject({ step: 4, step_kind: 'puzzle', puzzle_id: 'a', position: 1, step_started_at: T0 + 2_000 });
    const resumed = foldRecords(s, [client('step_start', 4, 60_000, { kind: 'puzzle' }, { puzzle_id: 'a', position: 1 })]);
    expect(resumed.step_started_at).toBe(T0 + 2_000);
    expect(resumed.steps).toHaveLength(2);
    expect(timeInStep(resumed, T0 + 62_000)).toBe(60_000);
  });

  it('folding in batches equals folding all at once', () => {
    const rs = records();
    const whole = summarizeSession(meta, rs);
    for (const cut of [1, 4, 7, 11]) {
      const parts = foldRecords(summarizeSession(meta, rs.slice(0, cut)), rs.slice(cut));
      expect(parts).toEqual(whole);
    }
  });

  it('does not change the summary it folds into', () => {
    const s = summarizeSession(meta, records().slice(0, 5));
    const copy = structuredClone(s);
    foldRecords(s, records().slice(5));
    expect(s).toEqual(copy);
  });

  it('notes completion, and a session ended at the step_end that declines or screens out (the progression`s rule)', () => {
    const done = summarizeSession(meta, [...records(), server('session_complete', 20_000, { code: 'X' })]);
    expect(done.status).toBe('complete');
    expect(done.completed_at).toBe(T0 + 20_000);
    expect(completion(done)).toBe(1);
    const refused = summarizeSession(meta, [client('consent', 0, 10, { agreed: false }, { phase: 'consent' })]);
    expect(refused.status).toBe('active');
    const declined = foldRecords(refused, [client('step_end', 0, 20, { kind: 'consent', reason: 'declined' }, { phase: 'consent' })]);
    expect(declined.status).toBe('declined');
    const screened = summarizeSession(meta, [client('step_end', 2, 30, { kind: 'survey', reason: 'screened_out' }, { phase: 'pre' })]);
    expect(screened.status).toBe('screened_out');
  });

  it('takes the experimenter`s mark from the last session_mark record', () => {
    const marked = summarizeSession(meta, [server('session_mark', 10, { mark: 'pilot' })]);
    expect(marked.flag).toBe('pilot');
    expect(foldRecords(marked, [server('session_mark', 20, { mark: 'excluded' })]).flag).toBe('excluded');
    expect(foldRecords(marked, [server('session_mark', 20, { mark: null })]).flag).toBeNull();
  });

  it('folds only what the reader gives: records it refuses never reach the fold', () => {
    for (const bad of [{ type: 'move', origin: 'client', payload: null }, { origin: 'client', type: 'step_end', step: 'x' }, {}])
      expect(() => read({ session_id: 's1', t_server: T0, ...bad })).toThrow(/not a logged event/);
  });
});

describe('connectionState', () => {
  const base = summarizeSession(meta, records().slice(0, 6)); // last activity T0 + 3000, page visible
  const at = (silence: number) => base.last_activity + silence;

  it('goes active -> idle -> disconnected -> abandoned as silence grows', () => {
    expect(connectionState(base, at(1_000))).toBe('active');
    expect(connectionState(base, at(DEFAULT_LIVENESS.idle_ms))).toBe('idle');
    expect(connectionState(base, at(DEFAULT_LIVENESS.disconnected_ms))).toBe('disconnected');
    expect(connectionState(base, at(DEFAULT_LIVENESS.abandoned_ms))).toBe('abandoned');
  });

  it('counts a hidden page as idle at once', () => {
    const hidden = foldRecords(base, [client('visibility', 4, 3_100, { state: 'hidden' })]);
    expect(connectionState(hidden, at(200))).toBe('idle');
  });

  it('an extension holds off abandonment until it runs out; ending by hand abandons at once', () => {
    const late = at(DEFAULT_LIVENESS.abandoned_ms + 1_000);
    expect(connectionState({ ...base, extended_until: late + 1 }, late)).toBe('disconnected');
    expect(connectionState({ ...base, extended_until: late }, late)).toBe('abandoned');
    expect(connectionState({ ...base, ended_at: at(5) }, at(10))).toBe('abandoned');
  });

  it('says finished once the server closed the session', () => {
    expect(connectionState({ ...base, status: 'complete' }, at(DEFAULT_LIVENESS.abandoned_ms * 2))).toBe('finished');
    expect(timeInStep({ ...base, status: 'complete' }, at(1_000))).toBe(0);
  });

  it('reports completion as the share of steps done', () => {
    expect(completion(base)).toBeCloseTo(4 / 13);
  });
});

describe('poolBalance', () => {
  const seqOf = (id: number, puzzle_ids: string[], status: PoolSequence['status'], flag: PoolSequence['flag'] = null): PoolSequence => ({
    id,
    round: 1,
    puzzle_ids,
    status,
    session_id: status === 'free' ? null : `s${id}`,
    flag,
  });

  it('counts statuses and attempts per puzzle and per (puzzle, position), leaving flagged sessions out', () => {
    const b = poolBalance(
      [
        seqOf(1, ['a', 'b', 'c'], 'used'),
        seqOf(2, ['b', 'c', 'a'], 'leased'),
        seqOf(3, ['c', 'a', 'b'], 'used', 'pilot'),
        seqOf(4, ['a', 'c', 'b'], 'free'),
      ],
      ['a', 'b', 'c', 'd'],
    );
    expect(b).toMatchObject({ free: 1, leased: 1, used: 2, flagged: 1, positions: 3, current_round: 1 });
    expect(b.per_puzzle).toEqual({ a: 2, b: 2, c: 2, d: 0 });
    expect(b.per_position).toEqual({ a: [1, 0, 1], b: [1, 1, 0], c: [0, 1, 1], d: [0, 0, 0] });
    expect(b.puzzle_spread).toBe(2);
    expect(b.position_spread).toBe(1);
  });

  it('is all zeros for an empty pool', () => {
    const b = poolBalance([], ['a']);
    expect(b).toMatchObject({ free: 0, leased: 0, used: 0, positions: 0, puzzle_spread: 0, per_puzzle: { a: 0 } });
  });
});

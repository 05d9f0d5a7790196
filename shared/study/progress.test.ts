// Tests for the resume fold (sessionProgress) and the acknowledged progress (loggedProgress), over records as the reader gives them.
import { describe, expect, it } from 'vitest';
import { finalRows, loggedProgress, sessionProgress } from './progress.ts';
import { parseRecord } from '../log/record.ts';
import { stampClient, receiveClient, stampServer } from '../schema/stamp.ts';
import type { ClientEvent, ClientEventType, LoggedEvent } from '../schema/event.ts';

const SID = 's1';
const T0 = 1_780_000_000_000;
const AT = { t_server: T0, config_hash: 'h', app_version: '0.1.0' };

/** A client event as the page stamps it (the schema checks it), at step `step` of puzzle `puzzle` (null: none). */
function ev(seq: number, type: ClientEventType, payload: unknown, step = 0, puzzle: string | null = null): ClientEvent {
  const e = stampClient(
    { session_id: SID, seq, step, phase: puzzle ? 'puzzles' : 'consent', puzzle_id: puzzle, position: puzzle ? 1 : null, t_mono: seq * 100, t_wall: T0 + seq * 100, source: 'mouse' },
    type,
    payload,
  );
  expect(e.type, JSON.stringify(e.payload)).toBe(type);
  return e;
}
/** The same event as the server logs it, read back through parseRecord. */
function logged(e: ClientEvent): LoggedEvent {
  const parsed = parseRecord(JSON.parse(JSON.stringify(receiveClient(e, AT))));
  if (parsed.kind !== 'event') throw new Error(JSON.stringify(parsed));
  return parsed.event;
}
const server = (type: 'session_start' | 'check'): LoggedEvent =>
  type === 'check'
    ? stampServer({ type, session_id: SID, payload: { puzzle_id: 'p', position: 1, solved: false, wrong_cells: 1 } }, AT)
    : stampServer({ type, session_id: SID, payload: { mode: 'general', sequence: ['p'], sequence_id: 1, round: 1 } }, AT);

describe('sessionProgress (the resume fold)', () => {
  const fill = (seq: number, row: number, col: number, step = 4) => ev(seq, 'move', { move: { type: 'fill', row, col } }, step, 'p');
  const session = (): ClientEvent[] => [
    ev(1, 'consent', { agreed: true }),
    ev(2, 'step_end', { kind: 'consent', reason: 'done' }),
    fill(3, 0, 0),
    ev(4, 'move', { move: { type: 'stroke', state: 'crossed', cells: [[1, 0], [1, 1]] } }, 4, 'p'),
    ev(5, 'move', { move: { type: 'undo' } }, 4, 'p'),
    ev(6, 'step_end', { kind: 'puzzle', reason: 'solved' }, 4, 'p'),
    ev(7, 'rating', { difficulty: 2, guessing: 'Rarely' }, 5, 'p'),
    ev(8, 'step_end', { kind: 'rating', reason: 'done' }, 5, 'p'),
    fill(9, 1, 1, 6),
    ev(10, 'step_end', { kind: 'puzzle', reason: 'skipped' }, 6, 'q'),
    ev(11, 'rating', { difficulty: null, guessing: 'Often' }, 7, 'q'),
    ev(12, 'rating_revise', { rated_puzzle_id: 'p', from: 2, to: 4 }, 8),
    ev(13, 'rating_revise', { rated_puzzle_id: 'unrated', from: null, to: 1 }, 8),
  ];

  it('gives each step its moves in order, each puzzle its outcome, and the latest rating (a revision overrides the difficulty)', () => {
    const progress = sessionProgress(session());
    expect(progress.movesByStep).toEqual({
      4: [{ type: 'fill', row: 0, col: 0 }, { type: 'stroke', state: 'crossed', cells: [[1, 0], [1, 1]] }, { type: 'undo' }],
      6: [{ type: 'fill', row: 1, col: 1 }],
    });
    // The rating step's own step_end is not the puzzle's outcome.
    expect(progress.outcomes).toEqual({ p: 'solved', q: 'skipped' });
    // A revision of a puzzle never rated is ignored.
    expect(progress.ratings).toEqual({ p: { difficulty: 4, guessing: 'Rarely' }, q: { difficulty: null, guessing: 'Often' } });
    expect(finalRows(progress.movesByStep, 4, 2, 2)).toEqual(['#?', '??']);
  });

  it('folds the logged records (server records skipped) to the same progress as the client`s own events', () => {
    const records = [server('session_start'), ...session().map(logged)];
    records.splice(5, 0, server('check'));
    expect(sessionProgress(records)).toEqual(sessionProgress(session()));
  });

  it('resumes across batches: the server`s part plus the client`s unsent part equals the whole (the boot merge)', () => {
    const all = session();
    for (const cut of [0, 3, 4, 9, all.length]) {
      const acked = sessionProgress(all.slice(0, cut).map(logged));
      const ahead = sessionProgress(all.slice(cut));
      const merged: Record<number, unknown[]> = {};
      for (const part of [acked.movesByStep, ahead.movesByStep]) for (const [k, v] of Object.entries(part)) (merged[Number(k)] ??= []).push(...v);
      expect(merged).toEqual(sessionProgress(all).movesByStep);
      expect({ ...acked.outcomes, ...ahead.outcomes }).toEqual(sessionProgress(all).outcomes);
    }
  });

  it('is empty for a session that has done nothing', () => {
    expect(sessionProgress([server('session_start')])).toEqual({ ratings: {}, outcomes: {}, movesByStep: {} });
  });
});

describe('loggedProgress', () => {
  const client = (seq: number, type: ClientEventType = 'visibility', step = 0) =>
    logged(ev(seq, type, type === 'step_end' ? { kind: 'puzzle', reason: 'done' } : { state: 'visible' }, step));
  it('counts client records up to the first gap and the step after the last step ended within them', () => {
    expect(loggedProgress([])).toEqual({ acked_seq: 0, step: 0 });
    const records = [
      server('session_start'),
      client(1, 'step_end', 0),
      client(2),
      server('check'),
      client(3, 'step_end', 2),
      // seq 4 is missing: what lies beyond the gap is not acknowledged.
      client(5, 'step_end', 3),
    ];
    expect(loggedProgress(records)).toEqual({ acked_seq: 3, step: 3 });
    // A record repeated (never written twice by the server, but a file could be edited by hand) does not count twice.
    expect(loggedProgress([client(1), client(1), client(2, 'step_end', 1)])).toEqual({ acked_seq: 2, step: 2 });
    // An earlier step ended again does not move the session back.
    expect(loggedProgress([client(1, 'step_end', 3), client(2, 'step_end', 1)])).toEqual({ acked_seq: 2, step: 4 });
  });
});

// Signals on hand-made logs: every column checked against numbers worked out by hand.
import { describe, expect, it } from 'vitest';
import { parseSessionNdjson, sessionFromRecords, LogFormatError } from './session.ts';
import { sessionSignals, applyPauseThreshold, type SignalPuzzle } from './attempts.ts';
import { elapsedMs } from '../log/rules.ts';
import { participantRow, answerRows } from './participants.ts';
import { AttemptRow, ParticipantRow } from './schema.ts';

const SID = 'sA';
const T0 = 1_780_000_000_000;
// 3x3 puzzle: solution
//   ##.
//   .#.
//   ###
const P: SignalPuzzle = { id: 'p3', width: 3, height: 3, solution: ['##.', '.#.', '###'] };
const Q: SignalPuzzle = { id: 'q3', width: 3, height: 3, solution: ['#..', '...', '..#'] };
const puzzles = new Map([P, Q].map((p) => [p.id, p]));

function builder() {
  const records: object[] = [];
  let seq = 0;
  const server = (type: string, payload: object, t: number) =>
    records.push({ type, session_id: SID, payload, origin: 'server', t_server: T0 + t, config_hash: 'h', app_version: '0.1.0' });
  const client = (type: string, payload: object, at: { step: number; phase: string; puzzle_id?: string | null; position?: number | null; t: number; wall?: number; source?: string }) => {
    seq += 1;
    records.push({
      session_id: SID,
      seq,
      step: at.step,
      phase: at.phase,
      puzzle_id: at.puzzle_id ?? null,
      position: at.position ?? null,
      t_mono: at.t,
      t_wall: at.wall ?? T0 + at.t,
      source: at.source ?? 'mouse',
      type,
      payload,
      origin: 'client',
      t_server: T0 + at.t + 50,
      config_hash: 'h',
      app_version: '0.1.0',
    });
  };
  return { records, server, client };
}

/** Warmup (excluded), pre-survey, puzzle 1 solved with errors/undo/hint/wrong submit, puzzle 2 skipped, revision. */
function sessionLog() {
  const { records, server, client } = builder();
  server('session_start', { mode: 'general', sequence: ['p3', 'q3'], sequence_id: 1, round: 1 }, 0);
  client('consent', { agreed: true }, { step: 0, phase: 'consent', t: 1000 });
  // warmup on p3 (no position): must not produce a row
  const W = { step: 1, phase: 'warmup', puzzle_id: 'p3' };
  client('step_start', { kind: 'warmup' }, { ...W, t: 2000 });
  client('move', { move: { type: 'fill', row: 0, col: 2 } }, { ...W, t: 2500 });
  client('step_end', { kind: 'warmup', reason: 'timeout' }, { ...W, t: 3000 });
  client('survey_submit', {
    survey_id: 'pre_survey',
    answers: { nonogram_skill: 7, puzzle_skill: 4, nonogram_frequency: 'Often (about weekly)', logic_frequency: 'Never', nonogram_sizes: ['10x10', '15x15'], academic_program: 'Physics' },
  }, { step: 2, phase: 'pre_survey', t: 4000 });
  const A = { step: 3, phase: 'puzzles', puzzle_id: 'p3', position: 1 };
  client('step_start', { kind: 'puzzle' }, { ...A, t: 10_000 });
  client('move', { move: { type: 'stroke', state: 'filled', cells: [[0, 0], [0, 1], [0, 2]] } }, { ...A, t: 12_000 }); // 1 error (0,2)
  client('move', { move: { type: 'undo' } }, { ...A, t: 12_300 });
  client('move', { move: { type: 'fill', row: 0, col: 0 } }, { ...A, t: 12_400 });
  client('move', { move: { type: 'fill', row: 1, col: 0 } }, { ...A, t: 17_400 }); // error (1,0)
  client('move', { move: { type: 'fill', row: 1, col: 0 } }, { ...A, t: 17_600 }); // toggles it off: no error
  client('move', { move: { type: 'submit' } }, { ...A, t: 18_000 });
  server('check', { puzzle_id: 'p3', position: 1, solved: false, wrong_cells: 0 }, 18_050);
  client('submit_result', { solved: false }, { ...A, t: 18_100 });
  client('move', { move: { type: 'hint' } }, { ...A, t: 21_100 });
  server('hint', { puzzle_id: 'p3', row: 0, col: 1, kind: 'cell', reasoning: 'overlap' }, 21_150);
  client('hint_shown', { row: 0, col: 1, explanation: 'x' }, { ...A, t: 21_200 });
  client('move', { move: { type: 'reveal', row: 0, col: 1, state: 'filled' } }, { ...A, t: 21_200, source: 'system' });
  client('move', { move: { type: 'stroke', state: 'filled', cells: [[2, 0], [2, 1], [2, 2]] } }, { ...A, t: 22_000 });
  client('move', { move: { type: 'fill', row: 1, col: 1 } }, { ...A, t: 22_500 });
  client('move', { move: { type: 'submit' } }, { ...A, t: 23_000 });
  server('check', { puzzle_id: 'p3', position: 1, solved: true, wrong_cells: 0 }, 23_050);
  client('submit_result', { solved: true }, { ...A, t: 23_200 });
  client('step_end', { kind: 'puzzle', reason: 'solved' }, { ...A, t: 23_200 });
  const AR = { ...A, step: 4 };
  client('step_start', { kind: 'rating' }, { ...AR, t: 23_300 });
  client('rating', { difficulty: 2, guessing: 'Rarely' }, { ...AR, t: 25_000 });
  client('step_end', { kind: 'rating', reason: 'done' }, { ...AR, t: 25_000 });
  // puzzle 2, after a page reload: t_mono restarts at 0, the wall clock goes on.
  const B = { step: 5, phase: 'puzzles', puzzle_id: 'q3', position: 2 };
  client('step_start', { kind: 'puzzle' }, { ...B, t: 30_000 });
  client('move', { move: { type: 'cross', row: 1, col: 1 } }, { ...B, t: 31_000 });
  client('move', { move: { type: 'reset' } }, { ...B, t: 100, wall: T0 + 40_000 });
  client('move', { move: { type: 'fill', row: 1, col: 1 } }, { ...B, t: 400, wall: T0 + 40_300 }); // error
  client('move', { move: { type: 'skip' } }, { ...B, t: 2_400, wall: T0 + 42_300 });
  client('step_end', { kind: 'puzzle', reason: 'skipped' }, { ...B, t: 2_400, wall: T0 + 42_300 });
  const BR = { ...B, step: 6 };
  client('rating', { difficulty: null, guessing: 'Often' }, { ...BR, t: 3_000, wall: T0 + 43_000 });
  client('survey_submit', { survey_id: 'post_survey', answers: { why_p3: 'the edges were easy', why_q3: '', strategies: 'footholds first', guessing_overall: 'Rarely' } }, { step: 7, phase: 'post_survey', t: 9_000, wall: T0 + 49_000 });
  client('rating_revise', { rated_puzzle_id: 'p3', from: 2, to: 3 }, { step: 7, phase: 'post_survey', t: 8_000, wall: T0 + 48_000 });
  client('step_end', { kind: 'post_survey', reason: 'done' }, { step: 7, phase: 'post_survey', t: 9_100, wall: T0 + 49_100 });
  server('session_complete', { code: 'C' }, 50_000);
  return records;
}

describe('signals', () => {
  const records = sessionLog();
  const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const log = parseSessionNdjson(text, 'sA.ndjson');

  it('gives one row per study puzzle with exact counts and times, warmup left out', () => {
    const { attempts } = sessionSignals(log, puzzles, { pauseThresholdS: 2.36 });
    expect(attempts.map((a) => a.puzzle_id)).toEqual(['p3', 'q3']);
    for (const a of attempts) expect(AttemptRow.safeParse(a).success).toBe(true);
    const [a, b] = attempts;
    expect(a).toEqual({
      participant_id: SID, puzzle_id: 'p3', position: 1, step: 3, outcome: 'solved', solved: true, skipped: false,
      time_s: 13, // step_start 10.0 s -> the correct submit at 23.0 s
      first_action_s: 2,
      actions: 10, moves: 6, strokes: 2, cells_filled: 9, errors: 2, error_cells: 2, hints: 1, undos: 1, resets: 0, submissions: 2, wrong_submissions: 1, // the reveal is not a fill
      gaps: 9, median_gap_s: 0.5,
      pauses: 2, // 5.0 s (12.4 -> 17.4) and 3.1 s (18.0 -> 21.1); the other gaps are under 1 s
      pause_time_s: 8.1,
      pause_threshold_s: 2.36,
      first_row: 0, first_col: 0, final_wrong_cells: 0,
      difficulty_initial: 2, difficulty: 3, guessing: 'Rarely', guessing_level: 2,
    });
    expect(b).toMatchObject({
      outcome: 'skipped', skipped: true, solved: false,
      time_s: 12.3, // 30.0 s -> the skip at wall 42.3 s (t_mono restarted: the wall clock is used)
      actions: 4, moves: 2, errors: 1, resets: 1, hints: 0, submissions: 0, wrong_submissions: 0,
      gaps: 3, pauses: 1, pause_time_s: 9, first_row: 1, first_col: 1, final_wrong_cells: 1,
      difficulty_initial: null, difficulty: null, guessing: 'Often', guessing_level: 4,
    });
  });

  it('counts the hints shown, not the presses: a press whose request failed (offline) is no hint', () => {
    // The same session with one more press of Hint before the real one, which the page could not send a request for:
    // no server hint record, no hint_shown.
    const extra = sessionLog();
    const at = extra.findIndex((r) => (r as { type?: string }).type === 'hint');
    const press = JSON.parse(JSON.stringify(extra[at - 1]));
    press.t_mono -= 1_000;
    press.t_wall -= 1_000;
    const renumbered = [...extra.slice(0, at - 1), press, ...extra.slice(at - 1)];
    let seq = 0;
    for (const r of renumbered) if ('seq' in r && typeof r.seq === 'number') r.seq = ++seq;
    const failedLog = parseSessionNdjson(renumbered.map((r) => JSON.stringify(r)).join('\n') + '\n', 'sA.ndjson');
    const [a] = sessionSignals(failedLog, puzzles, { pauseThresholdS: 2.36 }).attempts;
    expect(a.actions).toBe(11); // the press is still an action of the participant
    expect(a.hints).toBe(1); // but only one hint was shown
  });

  it('hands the same gaps to onGap as numbers, with the index of their attempt', () => {
    const { attempts, gaps } = sessionSignals(log, puzzles);
    const seen: { participant_id: string; puzzle_id: string; position: number; index: number; cell: number | null; gap_s: number; action: string }[] = [];
    const cols = sessionSignals(log, puzzles, {
      onGap: (attempt, index, gap_s, action, cell) =>
        seen.push({ participant_id: attempts[attempt].participant_id, puzzle_id: attempts[attempt].puzzle_id, position: attempts[attempt].position, index, cell: cell < 0 ? null : cell, gap_s, action }),
    });
    expect(cols.gaps).toEqual([]);
    expect(cols.attempts).toEqual(attempts);
    expect(seen).toEqual(gaps);
  });

  it('takes gaps at the cell level inside a timed stroke (action level as an option), and counts distinct error cells', () => {
    const { records, client } = builder();
    const A = { step: 3, phase: 'puzzles', puzzle_id: 'p3', position: 1 };
    client('step_start', { kind: 'puzzle' }, { ...A, t: 10_000 });
    client('move', { move: { type: 'fill', row: 0, col: 2 } }, { ...A, t: 11_000 }); // error
    client('move', { move: { type: 'fill', row: 0, col: 2 } }, { ...A, t: 11_500 }); // toggled off
    client('move', { move: { type: 'fill', row: 0, col: 2 } }, { ...A, t: 12_000 }); // the same wrong cell again: a second error
    // a drag whose cells were reached at 13.70, 13.72 and 13.75 s, logged at the pointer-up (14.0 s)
    client('move', { move: { type: 'stroke', state: 'filled', cells: [[2, 0], [2, 1], [2, 2]], cell_ms: [-300, -280, -250] } }, { ...A, t: 14_000 });
    client('move', { move: { type: 'skip' } }, { ...A, t: 15_000 });
    client('step_end', { kind: 'puzzle', reason: 'skipped' }, { ...A, t: 15_000 });
    const one = sessionFromRecords(records);
    const cell = sessionSignals(one, puzzles, { pauseThresholdS: 1.2 });
    expect(cell.gaps.map((g) => [g.index, g.cell, g.gap_s])).toEqual([
      [2, null, 0.5], [3, null, 0.5], [4, 0, 1.7], [4, 1, 0.02], [4, 2, 0.03], [5, null, 1.25],
    ]);
    expect(cell.attempts[0]).toMatchObject({ errors: 2, error_cells: 1, cells_filled: 5, gaps: 6, pauses: 2, pause_time_s: 2.95 });
    const action = sessionSignals(one, puzzles, { pauseThresholdS: 1.2, gapLevel: 'action' });
    expect(action.gaps.map((g) => [g.index, g.cell, g.gap_s])).toEqual([[2, null, 0.5], [3, null, 0.5], [4, null, 2], [5, null, 1]]);
    expect(action.attempts[0]).toMatchObject({ gaps: 4, pauses: 1, pause_time_s: 2 });
    // a stroke without cell times (older logs) is one point at either level
    const old = sessionFromRecords(records.map((r) => (JSON.stringify(r).includes('cell_ms') ? JSON.parse(JSON.stringify(r).replace(/,"cell_ms":\[[^\]]*\]/, '')) : r)));
    expect(sessionSignals(old, puzzles).gaps.map((g) => g.gap_s)).toEqual([0.5, 0.5, 2, 1]);
  });

  it('lists the gaps and recounts pauses for a new threshold', () => {
    const { attempts, gaps } = sessionSignals(log, puzzles);
    expect(attempts[0].pauses).toBeNull();
    // hint 21.1 -> stroke 22.0: the system reveal in between is not an action
    expect(gaps.filter((g) => g.puzzle_id === 'p3').map((g) => g.gap_s)).toEqual([0.3, 0.1, 5, 0.2, 0.4, 3.1, 0.9, 0.5, 0.5]);
    expect(gaps.filter((g) => g.puzzle_id === 'q3').map((g) => g.gap_s)).toEqual([9, 0.3, 2]);
    const again = applyPauseThreshold(attempts, gaps, 1);
    expect(again.map((a) => a.pauses)).toEqual([2, 2]);
    expect(again.map((a) => a.pause_time_s)).toEqual([8.1, 11]);
  });

  it('codes the six expertise items and reads status', () => {
    const row = participantRow(log, 2);
    expect(ParticipantRow.safeParse(row).success).toBe(true);
    expect(row).toMatchObject({
      participant_id: SID, status: 'complete', attempts: 2, config_hash: 'h',
      nonogram_skill: 7, puzzle_skill: 4, nonogram_frequency: 4, logic_frequency: 1, nonogram_sizes: 2, logic_types: 0,
    });
    expect(row.started_at).toBe(new Date(T0).toISOString());
    // A log from before studies had languages (no lang on session_start): English, as its page was; else the stamped lang.
    expect(row.language).toBe('en');
    const german = { ...log, server: log.server.map((s) => (s.type === 'session_start' ? { ...s, payload: { ...s.payload, lang: 'de' } } : s)) } as typeof log;
    expect(participantRow(german, 2).language).toBe('de');
    expect(participantRow({ ...log, server: log.server.filter((s) => s.type !== 'session_start') }, 2).language).toBeNull();
  });

  it('keeps free-text answers with their puzzle', () => {
    const rows = answerRows(log, [{ type: 'single', id: 'guessing_overall', label: 'g', required: true, options: ['Never', 'Rarely'] }]);
    expect(rows).toEqual([
      { participant_id: SID, item: 'academic_program', puzzle_id: null, text: 'Physics' },
      { participant_id: SID, item: 'why', puzzle_id: 'p3', text: 'the edges were easy' },
      { participant_id: SID, item: 'strategies', puzzle_id: null, text: 'footholds first' },
    ]);
  });

  it('uses the monotonic clock unless it disagrees with the wall clock', () => {
    expect(elapsedMs({ t_mono: 100, t_wall: 5_000 }, { t_mono: 350, t_wall: 5_260 })).toBe(250);
    expect(elapsedMs({ t_mono: 9_000, t_wall: 5_000 }, { t_mono: 10, t_wall: 8_000 })).toBe(3_000);
  });

  it('names the line and the field of a bad record, and drops duplicate sequence numbers', () => {
    const bad = records.map((r) => JSON.stringify(r));
    bad[3] = bad[3].replace('"t_mono":2500', '"t_mono":"x"');
    expect(() => parseSessionNdjson(bad.join('\n'), 'f.ndjson')).toThrow(/f\.ndjson:4: .*t_mono/);
    expect(() => parseSessionNdjson('{"a":1}\n{oops\n', 'g.ndjson')).toThrow(LogFormatError);
    const dup = sessionFromRecords([...records, records[2]]);
    expect(dup.client.length).toBe(log.client.length);
  });

  it('reads pilot marks and an incomplete session', () => {
    const cut = records.slice(0, 12).concat([{ type: 'session_mark', session_id: SID, payload: { mark: 'pilot' }, origin: 'server', t_server: T0, config_hash: 'h', app_version: 'x' }]);
    const partial = sessionFromRecords(cut);
    expect(partial.marks).toEqual(['pilot']);
    const { attempts } = sessionSignals(partial, puzzles);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ outcome: 'incomplete', time_s: 7.6, actions: 5 });
    expect(participantRow(partial, 1).status).toBe('incomplete');
  });
});

describe('the fast path past zod inside the session reader', () => {
  const base = {
    session_id: 's1', seq: 3, step: 4, phase: 'puzzles', puzzle_id: 'p3', position: 1, t_mono: 10.5, t_wall: T0, source: 'mouse', type: 'move',
    origin: 'client', t_server: T0 + 5, config_hash: 'h', app_version: '0.1.0',
  };
  const moves: object[] = [{ type: 'fill', row: 0, col: 2 }];
  // (Which records the fast path takes is tested against cases generated from the schema: shared/log/record.test.ts.)
  it('a bad move record still gets zod\'s message naming the file, line and field', () => {
    const good = JSON.stringify({ ...base, seq: 1, payload: { move: moves[0] } });
    const badLine = JSON.stringify({ ...base, seq: 2, payload: { move: { type: 'fill', row: 100, col: 0 } } });
    expect(() => parseSessionNdjson(`${good}\n${badLine}\n`, 'f.ndjson')).toThrow(/^f\.ndjson:2: client event 'move': .*row/);
  });
});

describe('signals: a hint is one that was shown (issue 32)', () => {
  it('a Hint press whose request failed (no server hint, no hint_shown) is not counted', () => {
    const records = sessionLog() as { type: string; origin: string; seq?: number; payload: { move?: { type: string } } }[];
    const at = records.findIndex((r) => r.origin === 'client' && r.type === 'move' && r.payload.move?.type === 'hint');
    // The press before it failed (offline): a move record only, then the participant pressed again and got the hint.
    records.splice(at, 0, structuredClone(records[at]));
    let seq = 0;
    for (const r of records) if (r.origin === 'client') r.seq = ++seq;
    const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    const { attempts } = sessionSignals(parseSessionNdjson(text, 'sA.ndjson'), puzzles, { pauseThresholdS: 2.36 });
    expect(attempts[0]).toMatchObject({ puzzle_id: 'p3', actions: 11, hints: 1 });
  });
});

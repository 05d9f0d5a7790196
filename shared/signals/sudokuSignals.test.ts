// Sudoku signals on a hand-made log: every column worked out by hand (errors are digits entered that differ from the
// solution, each entry counted, distinct cells apart; pencil-mark use; the same time, gap and pause rules).
import { describe, expect, it } from 'vitest';
import { sessionFromRecords } from './session.ts';
import { sessionSignals, sudokuSignalPuzzle } from './attempts.ts';
import { AttemptRow } from './schema.ts';

const SID = 'sS';
const T0 = 1_780_000_000_000;
// 4x4 Sudoku (2x2 boxes): two cells open, r0c0 = 1 and r3c3 = 1.
const S = sudokuSignalPuzzle({ id: 's4', size: 4, givens: ['.234', '3412', '2143', '432.'], solution: ['1234', '3412', '2143', '4321'] });
const puzzles = new Map([[S.id, S]]);

function log() {
  const records: object[] = [];
  let seq = 0;
  const P = { step: 3, phase: 'puzzles', puzzle_id: 's4', position: 1 };
  const client = (type: string, payload: object, t: number, source = 'keyboard', at: object = P) => {
    seq += 1;
    records.push({ session_id: SID, ...at, seq, t_mono: t, t_wall: T0 + t, source, type, payload, origin: 'client', t_server: T0 + t + 50, config_hash: 'h', app_version: '0.1.0' });
  };
  records.push({ type: 'session_start', session_id: SID, payload: { mode: 'general', sequence: ['s4'], sequence_id: 1, round: 1 }, origin: 'server', t_server: T0, config_hash: 'h', app_version: '0.1.0' });
  client('step_start', { kind: 'puzzle' }, 10_000);
  client('move', { move: { type: 'pencil', row: 0, col: 0, digit: 1 } }, 14_000); // first action at 4 s
  client('move', { move: { type: 'pencil', row: 0, col: 0, digit: 2 } }, 14_500);
  client('move', { move: { type: 'pencil', row: 3, col: 3, digit: 3 } }, 15_000);
  client('move', { move: { type: 'set_digit', row: 0, col: 0, digit: 2 } }, 17_000); // error 1 (cell 0)
  client('move', { move: { type: 'undo' } }, 17_400);
  client('move', { move: { type: 'set_digit', row: 0, col: 0, digit: 2 } }, 27_400); // error 2 (cell 0 again): a 10 s pause
  client('move', { move: { type: 'set_digit', row: 0, col: 0, digit: 2 } }, 27_600); // same digit again: changes nothing, no entry
  client('move', { move: { type: 'set_digit', row: 0, col: 1, digit: 9 } }, 27_800); // a given: changes nothing
  client('move', { move: { type: 'set_digit', row: 3, col: 3, digit: 4 } }, 28_000); // error 3 (cell 15)
  client('move', { move: { type: 'hint' } }, 29_000);
  client('hint_shown', { row: 0, col: 0, explanation: 'The 2 at row 1, column 1 is wrong.' }, 29_200, 'system');
  client('move', { move: { type: 'reveal_digit', row: 0, col: 0, digit: 1 } }, 30_000, 'system'); // not an action, not an entry
  client('move', { move: { type: 'submit' } }, 31_000);
  client('submit_result', { solved: false }, 31_200, 'system');
  client('move', { move: { type: 'clear', row: 3, col: 3 } }, 32_000);
  client('move', { move: { type: 'set_digit', row: 3, col: 3, digit: 1 } }, 33_000); // right
  client('move', { move: { type: 'submit' } }, 34_000);
  client('submit_result', { solved: true }, 34_200, 'system');
  client('step_end', { kind: 'puzzle', reason: 'solved' }, 34_300, 'system');
  records.push({ type: 'check', session_id: SID, payload: { puzzle_id: 's4', position: 1, solved: false, wrong_cells: 1 }, origin: 'server', t_server: T0 + 31_100, config_hash: 'h', app_version: '0.1.0' });
  records.push({ type: 'check', session_id: SID, payload: { puzzle_id: 's4', position: 1, solved: true, wrong_cells: 0 }, origin: 'server', t_server: T0 + 34_100, config_hash: 'h', app_version: '0.1.0' });
  client('step_start', { kind: 'rating' }, 35_000, 'system', { ...P, step: 4 });
  client('rating', { difficulty: 2, guessing: 'Rarely' }, 38_000, 'mouse', { ...P, step: 4 });
  return sessionFromRecords(records);
}

describe('Sudoku signals', () => {
  const { attempts, gaps } = sessionSignals(log(), puzzles, { pauseThresholdS: 5 });
  const a = attempts[0];

  it('counts each wrong digit entered, the distinct wrong cells apart, and the pencil-mark use', () => {
    expect(AttemptRow.safeParse(a).success).toBe(true);
    expect(a).toMatchObject({ kind: 'sudoku', errors: 3, error_cells: 2, cells_filled: 4, pencil_marks: 3, pencil_cells: 2 });
    expect(a).toMatchObject({ outcome: 'solved', hints: 1, undos: 1, submissions: 2, wrong_submissions: 1, final_wrong_cells: 0, difficulty: 2, guessing_level: 2 });
  });

  it('times the attempt and its first action, and takes its gaps and pauses by the same rule as a Nonogram', () => {
    expect(a.time_s).toBe(24); // step_start at 10 s to the correct submission at 34 s
    expect(a.first_action_s).toBe(4);
    expect([a.first_row, a.first_col]).toEqual([0, 0]);
    // 14 participant actions (the reveal is the system's): 13 gaps, one of them over 5 s (the 10 s one)
    expect(a.actions).toBe(14);
    expect(a.moves).toBe(10); // 3 pencil, 6 set_digit, 1 clear
    expect(gaps.length).toBe(13);
    expect(a.pauses).toBe(1);
    expect(a.pause_time_s).toBe(10);
    expect(gaps.map((g) => g.action)).toContain('pencil');
  });
});

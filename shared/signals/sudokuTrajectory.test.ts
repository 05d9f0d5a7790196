// A Sudoku trajectory on a hand-made log: every row, label by label, as worked out by hand in the comments; its strategy row.
import { describe, expect, it } from 'vitest';
import { sessionFromRecords } from './session.ts';
import { sessionSignals, sudokuSignalPuzzle } from './attempts.ts';
import { sessionTrajectory, TRAJECTORY_COLUMNS } from './trajectory.ts';
import { attemptStrategies, sessionStrategies, strategyColumns, StrategyRow } from './strategy.ts';

const SID = 'sH';
const T0 = 1_780_000_000_000;
// 4x4 (2x2 boxes), solution 1234/3412/2143/4321, givens only the 3 of (2,3) and the 4 of (3,0): 14 open cells.
// On the givens every cell sees at most the 3 and the 4, so no cell has one candidate (no naked single). Row 2's 4
// cannot go in (2,0) or (2,1) (box 2 holds the 4 of (3,0)): (2,2) is its one place, a hidden single; row 3's 3 cannot go
// in (3,2) or (3,3) (box 3 holds the 3 of (2,3)): (3,1), a hidden single. These two cells are the footholds.
const H = sudokuSignalPuzzle({ id: 'h4', size: 4, box: [2, 2], givens: ['....', '....', '...3', '4...'], solution: ['1234', '3412', '2143', '4321'] });
const puzzles = new Map([[H.id, H]]);

function sessionLog() {
  const records: object[] = [];
  let seq = 0;
  const P = { step: 3, phase: 'puzzles', puzzle_id: 'h4', position: 1 };
  const client = (type: string, payload: object, t: number, source = 'keyboard') => {
    seq += 1;
    records.push({ session_id: SID, ...P, seq, t_mono: t, t_wall: T0 + t, source, type, payload, origin: 'client', t_server: T0 + t + 50, config_hash: 'h', app_version: '0.1.0' });
  };
  records.push({ type: 'session_start', session_id: SID, payload: { mode: 'general', sequence: ['h4'], sequence_id: 1, round: 1 }, origin: 'server', t_server: T0, config_hash: 'h', app_version: '0.1.0' });
  client('step_start', { kind: 'puzzle' }, 10_000, 'system');
  client('move', { move: { type: 'set_digit', row: 2, col: 2, digit: 4 } }, 12_000); // move 1
  client('move', { move: { type: 'pencil', row: 0, col: 0, digit: 1 } }, 12_500); // move 2: a note, no row
  client('move', { move: { type: 'set_digit', row: 3, col: 1, digit: 2 } }, 13_000); // move 3
  client('move', { move: { type: 'clear', row: 3, col: 1 } }, 14_000); // move 4
  client('move', { move: { type: 'set_digit', row: 3, col: 1, digit: 3 } }, 15_000); // move 5
  client('move', { move: { type: 'hint' } }, 16_000); // move 6
  client('move', { move: { type: 'reveal_digit', row: 0, col: 0, digit: 1 } }, 16_100, 'system'); // move 7
  client('move', { move: { type: 'set_digit', row: 0, col: 0, digit: 3 } }, 17_000); // move 8
  client('move', { move: { type: 'undo' } }, 17_500); // move 9
  client('move', { move: { type: 'reset' } }, 18_000); // move 10
  client('move', { move: { type: 'set_digit', row: 3, col: 1, digit: 3 } }, 19_000); // move 11
  client('move', { move: { type: 'skip' } }, 20_000); // move 12
  client('step_end', { kind: 'puzzle', reason: 'skipped' }, 20_100, 'system');
  return sessionFromRecords(records);
}

// change, move, index, action, source, t_ms, gap_ms, row, col, before, after, correct, error, board_right * 14, wrong_cells, reasoning, backtrack
const HAND = [
  // the hidden single of row 2 on the givens
  [1, 1, 1, 'set_digit', 'keyboard', 2000, null, 2, 2, 'unknown', '4', true, false, 1, 0, 'hidden-single', false],
  // (3,1) = 2: no naked single on this board, and the first hidden single the ladder finds (rows first: row 3's 3)
  // puts 3 there: against what the board forces, a guess; a wrong digit entered, an error (gap: 500 ms after the pencil)
  [2, 3, 3, 'set_digit', 'keyboard', 3000, 500, 3, 1, 'unknown', '2', false, true, 1, 1, 'guess', false],
  // cleared: back to a value it held (none), no label
  [3, 4, 4, 'clear', 'keyboard', 4000, 1000, 3, 1, '2', 'unknown', false, false, 1, 0, null, true],
  // (3,1) = 3: row 3's hidden single
  [4, 5, 5, 'set_digit', 'keyboard', 5000, 1000, 3, 1, 'unknown', '3', true, false, 2, 0, 'hidden-single', false],
  // the hint's reveal of (0,0) = 1 (the system's: no index, no gap). With the 3 and 4 of rows 2 and 3 placed, every
  // open cell has two or three candidates, every digit two or more places in each unit, and the ladder finds nothing
  // that removes a candidate: the ladder stalls, a guess
  [5, 7, null, 'reveal_digit', 'system', 6100, null, 0, 0, 'unknown', '1', true, false, 3, 0, 'guess', false],
  // (0,0) overwritten with 3: the revealed 1 set aside, the same stalled board: a guess, and an error
  [6, 8, 7, 'set_digit', 'keyboard', 7000, 1000, 0, 0, '1', '3', false, true, 2, 1, 'guess', false],
  // undo: back to 1, a value the cell held (backtracking), labelled on that same board: a guess
  [7, 9, 8, 'undo', 'keyboard', 7500, 500, 0, 0, '3', '1', true, false, 3, 0, 'guess', true],
  // reset: the participant's and the hint's digits go, in reading order; all backtracking, no labels
  [8, 10, 9, 'reset', 'keyboard', 8000, 500, 0, 0, '1', 'unknown', false, false, 2, 0, null, true],
  [9, 10, 9, 'reset', 'keyboard', 8000, 500, 2, 2, '4', 'unknown', false, false, 1, 0, null, true],
  [10, 10, 9, 'reset', 'keyboard', 8000, 500, 3, 1, '3', 'unknown', false, false, 0, 0, null, true],
  // (3,1) = 3 again on the givens: hidden single (row 2's comes first, then row 3's places it); a value it held
  [11, 11, 10, 'set_digit', 'keyboard', 9000, 1000, 3, 1, 'unknown', '3', true, false, 1, 0, 'hidden-single', true],
];

describe('the trajectory of a hand-made Sudoku log', () => {
  const log = sessionLog();
  const rows = sessionTrajectory(log, puzzles);

  it('equals the hand-computed table, row by row and label by label', () => {
    for (const r of rows) expect(Object.keys(r)).toEqual([...TRAJECTORY_COLUMNS]);
    expect(rows.every((r) => r.kind === 'sudoku' && r.participant_id === SID && r.puzzle_id === 'h4' && r.attempt === 1 && r.position === 1 && r.stroke === null && r.stroke_cell === null)).toBe(true);
    const got = rows.map((r) => [r.change, r.move, r.index, r.action, r.source, r.t_ms, r.gap_ms, r.row, r.col, r.before, r.after, r.correct, r.error, Math.round(r.board_right * 14 * 1e9) / 1e9, r.wrong_cells, r.reasoning, r.backtrack]);
    expect(got).toEqual(HAND);
  });

  it('agrees with the attempt row: errors counted as the Sudoku attempt rows count them', () => {
    const { attempts } = sessionSignals(log, puzzles);
    expect(attempts[0].errors).toBe(rows.filter((r) => r.error).length);
    expect(attempts[0].outcome).toBe('skipped');
  });

  it("summarises the attempt's strategy: ladder levels, guesses, backtracks, footholds, line order, time per level", () => {
    const [s] = attemptStrategies(rows, puzzles);
    expect(Object.keys(s).sort()).toEqual([...strategyColumns(['sudoku'])].sort());
    expect(StrategyRow.safeParse(s).error).toBeUndefined(); // the zod schema of strategy.csv's rows
    expect(StrategyRow.safeParse({ ...s, extra: 1 }).success).toBe(false);
    // 11 changes, 7 labelled: hidden-single 3 (changes 1, 4, 11), guess 4 (2, 5, 6, 7)
    expect(s).toMatchObject({ kind: 'sudoku', changes: 11, marks: 7, naked_single: 0, hidden_single: 3, pointing: 0, guess: 4, share_hidden_single: 3 / 7, share_guess: 4 / 7, share_singles: 3 / 7 });
    // every non-guess label is rung 2 (hidden-single); six changes backtrack (3, 7, 8, 9, 10, 11)
    expect(s).toMatchObject({ mean_rung: 2, backtracks: 6 });
    // the gaps before them: hidden singles none + 1000 + 1000 ms; guesses 500 + none (the reveal) + 1000 + 500 ms
    expect(s).toMatchObject({ time_hidden_single_s: 2, time_guess_s: 2, time_naked_single_s: 0 });
    // the first change (2,2) is a foothold (a single on the givens); 2 of 16 cells are
    expect(s).toMatchObject({ first_row: 2, first_col: 2, first_reasoning: 'hidden-single', first_on_foothold: true, foothold_board_share: 2 / 16 });
    // the participant's labelled changes (the reveal left out): (2,2) (3,1) (3,1) (0,0) (0,0) (3,1): 5 pairs; sharing a
    // line: (3,1)-(3,1) and (0,0)-(0,0); later in reading order: (2,2)-(3,1) and (0,0)-(3,1). The first ceil(6 / 4) = 2
    // are both footholds, above the board's 1/8: foothold-driven
    expect(s).toMatchObject({ same_line_share: 2 / 5, reading_order_share: 2 / 5, foothold_early_share: 1, line_order: 'foothold-driven' });
  });

  it('gives every attempt a strategy row, one without changes included', () => {
    const [s] = sessionStrategies([{ participant_id: SID, puzzle_id: 'h4', position: 1 }], [], puzzles);
    expect(StrategyRow.safeParse(s).error).toBeUndefined();
    expect(s).toMatchObject({ attempt: 1, changes: 0, marks: 0, share_guess: null, mean_rung: null, first_on_foothold: null, line_order: null, foothold_board_share: 2 / 16 });
  });
});

// Tests for the dashboard's record readers: replay timelines (Nonogram and Sudoku), pauses, errors against the solution, mirror, answers.
import { describe, expect, it } from 'vitest';
import { boardRows, replayMoves } from '../../../shared/game/board.ts';
import type { Move } from '../../../shared/schema/move.ts';
import { answersOf, attemptTimeline, attemptsOf, emptyMirror, frameAt, longPauses, mirrorRecords, readRecords, sudokuTimeline, wrongCells, type LogRecord, type PuzzleShape } from './records.ts';
import { initialSudoku, marksOf, replaySudoku, sudokuRows } from '../../../shared/sudoku/board.ts';
import { sessionSignals, sudokuSignalPuzzle } from '../../../shared/signals/attempts.ts';
import { sessionFromRecords } from '../../../shared/signals/session.ts';

const puzzle: PuzzleShape = { id: 'p', width: 3, height: 2, rows: [[2], [1]], cols: [[1], [1], [1]], solution: ['##.', '..#'] };

let seq = 0;
const stamps = { t_server: 1_780_000_000_000, config_hash: 'h', app_version: '0.1.0' };
/** A client record as the log's reader gives it (readRecords checks it against the schema). */
function rec(type: string, step: number, t_mono: number, payload: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): LogRecord {
  seq++;
  const [r] = readRecords([{ session_id: 's1', origin: 'client', source: 'mouse', seq, type, step, phase: 'puzzles', puzzle_id: 'p', position: 2, t_mono, t_wall: 1_780_000_000_000 + t_mono, payload, ...stamps, ...extra }]);
  if (!r) throw new Error(`invalid record ${type} ${JSON.stringify(payload)}`);
  return r;
}
function server(type: string, payload: Record<string, unknown>): LogRecord {
  const [r] = readRecords([{ session_id: 's1', origin: 'server', type, payload, ...stamps }]);
  if (!r) throw new Error(`invalid record ${type}`);
  return r;
}
const move = (step: number, t: number, m: Move) => rec('move', step, t, { move: m });

function session(): LogRecord[] {
  seq = 0;
  return [
    server('session_start', { mode: 'general', sequence: ['q', 'p'], sequence_id: 1, round: 1 }),
    rec('step_start', 3, 1_000, { kind: 'rating' }, { puzzle_id: 'q' }),
    rec('step_end', 3, 1_500, { kind: 'rating', reason: 'done' }),
    rec('step_start', 4, 2_000, { kind: 'puzzle' }),
    move(4, 2_500, { type: 'fill', row: 0, col: 0 }),
    move(4, 6_000, { type: 'fill', row: 0, col: 2 }), // wrong, after a 3.5 s pause
    rec('visibility', 4, 6_100, { state: 'hidden' }),
    move(4, 6_200, { type: 'submit' }),
    server('check', { puzzle_id: 'p', position: 2, solved: false, wrong_cells: 1 }),
    move(4, 7_000, { type: 'undo' }),
    move(4, 7_500, { type: 'stroke', state: 'filled', cells: [[0, 1]] }),
    move(4, 8_000, { type: 'fill', row: 1, col: 2 }),
    rec('step_end', 4, 8_100, { kind: 'puzzle', reason: 'solved' }),
    rec('step_start', 5, 9_000, { kind: 'rating' }),
    rec('rating', 5, 9_500, { difficulty: 3, guessing: '<script>alert(1)</script>' }),
  ];
}

describe('attemptTimeline', () => {
  it('rebuilds every board of an attempt with applyMove and ends on the final board', () => {
    const tl = attemptTimeline(session(), 4, puzzle);
    expect(tl.outcome).toBe('solved');
    expect(tl.position).toBe(2);
    expect(tl.frames.map((f) => f.t)).toEqual([500, 4_000, 4_200, 5_000, 5_500, 6_000]);
    expect(tl.duration).toBe(6_100);
    const moves = tl.frames.map((f) => f.move);
    expect(boardRows(tl.frames.at(-1)!.board.grid)).toEqual(boardRows(replayMoves(3, 2, moves).grid));
    expect(boardRows(tl.frames.at(-1)!.board.grid)).toEqual(['##?', '??#']);
  });

  it('flags the move that made the board wrong, and marks submits and visibility', () => {
    const tl = attemptTimeline(session(), 4, puzzle);
    expect(tl.frames.map((f) => f.wrong)).toEqual([0, 1, 1, 0, 0, 0]);
    expect(tl.frames.map((f) => f.introduced_error)).toEqual([false, true, false, false, false, false]);
    expect(tl.marks.map((m) => m.kind)).toEqual(['hidden', 'submit_wrong']);
    expect(tl.marks[1].t).toBe(4_200);
  });

  it('finds the frame at a time and the pauses over a threshold', () => {
    const tl = attemptTimeline(session(), 4, puzzle);
    expect(frameAt(tl, 0)).toBe(-1);
    expect(frameAt(tl, 500)).toBe(0);
    expect(frameAt(tl, 3_999)).toBe(0);
    expect(frameAt(tl, 99_999)).toBe(5);
    expect(longPauses(tl, 2_360)).toEqual([{ from: 500, to: 4_000, duration: 3_500 }]);
    // Gaps run between the participant's actions (the analysis's rule): not from the step's start to the first one.
    expect(longPauses(tl, 400).length).toBe(4); // every gap but the 200 ms one
    expect(tl.gaps.map((g) => g.seconds)).toEqual([3.5, 0.2, 0.8, 0.5, 0.5]);
  });

  it('keeps time running across a reload, when the monotonic clock restarts', () => {
    seq = 0;
    const rs = [rec('step_start', 4, 5_000, { kind: 'puzzle' }), move(4, 6_000, { type: 'fill', row: 0, col: 0 }), { ...move(4, 100, { type: 'fill', row: 0, col: 1 }), t_wall: 1_780_000_000_000 + 9_000 } as LogRecord];
    expect(attemptTimeline(rs, 4, puzzle).frames.map((f) => f.t)).toEqual([1_000, 4_000]);
    // A reload after which the new page's clock has run past the old one's: the monotonic difference (2 s) is
    // positive but disagrees with the wall clock (54 s), so the wall clock counts (the one clock rule, shared/log/rules.ts).
    const later = [rs[0], rs[1], { ...move(4, 8_000, { type: 'fill', row: 0, col: 1 }), t_wall: 1_780_000_000_000 + 60_000 } as LogRecord];
    const tl = attemptTimeline(later, 4, puzzle);
    expect(tl.frames.map((f) => f.t)).toEqual([1_000, 55_000]);
    expect(longPauses(tl, 30_000)).toEqual([{ from: 1_000, to: 55_000, duration: 54_000 }]);
  });
});

describe('wrongCells', () => {
  it('counts filled-where-empty and crossed-where-filled', () => {
    const b = replayMoves(3, 2, [
      { type: 'fill', row: 0, col: 2 },
      { type: 'cross', row: 0, col: 0 },
      { type: 'cross', row: 1, col: 0 },
    ]);
    expect([...wrongCells(b, puzzle.solution)].sort()).toEqual([0, 2]);
  });
});

describe('mirrorRecords', () => {
  it('follows the current step and applies its moves, batch by batch, ignoring repeats', () => {
    const rs = session();
    const puzzleOf = (id: string) => (id === 'p' ? puzzle : undefined);
    let m = mirrorRecords(emptyMirror, rs.slice(0, 7), puzzleOf);
    expect(m.step).toBe(4);
    expect(boardRows(m.board!.grid)).toEqual(['#?#', '???']);
    m = mirrorRecords(m, rs.slice(5, 13), puzzleOf); // overlaps: records already seen are skipped
    expect(boardRows(m.board!.grid)).toEqual(['##?', '??#']);
    expect(m.moves).toBe(5); // the submit is not a board move
    m = mirrorRecords(m, rs.slice(13), puzzleOf);
    expect(m.step).toBe(5);
    expect(m.board).toBeNull();
  });
});

describe('attemptsOf and answersOf', () => {
  it('lists puzzle attempts with their outcome', () => {
    expect(attemptsOf(session())).toEqual([{ step: 4, puzzle_id: 'p', position: 2, kind: 'puzzle', outcome: 'solved' }]);
  });

  it('collects answers as plain strings', () => {
    const a = answersOf(session());
    expect(a.find((x) => x.item === 'guessing')!.value).toBe('<script>alert(1)</script>');
    expect(a.find((x) => x.item === 'difficulty')!.value).toBe('3');
  });
});

describe('sudokuTimeline', () => {
  // A 4x4 Sudoku: givens, solution.
  const sudoku = { id: 's', size: 4, box: [2, 2] as const, givens: ['1...', '..1.', '.1..', '...1'], solution: ['1234', '3412', '2143', '4321'] };
  const sRec = (step: number, t: number, m: Move, source = 'mouse') => rec('move', step, t, { move: m }, { puzzle_id: 's', source });
  function sudokuSession(): LogRecord[] {
    seq = 0;
    return [
      rec('step_start', 4, 1_000, { kind: 'puzzle' }, { puzzle_id: 's' }),
      sRec(4, 1_500, { type: 'pencil', row: 0, col: 1, digit: 2 }),
      sRec(4, 1_800, { type: 'pencil', row: 0, col: 1, digit: 3 }),
      sRec(4, 5_000, { type: 'set_digit', row: 0, col: 2, digit: 4 }), // wrong (the solution has 3), after a 3.2 s pause
      sRec(4, 5_400, { type: 'set_digit', row: 0, col: 2, digit: 4 }), // the same digit again: changes nothing, no error
      sRec(4, 5_700, { type: 'clear', row: 0, col: 2 }),
      sRec(4, 6_000, { type: 'set_digit', row: 0, col: 2, digit: 2 }), // wrong again: a second error
      sRec(4, 6_300, { type: 'undo' }),
      sRec(4, 6_500, { type: 'hint' }),
      server('hint', { puzzle_id: 's', row: 0, col: 1, kind: 'cell', reasoning: 'naked single' }),
      sRec(4, 6_510, { type: 'reveal_digit', row: 0, col: 1, digit: 2 }, 'system'),
      sRec(4, 7_000, { type: 'set_digit', row: 0, col: 2, digit: 3 }),
      sRec(4, 7_200, { type: 'pencil', row: 1, col: 0, digit: 3 }),
      sRec(4, 7_400, { type: 'submit' }),
      server('check', { puzzle_id: 's', position: 2, solved: false, wrong_cells: 0 }),
      rec('step_end', 4, 7_500, { kind: 'puzzle', reason: 'timeout' }, { puzzle_id: 's' }),
    ];
  }

  it("folds the moves with the page's own rule (applySudokuMove) and ends on the board replaySudoku gives", () => {
    const tl = sudokuTimeline(sudokuSession(), 4, sudoku);
    expect(tl.outcome).toBe('timeout');
    expect(tl.frames.map((f) => f.t)).toEqual([500, 800, 4_000, 4_400, 4_700, 5_000, 5_300, 5_500, 5_510, 6_000, 6_200, 6_400]);
    const last = tl.frames.at(-1)!.board;
    const want = replaySudoku(sudoku.givens, tl.frames.map((f) => f.move));
    expect(sudokuRows(last)).toEqual(sudokuRows(want));
    expect(sudokuRows(last)).toEqual(['123.', '..1.', '.1..', '...1']);
    expect(marksOf(last, 1)).toEqual([2, 3]); // under the revealed 2
    expect(marksOf(last, 4)).toEqual([3]);
    expect(Array.from(last.given)).toEqual(Array.from(initialSudoku(sudoku.givens).given));
  });

  it("flags the digits that are not the solution's, counted as attempts.csv counts them, and the pauses between actions", () => {
    const tl = sudokuTimeline(sudokuSession(), 4, sudoku);
    expect(tl.frames.map((f) => f.introduced_error)).toEqual([false, false, true, false, false, true, false, false, false, false, false, false]);
    expect(tl.errors).toBe(2);
    expect(tl.frames.map((f) => f.wrong)).toEqual([0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0]); // the undo takes the second wrong digit back
    expect(tl.marks.map((m) => m.kind)).toEqual(['hint', 'submit_wrong']);
    // The system's reveal is no action: the gap runs from the hint to the next digit.
    expect(tl.gaps.map((g) => g.seconds)).toEqual([0.3, 3.2, 0.4, 0.3, 0.3, 0.3, 0.2, 0.5, 0.2, 0.2]);
    expect(longPauses(tl, 2_360)).toEqual([{ from: 800, to: 4_000, duration: 3_200 }]);
    expect(frameAt(tl, 4_000)).toBe(2);
  });

  it('gives the same errors as the analysis for the same attempt (one rule: enteredDigits)', () => {
    const records = sudokuSession();
    const { attempts } = sessionSignals(sessionFromRecords(records), new Map([['s', sudokuSignalPuzzle(sudoku)]]), { pauseThresholdS: 2.36 });
    expect(attempts).toHaveLength(1);
    const tl = sudokuTimeline(records, 4, sudoku);
    expect(attempts[0].errors).toBe(tl.errors);
    expect(attempts[0].pauses).toBe(longPauses(tl, 2_360).length);
  });
});

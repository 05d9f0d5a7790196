import { describe, expect, it } from 'vitest';
import { Move } from '../schema/move.ts';
import { applySudokuMove, clashingCells, enteredDigits, initialSudoku, marksOf, replaySudoku, sudokuRows, wrongSudokuCells } from './board.ts';

const givens = ['1...', '..1.', '.1..', '...1'];
const solution = ['1234', '3412', '2143', '4321'];

describe('Sudoku board moves', () => {
  it('writes, marks, clears, resets and undoes by the rules in board.ts', () => {
    const s0 = initialSudoku(givens);
    expect(sudokuRows(s0)).toEqual(givens);
    const s1 = applySudokuMove(s0, { type: 'pencil', row: 0, col: 1, digit: 2 });
    const s2 = applySudokuMove(s1, { type: 'pencil', row: 0, col: 1, digit: 3 });
    expect(marksOf(s2, 1)).toEqual([2, 3]);
    const s3 = applySudokuMove(s2, { type: 'set_digit', row: 0, col: 1, digit: 3 });
    expect(sudokuRows(s3)[0]).toBe('13..');
    // marks stay under a digit, and a pencil on a digit does nothing
    expect(applySudokuMove(s3, { type: 'pencil', row: 0, col: 1, digit: 4 })).toBe(s3);
    const s4 = applySudokuMove(s3, { type: 'clear', row: 0, col: 1 });
    expect(sudokuRows(s4)[0]).toBe('1...');
    expect(marksOf(s4, 1)).toEqual([2, 3]);
    const s5 = applySudokuMove(s4, { type: 'clear', row: 0, col: 1 });
    expect(marksOf(s5, 1)).toEqual([]);
    expect(applySudokuMove(s5, { type: 'clear', row: 0, col: 1 })).toBe(s5);
    expect(s5.history.length).toBe(5);
    const back = applySudokuMove(applySudokuMove(s5, { type: 'undo' }), { type: 'undo' });
    expect(sudokuRows(back)[0]).toBe('13..');
    const reset = applySudokuMove(s3, { type: 'reset' });
    expect(sudokuRows(reset)).toEqual(givens);
    expect(marksOf(reset, 1)).toEqual([]);
    expect(sudokuRows(applySudokuMove(reset, { type: 'undo' }))[0]).toBe('13..');
  });

  it('never changes a given, a cell off the board, or with a digit above the side', () => {
    const s0 = initialSudoku(givens);
    for (const m of [
      { type: 'set_digit', row: 0, col: 0, digit: 2 },
      { type: 'clear', row: 1, col: 2 },
      { type: 'reset' },
      { type: 'pencil', row: 2, col: 1, digit: 1 },
      { type: 'set_digit', row: 4, col: 0, digit: 1 },
      { type: 'set_digit', row: 0, col: 1, digit: 5 },
      { type: 'fill', row: 0, col: 1 },
      { type: 'hint' },
      { type: 'undo' },
    ] as const)
      expect(applySudokuMove(s0, Move.parse(m))).toBe(s0);
  });

  it('counts wrong digits against the solution, and replays a log', () => {
    const s = replaySudoku(givens, [
      { type: 'set_digit', row: 0, col: 1, digit: 2 },
      { type: 'set_digit', row: 0, col: 2, digit: 4 },
      { type: 'reveal_digit', row: 3, col: 0, digit: 4 },
    ]);
    expect(sudokuRows(s)).toEqual(['124.', '..1.', '.1..', '4..1']);
    expect(wrongSudokuCells(s, solution)).toEqual([2]);
  });
});

describe('clashing digits (the board flags them when the study sets sudoku.flag_conflicts)', () => {
  it('are both cells of every repeat in a row, a column or a box, and nothing else', () => {
    // 4x4, boxes 2x2; givens 1... / ..1. / .1.. / ...1
    const s = replaySudoku(givens, [
      { type: 'set_digit', row: 0, col: 1, digit: 1 }, // row 0 has the given 1 at (0,0); column 1 has the given 1 at (2,1)
      { type: 'set_digit', row: 3, col: 2, digit: 4 },
      { type: 'set_digit', row: 2, col: 3, digit: 4 }, // the bottom-right box: 4 at (3,2) and (2,3)
      { type: 'set_digit', row: 1, col: 0, digit: 3 }, // clashes with nothing
    ]);
    const at = (r: number, c: number) => r * 4 + c;
    expect([...clashingCells(s, [2, 2])].sort((a, b) => a - b)).toEqual([at(0, 0), at(0, 1), at(2, 1), at(2, 3), at(3, 2)]);
    expect(clashingCells(initialSudoku(givens), [2, 2]).size).toBe(0);
  });
});

describe('enteredDigits (the error rule attempts.csv and the replay share)', () => {
  it('counts a set_digit that changed the board, an error when the solution has another digit there', () => {
    const s0 = initialSudoku(givens);
    const wrongMove = { type: 'set_digit', row: 0, col: 1, digit: 3 } as const;
    const s1 = applySudokuMove(s0, wrongMove);
    expect(enteredDigits(wrongMove, s0, s1, solution)).toEqual({ filled: 1, errors: [1] });
    // the same digit again changes nothing: no entry
    expect(enteredDigits(wrongMove, s1, applySudokuMove(s1, wrongMove), solution)).toEqual({ filled: 0, errors: [] });
    const right = { type: 'set_digit', row: 0, col: 1, digit: 2 } as const;
    expect(enteredDigits(right, s1, applySudokuMove(s1, right), solution)).toEqual({ filled: 1, errors: [] });
    // a reveal, a mark, a clear, an undo enter nothing; nor does a digit on a given
    for (const m of [{ type: 'reveal_digit', row: 0, col: 2, digit: 4 }, { type: 'pencil', row: 0, col: 3, digit: 1 }, { type: 'clear', row: 0, col: 1 }, { type: 'undo' }, { type: 'set_digit', row: 0, col: 0, digit: 2 }] as const)
      expect(enteredDigits(m, s1, applySudokuMove(s1, m), solution)).toEqual({ filled: 0, errors: [] });
  });
});

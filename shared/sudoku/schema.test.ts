// The Sudoku record schema: valid records pass, and each kind of mistake is named with its field.
import { describe, expect, it } from 'vitest';
import { SudokuPuzzle, recordGrids, recordOf, symbolValue } from './schema.ts';
import { writeLine } from './formats.ts';

const GIVENS = ['53..7....', '6..195...', '.98....6.', '8...6...3', '4..8.3..1', '7...2...6', '.6....28.', '...419..5', '....8..79'];
const SOLUTION = ['534678912', '672195348', '198342567', '859761423', '426853791', '713924856', '961537284', '287419635', '345286179'];
const valid = { kind: 'sudoku', id: 's9x9-classic', size: 9, box: [3, 3], givens: GIVENS, solution: SOLUTION };

function firstIssue(value: unknown): { path: string; message: string } {
  const r = SudokuPuzzle.safeParse(value);
  if (r.success) return { path: '', message: 'valid' };
  return { path: r.error.issues[0].path.join('.'), message: r.error.issues[0].message };
}

describe('SudokuPuzzle', () => {
  it('accepts a valid record, with metrics', () => {
    expect(SudokuPuzzle.safeParse(valid).success).toBe(true);
    const m = { ...valid, metrics: { sat_extended: { decisions: 1, propagations: 2, conflicts: 0, restarts: 1 } } };
    expect(SudokuPuzzle.parse(m).metrics?.sat_extended?.decisions).toBe(1);
  });

  it('accepts letters past 9 on a 16x16 board', () => {
    const row = '123456789ABCDEFG';
    const sol = Array.from({ length: 16 }, (_, r) => {
      // A valid 16x16 pattern: row r is the base shifted by (r % 4) * 4 + floor(r / 4).
      const shift = (r % 4) * 4 + Math.floor(r / 4);
      return row.slice(shift) + row.slice(0, shift);
    });
    const givens = sol.map((s, r) => (r === 0 ? '.' + s.slice(1) : s));
    expect(firstIssue({ kind: 'sudoku', id: 'x', size: 16, box: [4, 4], givens, solution: sol })).toEqual({ path: '', message: 'valid' });
  });

  it('names each mistake', () => {
    expect(firstIssue({ ...valid, kind: 'nonogram' }).path).toBe('kind');
    expect(firstIssue({ ...valid, box: [3, 2] })).toEqual({ path: 'box', message: 'a box of 3x2 has 6 cells, the side is 9' });
    expect(firstIssue({ ...valid, givens: GIVENS.slice(1) })).toEqual({ path: 'givens', message: 'expected 9 rows, got 8' });
    expect(firstIssue({ ...valid, givens: [...GIVENS.slice(0, 8), '....8..7'] })).toEqual({ path: 'givens.8', message: 'row 9 has 8 symbols, expected 9' });
    expect(firstIssue({ ...valid, givens: ['53..7...x', ...GIVENS.slice(1)] })).toEqual({ path: 'givens.0', message: "r1c9 is 'x', expected 1-9 or '.'" });
    expect(firstIssue({ ...valid, givens: ['53..7...0', ...GIVENS.slice(1)] }).message).toBe("r1c9 is '0', expected 1-9 or '.'");
    expect(firstIssue({ ...valid, solution: ['53467891.', ...SOLUTION.slice(1)] })).toEqual({ path: 'solution.0', message: "r1c9 is '.', expected 1-9" });
    expect(firstIssue({ ...valid, givens: ['53..7...5', ...GIVENS.slice(1)] })).toEqual({ path: 'givens', message: '5 appears twice in row 1 (r1c1 and r1c9)' });
    expect(firstIssue({ ...valid, givens: [GIVENS[0], '5..195...', ...GIVENS.slice(2)] })).toEqual({ path: 'givens', message: '5 appears twice in column 1 (r1c1 and r2c1)' });
    expect(firstIssue({ ...valid, givens: [GIVENS[0], '6.5195...', ...GIVENS.slice(2)] })).toEqual({ path: 'givens', message: '5 appears twice in box 1 (r1c1 and r2c3)' });
    const swapped = [SOLUTION[1], SOLUTION[0], ...SOLUTION.slice(2)]; // two rows of a band swapped: a valid grid, but not the givens'
    expect(firstIssue({ ...valid, solution: swapped })).toEqual({ path: 'givens.0', message: 'r1c1 is given as 5 but the solution has 6' });
    const badSolution = ['534678921', ...SOLUTION.slice(1)];
    expect(firstIssue({ ...valid, solution: badSolution }).message).toBe('2 appears twice in column 8 (r1c8 and r4c8)');
  });

  it('recordGrids and recordOf convert between records and grids', () => {
    const { givens, solution } = recordGrids(SudokuPuzzle.parse(valid));
    expect(writeLine(givens)).toBe(GIVENS.join(''));
    expect(writeLine(solution)).toBe(SOLUTION.join(''));
    expect(recordOf('s9x9-classic', givens, solution)).toEqual(valid);
    expect(recordOf('a', givens, solution, { seed: 4 }).seed).toBe(4);
  });

  it('symbolValue reads digits and letters within the side only', () => {
    expect(['.', '1', '9', 'A', 'G', 'H', '0', 'a'].map((c) => symbolValue(c, 16))).toEqual([0, 1, 9, 10, 16, -1, -1, -1]);
    expect(symbolValue('0', 9, true)).toBe(0);
    expect(symbolValue('A', 9)).toBe(-1);
  });
});

import { describe, expect, it } from 'vitest';
import { Puzzle, PuzzleClues } from './puzzle.ts';
import { describeIssues } from './config.ts';

const good = { id: 'p1', width: 3, height: 2, rows: [[3], [1, 1]], cols: [[2], [1], [2]], solution: ['###', '#.#'] };

describe('puzzle schemas', () => {
  it('accept a consistent puzzle', () => {
    expect(Puzzle.safeParse(good).success).toBe(true);
    expect(PuzzleClues.safeParse(good).success).toBe(true);
  });
  it('name the line whose clue does not fit, the missing clues and bad solution rows', () => {
    const r = Puzzle.safeParse({ ...good, rows: [[2, 2]], solution: ['###', '#.'] });
    expect(r.success).toBe(false);
    const text = describeIssues(r.error!.issues);
    expect(text).toContain('rows: expected 2 row clues, got 1');
    expect(text).toContain('rows.0: row clue needs 5 cells, the row has 3');
    expect(text).toContain('solution.1: expected 3 cells, got 2');
  });
});

describe('a record names its kind (issue 34)', () => {
  it('reads "kind": "nonogram" and a record without kind the same; another kind is not a Nonogram', () => {
    const p = { id: 'k', width: 2, height: 1, rows: [[1]], cols: [[1], []], solution: ['#.'] };
    const named = Puzzle.parse({ kind: 'nonogram', ...p });
    const { kind, ...rest } = named;
    expect(kind).toBe('nonogram');
    expect(rest).toEqual(Puzzle.parse(p));
    expect('kind' in Puzzle.parse(p)).toBe(false);
    expect(Puzzle.safeParse({ kind: 'sudoku', ...p }).success).toBe(false);
  });
});

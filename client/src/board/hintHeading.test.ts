// The hint heading points a participant at the wrong cell itself, not only at the line the reason ends in (issue 32).
import { describe, expect, it } from 'vitest';
import { EMPTY, FILLED, cluesOf, gridFromRows } from '../../../shared/nonogram/grid.ts';
import { hint } from '../../../shared/nonogram/hint.ts';
import { hintHeading } from './hintHeading.ts';

describe('hintHeading', () => {
  it('every mistake hint names the wrong cell', () => {
    // One wrong mark at each cell in turn: the heading names that cell, whichever line the reason uses.
    const solution = gridFromRows(['#.##.', '.#..#', '##.#.', '..###', '#.#.#']);
    const clues = cluesOf(solution);
    for (let i = 0; i < solution.cells.length; i++) {
      const board = gridFromRows(['?????', '?????', '?????', '?????', '?????']);
      board.cells[i] = solution.cells[i] === FILLED ? EMPTY : FILLED;
      const h = hint(clues, board, solution)!;
      expect(h.kind).toBe('error');
      const text = hintHeading(h);
      expect(text).toContain(`row ${h.row + 1}, column ${h.col + 1}`);
    }
  });

  it('a cell hint names its line', () => {
    expect(hintHeading({ kind: 'cell', row: 0, col: 2, line: { axis: 'col', index: 2 } })).toBe('Hint · Column 3');
  });

  it('a mistake hint: cell first, then the reason line', () => {
    expect(hintHeading({ kind: 'error', row: 0, col: 0, line: { axis: 'col', index: 2 } })).toBe('Hint · Mistake at row 1, column 1 · reason in Column 3');
  });
});

// The hint heading points a participant at the wrong cell itself, not only at the line the reason ends in (issue 32).
import { describe, expect, it, beforeAll } from 'vitest';
import { EMPTY, FILLED, cluesOf, gridFromRows } from '../../../shared/nonogram/grid.ts';
import { hint } from '../../../shared/nonogram/hint.ts';
import { puzzleFromSeed } from '../../../shared/nonogram/generate.ts';
import { hintHeading } from './hintHeading.ts';
import { loadStepWords } from '../i18n.ts';

// The page fetches the steps' English words beside the board's chunk (they are not in its first load).
beforeAll(() => loadStepWords());

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

  it('a mistake whose reason is in no line (only the solution shows it, or reveal-only) names no reason line', () => {
    // A generated puzzle that needs search, with row 14, column 12 crossed: no line reasoning reaches it.
    const p = puzzleFromSeed(15, 15, 0.45, 2255)!;
    const solution = gridFromRows(p.solution as string[]);
    const board = { width: 15, height: 15, cells: new Uint8Array(225) };
    board.cells[13 * 15 + 11] = EMPTY;
    const h = hint({ rows: p.rows, cols: p.cols }, board, solution)!;
    expect(h.claim.wording).toBe('mistake-solution');
    expect(hintHeading({ ...h, reason_in_line: h.claim.line !== null })).toBe('Hint · Mistake at row 14, column 12');
    const bare = hint({ rows: p.rows, cols: p.cols }, board, solution, 'reveal-only')!;
    expect(hintHeading({ ...bare, reason_in_line: bare.claim.line !== null })).toBe('Hint · Mistake at row 14, column 12');
    // Without the flag (an older server), the heading is as before.
    expect(hintHeading(h)).toBe('Hint · Mistake at row 14, column 12 · reason in Row 14');
  });
});

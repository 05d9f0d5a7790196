// The hint engine on hand-made positions, and followed from a blank board to the solution.
import { describe, expect, it } from 'vitest';
import { EMPTY, FILLED, cluesOf, createGrid, gridFromRows } from './grid.ts';
import type { Grid } from './grid.ts';
import { generatePuzzles } from './generate.ts';
import { hint } from './hint.ts';

const HEART = ['.#.#.', '#####', '#####', '.###.', '..#..'];

function position(solutionRows: string[], boardRows: string[]) {
  const solution = gridFromRows(solutionRows);
  // On boards '.' means crossed (EMPTY), '#' filled, '?' untouched.
  return { clues: cluesOf(solution), solution, board: gridFromRows(boardRows) };
}

describe('hint: errors come first', () => {
  it('points at a filled cell that should be empty, before any deduction', () => {
    const { clues, board, solution } = position(HEART, ['#????', '?????', '?????', '?????', '?????']);
    const h = hint(clues, board, solution);
    expect(h).toMatchObject({ kind: 'error', row: 0, col: 0, value: 'empty', reasoning: 'error', line: { axis: 'row', index: 0 } });
    expect(h?.explanation).toContain('row 1, column 1');
  });

  it('points at a crossed cell that should be filled, the first in reading order', () => {
    const { clues, board, solution } = position(HEART, ['?????', '??.??', '?????', '?????', '??#.?']);
    expect(hint(clues, board, solution)).toMatchObject({ kind: 'error', row: 1, col: 2, value: 'filled', reasoning: 'error' });
  });
});

describe('hint: the simplest deduction from a correct board', () => {
  it('starts with a foothold: a line its clue fills exactly', () => {
    const { clues, board, solution } = position(HEART, ['?????', '?????', '?????', '?????', '?????']);
    const h = hint(clues, board, solution);
    expect(h).toMatchObject({ kind: 'cell', row: 1, col: 0, value: 'filled', reasoning: 'foothold', line: { axis: 'row', index: 1 } });
    expect(h?.explanation).toMatch(/Row 2's clue 5 needs exactly 5 cells/);
  });

  it('then overlap: a cell every placement of a clue covers', () => {
    // Rows 2 and 3 done; row 4's clue 3 in 5 cells covers its middle cell wherever it goes.
    const { clues, board, solution } = position(HEART, ['?????', '#####', '#####', '?????', '?????']);
    expect(hint(clues, board, solution)).toMatchObject({ row: 3, col: 2, value: 'filled', reasoning: 'overlap', line: { axis: 'row', index: 3 } });
  });

  it('uses edge anchoring: a filled cell at the edge fixes the first run', () => {
    // Row 1 (clue 2) starts with a filled cell: the run covers column 2 too.
    const { clues, board, solution } = position(['##....', '#.....', '......', '......'], ['#?....', '??....', '......', '......']);
    const h = hint(clues, board, solution);
    expect(h).toMatchObject({ row: 0, col: 1, value: 'filled', reasoning: 'edge', line: { axis: 'row', index: 0 } });
  });

  it('cross-references: the line needs the marks in its middle that came from the columns', () => {
    // Row 3 (clue 1 2 1) holds '???#.??': the 2 must end at column 4, so the first 1 sits in column 1.
    const { clues, board, solution } = position(
      ['#..###.', '.#.##..', '#.##..#', '.####..', '#.#.#..', '.###.##', '.....##'],
      ['??.?#??', '??.##..', '???#.??', '??##??.', '?.#????', '?##??#?', '..?????'],
    );
    expect(hint(clues, board, solution)).toMatchObject({ row: 2, col: 0, value: 'filled', reasoning: 'cross-reference', line: { axis: 'row', index: 2 } });
  });

  it('probes when no line gives anything: the wrong value leads to a contradiction', () => {
    const { clues, board, solution } = position(
      ['..##.#', '#.#...', '.#.##.', '#.#..#', '###.#.', '.#..##'],
      ['??????', '?.#.??', '??????', '??????', '?##???', '??????'],
    );
    const h = hint(clues, board, solution);
    expect(h).toMatchObject({ row: 0, col: 0, value: 'empty', reasoning: 'probing' });
    expect(h?.explanation).toContain('were filled');
  });

  it('reveals a cell when the board needs a guess (an ambiguous puzzle)', () => {
    const { clues, board, solution } = position(
      ['..#..', '#.###', '####.', '#.#.#', '.#...'],
      ['.??..', '#.###', '####.', '#.#.#', '.??..'],
    );
    expect(hint(clues, board, solution)).toMatchObject({ row: 0, col: 1, value: 'empty', reasoning: 'reveal' });
  });
});

describe('hint: policies and the end', () => {
  it('reveal-only names the same cell without the reasoning', () => {
    const { clues, board, solution } = position(HEART, ['?????', '#####', '#####', '?????', '?????']);
    const full = hint(clues, board, solution, 'explain-and-reveal');
    const bare = hint(clues, board, solution, 'reveal-only');
    expect(bare).toMatchObject({ row: full?.row, col: full?.col, value: full?.value });
    expect(bare?.explanation).toBe('The cell at row 4, column 3 is filled.');
  });

  it('returns null when hints are off or the board is complete and correct', () => {
    const { clues, board, solution } = position(HEART, HEART);
    expect(hint(clues, board, solution)).toBeNull();
    expect(hint(clues, createGrid(5, 5), solution, 'off')).toBeNull();
  });

  it('followed from a blank board, solves generated puzzles with correct cells and no reveals', () => {
    const puzzles = generatePuzzles({ width: 10, height: 10, density: 0.5, count: 12, seed: 3 });
    const seen = new Set<string>();
    for (const p of puzzles) {
      const solution = gridFromRows(p.solution as string[]);
      const clues = { rows: p.rows, cols: p.cols };
      const board: Grid = createGrid(10, 10);
      for (let step = 0; step < 100; step++) {
        const h = hint(clues, board, solution);
        if (!h) break;
        expect(h.kind).toBe('cell');
        expect(h.reasoning).not.toBe('reveal');
        const i = h.row * 10 + h.col;
        expect(h.value).toBe(solution.cells[i] === FILLED ? 'filled' : 'empty');
        board.cells[i] = h.value === 'filled' ? FILLED : EMPTY;
        seen.add(h.reasoning);
      }
      expect(Array.from(board.cells)).toEqual(Array.from(solution.cells));
    }
    expect([...seen].sort()).toEqual(['cross-reference', 'edge', 'foothold', 'overlap']);
  });
});

// Which lines of a participant's board are complete and consistent with their clue (the clue greys out).
import { FILLED, type Clue, type Grid } from '../nonogram/grid.ts';

/**
 * A line is "done" when the runs of its filled cells are exactly its clue, unknown cells counting as empty. This says
 * nothing about the solution: a done line can still be wrong where the puzzle has another reading. It is what paper
 * solvers do when they strike out a clue, so it gives no correctness feedback beyond the clue itself.
 */
export function lineDone(cells: ArrayLike<number>, start: number, length: number, step: number, clue: Clue): boolean {
  let k = 0;
  let run = 0;
  for (let i = 0; i <= length; i++) {
    const filled = i < length && cells[start + i * step] === FILLED;
    if (filled) run++;
    else if (run > 0) {
      if (k >= clue.length || clue[k] !== run) return false;
      k++;
      run = 0;
    }
  }
  return k === clue.length;
}

export interface DoneLines {
  rows: boolean[];
  cols: boolean[];
}

/** Done flags for every row and column of the grid. */
export function doneLines(grid: Grid, clues: { rows: Clue[]; cols: Clue[] }): DoneLines {
  const rows = clues.rows.map((clue, r) => lineDone(grid.cells, r * grid.width, grid.width, 1, clue));
  const cols = clues.cols.map((clue, c) => lineDone(grid.cells, c, grid.height, grid.width, clue));
  return { rows, cols };
}

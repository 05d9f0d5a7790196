// Forced cells of a Sudoku board: the cells that hold the same digit in every solution (exact).
/*
 * How: find one solution S. Every empty cell is a candidate for "forced to S's digit". For each
 * candidate cell i still standing, ask the counter for a solution with cell i anything but S[i];
 * if there is one, T, then every cell where T differs from S is not forced (not just i), which
 * usually settles many cells per search. When there is none, i is forced. At most one search per
 * empty cell, each an exact count with limit 1.
 */
import type { Grid } from './grid.ts';
import { countSolutions, type Inconsistency } from './solver.ts';

export interface ForcedCellsResult {
  /** The board with every forced cell filled (givens kept; 0 where solutions disagree); null with no solution. */
  forced: Grid | null;
  /** Empty cells of the input that are forced (the givens not counted). */
  forcedCount: number;
  /** Searches run (one for the first solution, one per open question). */
  searches: number;
  /** False when `maxNodes` stopped a search (then `forced` is null). */
  complete: boolean;
  inconsistent?: Inconsistency;
}

export function forcedCells(grid: Grid, options: { maxNodes?: number } = {}): ForcedCellsResult {
  const first = countSolutions(grid, 1, { maxNodes: options.maxNodes });
  if (first.inconsistent) return { forced: null, forcedCount: 0, searches: 0, complete: true, inconsistent: first.inconsistent };
  if (!first.complete) return { forced: null, forcedCount: 0, searches: 1, complete: false };
  if (!first.solution) return { forced: null, forcedCount: 0, searches: 1, complete: true };
  const n = grid.size, nn = n * n;
  const s = first.solution.cells;
  const full = n === 32 ? -1 : (1 << n) - 1;
  // open[i]: 1 while cell i might still be forced.
  const open = new Uint8Array(nn);
  for (let i = 0; i < nn; i++) open[i] = grid.cells[i] === 0 ? 1 : 0;
  const cand = new Int32Array(nn).fill(full);
  let searches = 1;
  for (let i = 0; i < nn; i++) {
    if (!open[i]) continue;
    cand[i] = full & ~(1 << (s[i] - 1));
    const r = countSolutions(grid, 1, { candidates: cand, maxNodes: options.maxNodes });
    cand[i] = full;
    searches++;
    if (!r.complete) return { forced: null, forcedCount: 0, searches, complete: false };
    if (r.solution) {
      const t = r.solution.cells;
      for (let j = i; j < nn; j++) if (t[j] !== s[j]) open[j] = 0;
    }
  }
  const cells = grid.cells.slice();
  let forcedCount = 0;
  for (let i = 0; i < nn; i++) {
    if (open[i]) {
      cells[i] = s[i];
      forcedCount++;
    }
  }
  return { forced: { size: grid.size, boxRows: grid.boxRows, boxCols: grid.boxCols, cells }, forcedCount, searches, complete: true };
}

// Reference implementations for the Sudoku tests: a naive backtracking counter and a solution checker (slow on purpose; test-only).
import { type Grid, boxIndex } from './grid.ts';

/** True when `cells` is a complete solution of side n agreeing with the givens. */
export function isSolutionOf(givens: Grid, solution: Grid): boolean {
  const n = givens.size;
  if (solution.cells.length !== n * n) return false;
  for (let i = 0; i < n * n; i++) {
    const v = solution.cells[i];
    if (v < 1 || v > n) return false;
    if (givens.cells[i] !== 0 && givens.cells[i] !== v) return false;
  }
  for (let a = 0; a < n * n; a++) for (let b = a + 1; b < n * n; b++) {
    const ra = Math.floor(a / n), ca = a % n, rb = Math.floor(b / n), cb = b % n;
    const peers = ra === rb || ca === cb || boxIndex(givens, ra, ca) === boxIndex(givens, rb, cb);
    if (peers && solution.cells[a] === solution.cells[b]) return false;
  }
  return true;
}

/**
 * All solutions up to `limit` by plain backtracking over cells in reading order, checking each digit
 * against its row, column and box by scanning: no propagation, nothing shared with solver.ts.
 */
export function referenceSolutions(grid: Grid, limit: number): Uint8Array[] {
  const n = grid.size, cells = grid.cells.slice(), out: Uint8Array[] = [];
  const ok = (i: number, v: number): boolean => {
    const r = Math.floor(i / n), c = i % n, b = boxIndex(grid, r, c);
    for (let j = 0; j < n * n; j++) {
      if (j === i || cells[j] !== v) continue;
      const rj = Math.floor(j / n), cj = j % n;
      if (rj === r || cj === c || boxIndex(grid, rj, cj) === b) return false;
    }
    return true;
  };
  for (let i = 0; i < n * n; i++) if (cells[i] !== 0 && !ok(i, cells[i])) return out;
  const open: number[] = [];
  for (let i = 0; i < n * n; i++) if (cells[i] === 0) open.push(i);
  const rec = (k: number): void => {
    if (out.length >= limit) return;
    if (k === open.length) {
      out.push(cells.slice());
      return;
    }
    const i = open[k];
    for (let v = 1; v <= n; v++) {
      if (!ok(i, v)) continue;
      cells[i] = v;
      rec(k + 1);
      cells[i] = 0;
      if (out.length >= limit) return;
    }
  };
  rec(0);
  return out;
}

// Test support: a small, plain backtracking Sudoku solver, kept as an independent reference for property tests of
// the propagation ladder, the technique ladder and the hints. It is deliberately simple (most-constrained cell first,
// digits tried in order or in a seeded random order) and shares no reasoning with the code it checks. The engine's
// own exact counter lives in solver.ts.
import { emptyGrid } from './grid.ts';
import type { Grid, Shape } from './grid.ts';
import type { Rng } from '../random.ts';
import { shuffle } from '../random.ts';

interface Search {
  n: number;
  cells: Uint8Array;
  unitsOf: number[][];
  members: number[][];
  used: Uint32Array;
}

function setup(grid: Grid): Search | null {
  const n = grid.size;
  const members: number[][] = [];
  for (let u = 0; u < 3 * n; u++) members.push([]);
  const unitsOf: number[][] = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const b = Math.floor(r / grid.boxRows) * (n / grid.boxCols) + Math.floor(c / grid.boxCols);
      const us = [r, n + c, 2 * n + b];
      unitsOf.push(us);
      for (const u of us) members[u].push(r * n + c);
    }
  }
  const used = new Uint32Array(3 * n);
  const cells = grid.cells.slice();
  for (let i = 0; i < n * n; i++) {
    const v = cells[i];
    if (v === 0) continue;
    const b = 1 << (v - 1);
    for (const u of unitsOf[i]) {
      if (used[u] & b) return null;
      used[u] |= b;
    }
  }
  return { n, cells, unitsOf, members, used };
}

/** Solutions of the board, up to `limit`; each is a full grid. An illegal board (a digit twice in a unit) has none. */
export function referenceSolutions(grid: Grid, limit = 2, rng?: Rng): Grid[] {
  const s = setup(grid);
  if (!s) return [];
  const { n, cells, unitsOf, used } = s;
  const full = (1 << n) - 1;
  const out: Grid[] = [];
  const free = (i: number) => full & ~(used[unitsOf[i][0]] | used[unitsOf[i][1]] | used[unitsOf[i][2]]);
  const rec = (): boolean => {
    let best = -1;
    let bestCount = 99;
    for (let i = 0; i < n * n; i++) {
      if (cells[i] !== 0) continue;
      let m = free(i);
      let k = 0;
      while (m) { m &= m - 1; k++; }
      if (k < bestCount) { best = i; bestCount = k; if (k <= 1) break; }
    }
    if (best < 0) {
      out.push({ size: grid.size, boxRows: grid.boxRows, boxCols: grid.boxCols, cells: cells.slice() });
      return out.length >= limit;
    }
    if (bestCount === 0) return false;
    const m = free(best);
    const digits: number[] = [];
    for (let v = 1; v <= n; v++) if (m & (1 << (v - 1))) digits.push(v);
    if (rng) shuffle(digits, rng);
    for (const v of digits) {
      const b = 1 << (v - 1);
      cells[best] = v;
      for (const u of unitsOf[best]) used[u] |= b;
      const stop = rec();
      for (const u of unitsOf[best]) used[u] &= ~b;
      cells[best] = 0;
      if (stop) return true;
    }
    return false;
  };
  rec();
  return out;
}

export function referenceCount(grid: Grid, limit = 2): number {
  return referenceSolutions(grid, limit).length;
}

/** A uniformly shuffled search's first full grid: random enough for tests. */
export function randomFullGrid(shape: Shape, rng: Rng): Grid {
  const [g] = referenceSolutions(emptyGrid(shape), 1, rng);
  return g;
}

/**
 * A puzzle with a unique solution: a random full grid, then clues removed one at a time in random order while the
 * solution stays unique (a minimal puzzle), stopping early once `keep` clues are left when asked.
 */
export function randomPuzzle(shape: Shape, rng: Rng, keep = 0): { puzzle: Grid; solution: Grid } {
  const solution = randomFullGrid(shape, rng);
  const puzzle = { ...solution, cells: solution.cells.slice() };
  const order = shuffle(Array.from({ length: shape.size * shape.size }, (_, i) => i), rng);
  let clues = order.length;
  for (const i of order) {
    if (clues <= keep) break;
    const v = puzzle.cells[i];
    puzzle.cells[i] = 0;
    if (referenceCount(puzzle, 2) !== 1) puzzle.cells[i] = v;
    else clues--;
  }
  return { puzzle, solution };
}

// Sudoku as CNF: the minimal and extended encodings of Lynce & Ouaknine 2006, DIMACS out, and MiniSat-exact SAT metrics.
/*
 * Variables. x(r, c, v) = r·N² + c·N + v, with r and c from 0 and v from 1 to N: "cell (r, c) holds
 * v". Variables run 1..N³, every one of them mentioned by the cell-definedness clauses.
 *
 * Clauses, in this order (each family's loops nest left to right, outermost first):
 *  1. givens: [x(r,c,v)] for each given, cells in reading order (r, then c);
 *  2. cell definedness: for r, for c: [x(r,c,1) … x(r,c,N)];
 *  3. cell uniqueness: for r, for c, for v1 < v2 (v1 outer): [-x(r,c,v1), -x(r,c,v2)];
 *  4. row definedness: for r, for v: [x(r,0,v) … x(r,N-1,v)];
 *  5. row uniqueness: for r, for v, for c1 < c2 (c1 outer): [-x(r,c1,v), -x(r,c2,v)];
 *  6. column definedness: for c, for v: [x(0,c,v) … x(N-1,c,v)];
 *  7. column uniqueness: for c, for v, for r1 < r2: [-x(r1,c,v), -x(r2,c,v)];
 *  8. box definedness: for each box in reading order, for v: its cells in reading order;
 *  9. box uniqueness: for each box, for v, for each pair i < j of its cells in reading order.
 * That is, per unit family definedness then uniqueness, rows then columns then boxes; within a
 * family unit outer, value next, cells (or pairs, in reading order) inner. The `minimal` encoding is
 * families 1, 2, 5, 7, 9 (givens, cell definedness, the three uniqueness families) in that order;
 * `extended` is all nine. A pair that shares a row (or column) and a box appears in both families,
 * as in the paper: the encodings are taken literally, not deduplicated.
 *
 * Clause counts, with k givens and P = N(N-1)/2 pairs per unit:
 *   minimal  = k + N² + 3·N²·P;         9x9: k + 8,829
 *   extended = k + 4·N² + 4·N²·P;       9x9: k + 11,988  (= k + 4·N²·(1 + P))
 *
 * Metrics: MiniSat 2.2.0's statistics of one solve of the CNF, used as PySAT's minisat22 is
 * (clauses added in order, then solve), through shared/sat's solver; with `minisatBinaryOrder`
 * they follow Debian's `minisat -no-pre` driver instead (see shared/sat/solver.ts).
 */
import { writeDimacs, type Cnf } from '../sat/dimacs.ts';
import { CnfBuilder, type FlatCnf } from '../sat/flatCnf.ts';
import { L_FALSE, L_TRUE, Solver, loadFlatCnf, type SatResult, type SolverStats } from '../sat/solver.ts';
import { type Grid, units } from './grid.ts';

export type SudokuEncoding = 'minimal' | 'extended';
export const SUDOKU_ENCODINGS: readonly SudokuEncoding[] = ['minimal', 'extended'];

/** The DIMACS variable of "cell (r, c) holds v" (r, c from 0; v from 1 to N). */
export const cellVar = (n: number, r: number, c: number, v: number): number => r * n * n + c * n + v;

/** Clause counts of an encoding for a side and a number of givens (see the file's header). */
export function sudokuClauseCount(n: number, givens: number, encoding: SudokuEncoding): number {
  const p = (n * (n - 1)) / 2;
  return encoding === 'minimal' ? givens + n * n + 3 * n * n * p : givens + 4 * n * n + 4 * n * n * p;
}

/** Writes the encoding's clauses into `out` (appending); returns the number of variables, N³. */
export function encodeSudokuInto(grid: Grid, encoding: SudokuEncoding, out: CnfBuilder): number {
  const n = grid.size;
  const x = (r: number, c: number, v: number) => r * n * n + c * n + v;
  const extended = encoding === 'extended';
  if (!extended && encoding !== 'minimal') throw new RangeError(`unknown Sudoku encoding '${encoding as string}' (minimal or extended)`);
  // 1. givens
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    const v = grid.cells[r * n + c];
    if (v !== 0) out.clause1(x(r, c, v));
  }
  // 2. cell definedness
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    for (let v = 1; v <= n; v++) out.lit(x(r, c, v));
    out.end();
  }
  // 3. cell uniqueness
  if (extended) for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    for (let v1 = 1; v1 <= n; v1++) for (let v2 = v1 + 1; v2 <= n; v2++) out.clause2(-x(r, c, v1), -x(r, c, v2));
  }
  // 4-9. rows, columns, boxes: definedness then uniqueness; a unit is its cells in reading order.
  const u = units(grid);
  for (const family of [u.rows, u.cols, u.boxes]) {
    if (extended) for (const cells of family) for (let v = 1; v <= n; v++) {
      for (const cell of cells) out.lit(cell * n + v);
      out.end();
    }
    for (const cells of family) for (let v = 1; v <= n; v++) {
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out.clause2(-(cells[i] * n + v), -(cells[j] * n + v));
    }
  }
  return n * n * n;
}

/** The encoding as a CNF (DIMACS integers). */
export function encodeSudoku(grid: Grid, encoding: SudokuEncoding = 'extended'): Cnf {
  const b = new CnfBuilder();
  const numVars = encodeSudokuInto(grid, encoding, b);
  return { numVars, clauses: b.toClauses() };
}

/** The encoding as DIMACS text, with comment lines naming it. */
export function sudokuDimacs(grid: Grid, encoding: SudokuEncoding = 'extended', comments: string[] = []): string {
  const n = grid.size;
  return writeDimacs(encodeSudoku(grid, encoding), [
    ...comments,
    `sudoku ${n}x${n} box ${grid.boxRows}x${grid.boxCols}, ${encoding} encoding (Lynce & Ouaknine 2006)`,
    `x(r,c,v) = r*${n * n} + c*${n} + v, r and c from 0, v from 1 to ${n}`,
  ]);
}

/** A board from a model: cell (r, c) holds the v whose x(r,c,v) is true (0 if none or several). */
export function gridFromModel(shape: Grid | { size: number; boxRows: number; boxCols: number }, model: ArrayLike<boolean>): Grid {
  const n = shape.size;
  const cells = new Uint8Array(n * n);
  for (let i = 0; i < n * n; i++) {
    let found = 0;
    for (let v = 1; v <= n; v++) {
      if (model[i * n + v - 1]) found = found === 0 ? v : -1;
    }
    cells[i] = found > 0 ? found : 0;
  }
  return { size: n, boxRows: shape.boxRows, boxCols: shape.boxCols, cells };
}

// Scratch space reused from call to call, as in shared/sat/metrics.ts: nothing survives a call but capacity.
const scratchCnf = new CnfBuilder();
const scratchSolver = new Solver();

export interface SudokuSatResult extends SolverStats {
  result: SatResult;
  /** The model's board when SAT. */
  solution?: Grid;
}

export interface SudokuSatOptions {
  conflictBudget?: number;
  /** Follow Debian's `minisat -no-pre` driver instead of PySAT's (shared/sat/solver.ts). */
  minisatBinaryOrder?: boolean;
}

/** Decisions, propagations, conflicts and restarts of one MiniSat-exact solve of the encoding. */
export function sudokuSatMetrics(grid: Grid, encoding: SudokuEncoding = 'extended', options: SudokuSatOptions = {}): SudokuSatResult {
  scratchCnf.clear();
  const numVars = encodeSudokuInto(grid, encoding, scratchCnf);
  const flat: FlatCnf = scratchCnf.view(numVars);
  const binary = Boolean(options.minisatBinaryOrder);
  const s = loadFlatCnf(flat, { minisatBinaryOrder: binary }, scratchSolver);
  if (binary && s.ok) s.simplify();
  const status = s.solveLimited([], options.conflictBudget ?? -1);
  const result: SatResult = status === L_TRUE ? 'SAT' : status === L_FALSE ? 'UNSAT' : 'UNKNOWN';
  const out: SudokuSatResult = { decisions: s.decisions, propagations: s.propagations, conflicts: s.conflicts, restarts: s.starts, result };
  if (status === L_TRUE) out.solution = gridFromModel(grid, Array.from(s.model, (v) => v === L_TRUE));
  return out;
}

/** The `metrics.sat_minimal` and `metrics.sat_extended` entries of a Sudoku record. */
export function sudokuSatMetricsRecord(grid: Grid): { sat_minimal: SolverStats; sat_extended: SolverStats } {
  const strip = ({ decisions, propagations, conflicts, restarts }: SudokuSatResult): SolverStats => ({ decisions, propagations, conflicts, restarts });
  return { sat_minimal: strip(sudokuSatMetrics(grid, 'minimal')), sat_extended: strip(sudokuSatMetrics(grid, 'extended')) };
}

// The zod schema of a Sudoku puzzle record: `{"kind":"sudoku","id","size","box","givens","solution","metrics"?}`.
//
// Rows are strings of symbols: 1-9, then A, B, C… for 10, 11, 12… (grid.ts DIGIT_SYMBOLS), '.' for an
// empty cell (givens only). The checks, each with a message naming the field: the box tiles the side
// (rows x cols = size), there are `size` rows of `size` symbols, every symbol is a digit of this size,
// no unit repeats a digit (givens and solution alike), the solution is complete and agrees with every
// given.
import { z } from 'zod';
import { DIGIT_SYMBOLS, type Grid, boxIndex, gridRows, shapeOf } from './grid.ts';
import { SatMetrics } from '../schema/puzzle.ts';

export const SudokuMetrics = z
  .object({ sat_minimal: SatMetrics.optional(), sat_extended: SatMetrics.optional() })
  .catchall(z.unknown());
export type SudokuMetrics = z.infer<typeof SudokuMetrics>;

const MAX_SIDE = 32; // the solver's limit (one 32-bit candidate mask per cell)

const Rows = z.array(z.string());

/** The fields of a Sudoku record, the one list both schemas below (and the study config's, shared/schema/config.ts) are made of. */
export const SudokuFields = {
  kind: z.literal('sudoku'),
  id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'ids use letters, digits, _ and -'),
  size: z.number().int().min(1).max(MAX_SIDE),
  box: z.tuple([z.number().int().min(1), z.number().int().min(1)]),
  givens: Rows,
  solution: Rows,
  seed: z.union([z.number(), z.string()]).optional(),
  metrics: SudokuMetrics.optional(),
};

export const SudokuPuzzle = z.object(SudokuFields).superRefine(checkSudoku);
export type SudokuPuzzle = z.infer<typeof SudokuPuzzle>;

/**
 * A board as the commands read it: a record whose solution may be missing (a board from a collection; `solve` counts
 * it, `measure` and `pack` fill the unique one in), the same checks on what it has, and a collection's comment.
 */
export const SudokuBoard = z.object({ ...SudokuFields, solution: Rows.optional(), comment: z.string().optional() }).superRefine(checkSudoku);
export type SudokuBoard = z.infer<typeof SudokuBoard>;

/** The value of a symbol on a board of side n: 0 for '.' (and '0' if asked), 1..n for a digit, -1 if it is not one. */
export function symbolValue(ch: string, n: number, zeroIsEmpty = false): number {
  if (ch === '.' || (zeroIsEmpty && ch === '0')) return 0;
  const v = ch.length === 1 ? DIGIT_SYMBOLS.indexOf(ch) + 1 : 0;
  return v >= 1 && v <= n ? v : -1;
}

const at = (r: number, c: number) => `r${r + 1}c${c + 1}`;

/** The record's checks (box, rows, symbols, units, givens against the solution), each issue naming its field. */
export function checkSudoku(p: { size: number; box: [number, number]; givens: string[]; solution?: string[] }, ctx: z.RefinementCtx): void {
  const n = p.size;
  if (p.box[0] * p.box[1] !== n) {
    ctx.addIssue({ code: 'custom', path: ['box'], message: `a box of ${p.box[0]}x${p.box[1]} has ${p.box[0] * p.box[1]} cells, the side is ${n}` });
    return;
  }
  const grids: Partial<Record<'givens' | 'solution', Uint8Array>> = {};
  for (const field of ['givens', 'solution'] as const) {
    const rows = p[field];
    if (rows === undefined) continue;
    let ok = true;
    if (rows.length !== n) {
      ctx.addIssue({ code: 'custom', path: [field], message: `expected ${n} rows, got ${rows.length}` });
      ok = false;
    }
    const cells = new Uint8Array(n * n);
    rows.forEach((row, r) => {
      if (row.length !== n) {
        ctx.addIssue({ code: 'custom', path: [field, r], message: `row ${r + 1} has ${row.length} symbols, expected ${n}` });
        ok = false;
        return;
      }
      for (let c = 0; c < n; c++) {
        const v = symbolValue(row[c], n);
        if (v < 0 || (v === 0 && field === 'solution')) {
          const allowed = `${DIGIT_SYMBOLS[0]}-${DIGIT_SYMBOLS[n - 1]}${field === 'givens' ? " or '.'" : ''}`;
          ctx.addIssue({ code: 'custom', path: [field, r], message: `${at(r, c)} is '${row[c]}', expected ${allowed}` });
          ok = false;
        } else if (r < n) cells[r * n + c] = v;
      }
    });
    if (!ok) continue;
    grids[field] = cells;
    const dup = firstDuplicate({ size: n, boxRows: p.box[0], boxCols: p.box[1], cells });
    if (dup) ctx.addIssue({ code: 'custom', path: [field], message: dup });
  }
  const g = grids.givens, s = grids.solution;
  if (g && s) {
    for (let i = 0; i < n * n; i++) {
      if (g[i] !== 0 && g[i] !== s[i]) {
        const r = Math.floor(i / n), c = i % n;
        ctx.addIssue({ code: 'custom', path: ['givens', r], message: `${at(r, c)} is given as ${DIGIT_SYMBOLS[g[i] - 1]} but the solution has ${DIGIT_SYMBOLS[s[i] - 1]}` });
        return;
      }
    }
  }
}

/** "digit 5 appears twice in row 3 (r3c1 and r3c7)", or null when no unit repeats a digit. */
export function firstDuplicate(grid: Grid): string | null {
  const n = grid.size;
  const names = ['row', 'column', 'box'];
  const seen = new Int32Array(3 * n * (n + 1)).fill(-1);
  for (let i = 0; i < n * n; i++) {
    const v = grid.cells[i];
    if (v === 0) continue;
    const r = Math.floor(i / n), c = i % n;
    const keys = [r, c, boxIndex(grid, r, c)];
    for (let f = 0; f < 3; f++) {
      const slot = (f * n + keys[f]) * (n + 1) + v;
      const prev = seen[slot];
      if (prev >= 0) return `${DIGIT_SYMBOLS[v - 1]} appears twice in ${names[f]} ${keys[f] + 1} (${at(Math.floor(prev / n), prev % n)} and ${at(r, c)})`;
      seen[slot] = i;
    }
  }
  return null;
}

/** The grids of a validated record: givens (0 = empty) and solution. */
export function recordGrids(p: SudokuPuzzle): { givens: Grid; solution: Grid } {
  const shape = shapeOf(p.box[0], p.box[1]);
  const read = (rows: string[]): Grid => {
    const cells = new Uint8Array(shape.size * shape.size);
    rows.forEach((row, r) => {
      for (let c = 0; c < shape.size; c++) cells[r * shape.size + c] = Math.max(0, symbolValue(row[c], shape.size));
    });
    return { ...shape, cells };
  };
  return { givens: read(p.givens), solution: read(p.solution) };
}

/** A record from grids (id given by the caller, e.g. formats.ts puzzleId). Not validated here. */
export function recordOf(id: string, givens: Grid, solution: Grid, extra: { seed?: number | string; metrics?: SudokuMetrics } = {}): SudokuPuzzle {
  const rec: SudokuPuzzle = { kind: 'sudoku', id, size: givens.size, box: [givens.boxRows, givens.boxCols], givens: gridRows(givens), solution: gridRows(solution) };
  if (extra.seed !== undefined) rec.seed = extra.seed;
  if (extra.metrics !== undefined) rec.metrics = extra.metrics;
  return rec;
}

// The Lynce & Ouaknine encodings: clause order and counts as specified, models equal to the solution, and MiniSat's own statistics.
import { describe, expect, it } from 'vitest';
import { parseDimacs } from '../sat/dimacs.ts';
import { solveCnf } from '../sat/solver.ts';
import { type Grid, emptyGrid, shapeOf } from './grid.ts';
import { cellVar, encodeSudoku, gridFromModel, sudokuClauseCount, sudokuDimacs, sudokuSatMetrics, sudokuSatMetricsRecord, type SudokuEncoding } from './cnf.ts';
import { parseLine, writeLine } from './formats.ts';
import { generateSudoku } from './generate.ts';
import { countSolutions } from './solver.ts';
import { createRng } from '../random.ts';
import { isSolutionOf } from './testSupport.ts';
import minisat from './fixtures/minisat.json' with { type: 'json' };

/** The specification written out independently: the nine families in the order, loops as documented. */
function specClauses(g: Grid, encoding: SudokuEncoding): number[][] {
  const n = g.size, out: number[][] = [];
  const x = (r: number, c: number, v: number) => r * n * n + c * n + v;
  const ext = encoding === 'extended';
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (g.cells[r * n + c]) out.push([x(r, c, g.cells[r * n + c])]);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) out.push(Array.from({ length: n }, (_, k) => x(r, c, k + 1)));
  if (ext) for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) for (let a = 1; a <= n; a++) for (let b = a + 1; b <= n; b++) out.push([-x(r, c, a), -x(r, c, b)]);
  const rows = Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => [r, c]));
  const cols = Array.from({ length: n }, (_, c) => Array.from({ length: n }, (_, r) => [r, c]));
  const boxes: number[][][] = [];
  for (let br = 0; br < n / g.boxRows; br++) for (let bc = 0; bc < n / g.boxCols; bc++) {
    const cells: number[][] = [];
    for (let r = br * g.boxRows; r < (br + 1) * g.boxRows; r++) for (let c = bc * g.boxCols; c < (bc + 1) * g.boxCols; c++) cells.push([r, c]);
    boxes.push(cells);
  }
  for (const family of [rows, cols, boxes]) {
    if (ext) for (const unit of family) for (let v = 1; v <= n; v++) out.push(unit.map(([r, c]) => x(r, c, v)));
    for (const unit of family) for (let v = 1; v <= n; v++) for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out.push([-x(unit[i][0], unit[i][1], v), -x(unit[j][0], unit[j][1], v)]);
  }
  return out;
}

describe('encodings', () => {
  it('number variables x(r,c,v) = r·N² + c·N + v', () => {
    expect(cellVar(9, 0, 0, 1)).toBe(1);
    expect(cellVar(9, 0, 1, 1)).toBe(10);
    expect(cellVar(9, 1, 0, 1)).toBe(82);
    expect(cellVar(9, 8, 8, 9)).toBe(729);
  });

  for (const box of [[2, 2], [2, 3], [3, 2], [3, 3]] as [number, number][]) {
    for (const encoding of ['minimal', 'extended'] as const) {
      it(`${encoding} on a ${box[0]}x${box[1]}-box board is the specification, clause for clause`, () => {
        const g = generateSudoku({ box, seed: 4 }).givens;
        const cnf = encodeSudoku(g, encoding);
        const n = g.size;
        expect(cnf.numVars).toBe(n * n * n);
        expect(cnf.clauses).toEqual(specClauses(g, encoding));
        const k = g.cells.filter((v) => v !== 0).length;
        expect(cnf.clauses.length).toBe(sudokuClauseCount(n, k, encoding));
      });
    }
  }

  it('counts clauses as the formulas say on 9x9: minimal k + 8,829, extended k + 11,988', () => {
    const g = parseLine('53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79');
    expect(encodeSudoku(g, 'minimal').clauses.length).toBe(30 + 8829);
    expect(encodeSudoku(g, 'extended').clauses.length).toBe(30 + 11988);
    expect(sudokuClauseCount(9, 0, 'extended')).toBe(4 * 81 * (1 + 36));
    expect(sudokuClauseCount(16, 0, 'extended')).toBe(4 * 256 + 4 * 256 * 120);
  });

  it('opens with the givens as units, then the definedness of r1c1, in that order', () => {
    const g = parseLine('5' + '.'.repeat(79) + '9');
    const c = encodeSudoku(g, 'extended').clauses;
    expect(c.slice(0, 3)).toEqual([[5], [729], [1, 2, 3, 4, 5, 6, 7, 8, 9]]);
    // After 81 definedness clauses come r1c1's value pairs (1,2), (1,3)…
    expect(c[2 + 81]).toEqual([-1, -2]);
    expect(c[2 + 82]).toEqual([-1, -3]);
    // Row 1's definedness of 1 follows the 81·36 cell pairs.
    expect(c[2 + 81 + 81 * 36]).toEqual([1, 10, 19, 28, 37, 46, 55, 64, 73]);
    // Minimal: the definedness, then row 1's pairs of digit 1, cells (c1,c2), (c1,c3)…
    const m = encodeSudoku(g, 'minimal').clauses;
    expect(m[2 + 81]).toEqual([-1, -10]);
    expect(m[2 + 82]).toEqual([-1, -19]);
  });

  it('writes DIMACS that parses back to the same CNF, with comments', () => {
    const g = generateSudoku({ size: 4, seed: 1 }).givens;
    const text = sudokuDimacs(g, 'minimal');
    expect(text.split('\n')[0]).toBe('c sudoku 4x4 box 2x2, minimal encoding (Lynce & Ouaknine 2006)');
    expect(text).toMatch(/\np cnf 64 \d+\n/);
    expect(parseDimacs(text)).toEqual(encodeSudoku(g, 'minimal'));
  });

  it('the SAT model is the solution, on both encodings and every box shape; no solution is UNSAT', () => {
    for (const box of [[2, 2], [2, 3], [3, 3], [3, 4]] as [number, number][]) {
      for (const seed of [1, 2]) {
        const p = generateSudoku({ box, seed });
        for (const encoding of ['minimal', 'extended'] as const) {
          const r = sudokuSatMetrics(p.givens, encoding);
          expect(r.result).toBe('SAT');
          expect(writeLine(r.solution as Grid)).toBe(writeLine(p.solution));
          const fresh = solveCnf(encodeSudoku(p.givens, encoding));
          expect(writeLine(gridFromModel(p.givens, fresh.model as boolean[]))).toBe(writeLine(p.solution));
          expect(fresh.stats).toEqual({ decisions: r.decisions, propagations: r.propagations, conflicts: r.conflicts, restarts: r.restarts });
        }
      }
    }
    const none = parseLine('12345678.' + '.'.repeat(8) + '9' + '.'.repeat(63));
    expect(countSolutions(none, 1).solutions).toBe(0);
    for (const encoding of ['minimal', 'extended'] as const) expect(sudokuSatMetrics(none, encoding).result).toBe('UNSAT');
    const dup = parseLine('11' + '.'.repeat(79));
    expect(sudokuSatMetrics(dup, 'minimal').result).toBe('UNSAT');
  });

  it('agrees with countSolutions on random boards (SAT exactly when a solution exists; the model solves the board)', () => {
    let sat = 0, unsat = 0;
    for (const box of [[2, 2], [2, 3]] as [number, number][]) {
      for (let k = 0; k < 80; k++) {
        const rng = createRng(7000 + k + 100 * box[1]);
        const g = emptyGrid(shapeOf(box[0], box[1]));
        const n = g.size;
        // A few random digits: some boards have solutions, some none, some repeat a digit.
        for (let t = 0; t < 3 + (k % (n + 2)); t++) g.cells[rng.int(n * n)] = 1 + rng.int(n);
        const exists = countSolutions(g, 1).solutions > 0;
        for (const encoding of ['minimal', 'extended'] as const) {
          const r = sudokuSatMetrics(g, encoding);
          expect(r.result).toBe(exists ? 'SAT' : 'UNSAT');
          if (exists) expect(isSolutionOf(g, r.solution as Grid)).toBe(true);
        }
        if (exists) sat++;
        else unsat++;
      }
    }
    expect(sat).toBeGreaterThan(10);
    expect(unsat).toBeGreaterThan(10);
  });

  it('sudokuSatMetricsRecord gives both entries', () => {
    const g = emptyGrid(shapeOf(2, 2));
    const rec = sudokuSatMetricsRecord(g);
    expect(Object.keys(rec)).toEqual(['sat_minimal', 'sat_extended']);
    expect(Object.keys(rec.sat_minimal).sort()).toEqual(['conflicts', 'decisions', 'propagations', 'restarts']);
  });
});

describe('MiniSat-exact statistics', () => {
  // minisat.json: native MiniSat 2.2 (`minisat -no-pre`) on these boards' DIMACS; ours must be equal,
  // in both of the solver's driver orders (with the givens as unit clauses they coincide here).
  for (const b of minisat.boards) {
    it(`${b.name}`, () => {
      const g = parseLine(b.board);
      for (const encoding of ['minimal', 'extended'] as const) {
        const want = b[encoding];
        const pick = (r: ReturnType<typeof sudokuSatMetrics>) => ({ result: r.result, decisions: r.decisions, propagations: r.propagations, conflicts: r.conflicts, restarts: r.restarts });
        expect(pick(sudokuSatMetrics(g, encoding, { minisatBinaryOrder: true }))).toEqual(want);
        expect(pick(sudokuSatMetrics(g, encoding))).toEqual(want);
      }
    });
  }
});

// The paper's block-start CNF encoding of a Nonogram (He et al. 2026, Appendix A), clause for clause.
/*
 * Variables. Cell (r, c) of an R x C board is variable r*C + c + 1 (true = filled). Then, line by
 * line (rows top to bottom, then columns left to right), block by block, start position
 * ascending: s(i, p) = "block i of this line starts at p", for every feasible p. Feasible starts
 * use tight packing: with line length N and blocks L1..Lk, block i's earliest start is
 * e_i = sum_{j<i} (Lj + 1), the slack is S = N - (sum Lj + k - 1), and p runs over e_i..e_i+S.
 *
 * Clauses, per line, in this order (the order matters: a CDCL solver's statistics depend on it;
 * this is the order of the study's vectors in fixtures/minisat/nono*.cnf):
 *   for each block i:
 *     exactly one start: (OR_p s(i,p)), then (¬s(i,p) ∨ ¬s(i,q)) for p < q;
 *     ordering with block i+1: (¬s(i,p) ∨ ¬s(i+1,q)) for p ascending, q ascending, q < p + Li + 1;
 *     coverage: (¬s(i,p) ∨ x(j)) for p ascending, j = p..p+Li-1;
 *   justification, cell j = 0..N-1: (¬x(j) ∨ OR of the s(i,p) covering j, block-major), or the
 *   unit (¬x(j)) when nothing can cover j;
 *   a line without blocks: the units (¬x(j)) only.
 * Rows and columns share the cell variables. Nothing is simplified or added, so the counts are the
 * paper's: per line with k >= 1 blocks, sum_i (S+1) variables and
 * k(1 + C(S+1,2)) + (k-1)C(S+1,2) + (S+1)·sum Li + N clauses (consecutive blocks' starts a, b
 * steps into their ranges clash exactly when b < a); N unit clauses for an empty line.
 *
 * Why it is exact: coverage and justification make the filled cells of a line exactly the union
 * of the chosen blocks' spans; exactly-one and ordering (a gap of at least one cell) make the
 * spans a left-to-right sequence of the clue's runs. So the models projected on the cell
 * variables are exactly the boards whose lines all match their clues (checked by brute force in
 * the tests). What it cannot do: nothing beyond the clue's own constraints; it is O(kN) variables
 * and O(kN²) clauses per line, larger than the DFA encoding on long lines.
 */
import type { Clue, Clues } from '../nonogram/grid.ts';
import { CnfBuilder } from './flatCnf.ts';

export interface NonogramCnf {
  numVars: number;
  clauses: number[][];
  /** DIMACS variable of cell (row, col): row*C + col + 1. */
  cellVar: (row: number, col: number) => number;
}

/** Earliest starts and slack of a clue in a line of length n (slack < 0: the clue does not fit). */
export function packing(clue: Clue, n: number): { earliest: number[]; slack: number } {
  const earliest: number[] = [];
  let e = 0;
  for (const len of clue) {
    earliest.push(e);
    e += len + 1;
  }
  const total = clue.length === 0 ? 0 : e - 1;
  return { earliest, slack: n - total };
}

export function checkClues(clues: Clues): { rows: number; cols: number } {
  const rows = clues.rows.length;
  const cols = clues.cols.length;
  const check = (clue: Clue, n: number, what: string) => {
    for (const len of clue) if (!Number.isInteger(len) || len < 1) throw new RangeError(`${what}: run length ${len} is not a positive integer`);
    if (packing(clue, n).slack < 0) throw new RangeError(`${what}: clue ${JSON.stringify(clue)} does not fit in ${n} cells`);
  };
  clues.rows.forEach((c, r) => check(c, cols, `row ${r}`));
  clues.cols.forEach((c, k) => check(c, rows, `column ${k}`));
  return { rows, cols };
}

/** The lines of a board as lists of cell variables: rows top to bottom, then columns left to right. */
export function boardLines(clues: Clues): { clue: Clue; cells: number[] }[] {
  const { rows, cols } = checkClues(clues);
  const lines: { clue: Clue; cells: number[] }[] = [];
  for (let r = 0; r < rows; r++) lines.push({ clue: clues.rows[r], cells: Array.from({ length: cols }, (_, c) => r * cols + c + 1) });
  for (let c = 0; c < cols; c++) lines.push({ clue: clues.cols[c], cells: Array.from({ length: rows }, (_, r) => r * cols + c + 1) });
  return lines;
}

export function encodeBlockStart(clues: Clues): NonogramCnf {
  const cols = clues.cols.length;
  const b = new CnfBuilder();
  const numVars = encodeBlockStartInto(clues, b);
  return { numVars, clauses: b.toClauses(), cellVar: (r, c) => r * cols + c + 1 };
}

/** The block-start clauses written into `out` (appended, in the order above); returns the number of variables. */
export function encodeBlockStartInto(clues: Clues, out: CnfBuilder): number {
  const lines = boardLines(clues);
  let next = clues.rows.length * clues.cols.length + 1;
  for (const { clue, cells } of lines) {
    const n = cells.length;
    if (clue.length === 0) {
      for (const x of cells) out.clause1(-x);
      continue;
    }
    const { earliest, slack } = packing(clue, n);
    const first = next; // block i's start a is variable first + i*(slack+1) + a
    next += clue.length * (slack + 1);
    const sv = (i: number, a: number) => first + i * (slack + 1) + a;
    for (let i = 0; i < clue.length; i++) {
      for (let a = 0; a <= slack; a++) out.lit(sv(i, a));
      out.end();
      for (let a = 0; a <= slack; a++) for (let b = a + 1; b <= slack; b++) out.clause2(-sv(i, a), -sv(i, b));
      if (i + 1 < clue.length) {
        for (let a = 0; a <= slack; a++) {
          const p = earliest[i] + a;
          for (let b = 0; b <= slack; b++) {
            const q = earliest[i + 1] + b;
            if (q < p + clue[i] + 1) out.clause2(-sv(i, a), -sv(i + 1, b));
          }
        }
      }
      for (let a = 0; a <= slack; a++) {
        const p = earliest[i] + a;
        for (let j = p; j < p + clue[i]; j++) out.clause2(-sv(i, a), cells[j]);
      }
    }
    for (let j = 0; j < n; j++) {
      out.lit(-cells[j]);
      for (let i = 0; i < clue.length; i++)
        for (let a = 0; a <= slack; a++) {
          const p = earliest[i] + a;
          if (p <= j && j < p + clue[i]) out.lit(sv(i, a));
        }
      out.end();
    }
  }
  return next - 1;
}

/** The variable and clause counts the construction must give (its direct count formula). */
export function blockStartCounts(clues: Clues): { numVars: number; numClauses: number } {
  let numVars = clues.rows.length * clues.cols.length;
  let numClauses = 0;
  for (const { clue, cells } of boardLines(clues)) {
    const n = cells.length;
    const k = clue.length;
    if (k === 0) {
      numClauses += n;
      continue;
    }
    const s = packing(clue, n).slack;
    const pairs = ((s + 1) * s) / 2;
    numVars += k * (s + 1);
    numClauses += k * (1 + pairs) + (k - 1) * pairs + (s + 1) * clue.reduce((x, y) => x + y, 0) + n;
  }
  return { numVars, numClauses };
}

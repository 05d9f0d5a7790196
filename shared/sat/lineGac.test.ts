// The line-GAC encoding: its models are exactly the solutions (brute force), and unit propagation on one line is the complete line solver.
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import { cluesOf, createGrid, EMPTY, FILLED, UNKNOWN, type Clue, type Clues } from '../nonogram/grid.ts';
import { solveLineInPlace } from '../nonogram/lineSolver.ts';
import { emitLine, emitLineGac, encodeLineGac, labelledAutomaton } from './lineGac.ts';
import { fromDimacs, L_FALSE, L_TRUE, loadCnf, Solver } from './solver.ts';

function runs(bits: ArrayLike<number>): number[] {
  const out: number[] = [];
  let run = 0;
  for (let i = 0; i < bits.length; i++) {
    if (bits[i]) run++;
    else if (run) {
      out.push(run);
      run = 0;
    }
  }
  if (run) out.push(run);
  return out;
}
const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Every solution as a 0/1 string (row-major), by brute force over all boards. */
function bruteSolutions(clues: Clues): Set<string> {
  const h = clues.rows.length;
  const w = clues.cols.length;
  const out = new Set<string>();
  for (let mask = 0; mask < 2 ** (w * h); mask++) {
    const bits = Array.from({ length: w * h }, (_, i) => Math.floor(mask / 2 ** i) % 2);
    let ok = true;
    for (let r = 0; r < h && ok; r++) ok = same(runs(bits.slice(r * w, r * w + w)), clues.rows[r]);
    for (let c = 0; c < w && ok; c++) ok = same(runs(Array.from({ length: h }, (_, r) => bits[r * w + c])), clues.cols[c]);
    if (ok) out.add(bits.join(''));
  }
  return out;
}

/** The models of a CNF projected on the first `cells` variables, by blocking each one found. */
function projectedModels(cnf: { clauses: number[][] }, cells: number): Set<string> {
  const s = loadCnf(cnf);
  while (s.nVars() < cells) s.newVar();
  const out = new Set<string>();
  while (s.solve()) {
    const bits = Array.from({ length: cells }, (_, v) => (s.modelValue(v) === L_TRUE ? 1 : 0));
    out.add(bits.join(''));
    if (!s.addClause(bits.map((b, v) => fromDimacs(b ? -(v + 1) : v + 1)))) break;
  }
  return out;
}

const randomClues = (w: number, h: number, density: number, rng: ReturnType<typeof createRng>): Clues => {
  const g = createGrid(w, h, EMPTY);
  for (let i = 0; i < g.cells.length; i++) if (rng.next() < density) g.cells[i] = FILLED;
  return cluesOf(g);
};

describe('line-GAC encoding', () => {
  it('the automaton: state labels are the clue pattern, accepting at m and m+1', () => {
    const a = labelledAutomaton([2, 1]);
    expect(Array.from(a.label)).toEqual([0, 1, 1, 0, 1, 0]);
    expect(a.succ).toEqual([[0, 1], [2], [3], [3, 4], [5], [5]]);
    expect([0, 1, 2, 3, 4, 5].filter(a.accepting)).toEqual([4, 5]);
  });

  it('models projected on the cells are exactly the solutions (brute force, 300 small boards incl. mixed clue sets)', () => {
    const rng = createRng(31);
    let none = 0;
    let several = 0;
    for (let k = 0; k < 300; k++) {
      const w = 2 + rng.int(3);
      const h = 2 + rng.int(2) + (w < 4 ? 1 : 0); // at most 12 cells: brute force stays quick
      let clues = randomClues(w, h, 0.2 + 0.6 * rng.next(), rng);
      if (k % 3 === 0) clues = { rows: clues.rows, cols: randomClues(w, h, 0.5, rng).cols }; // mostly unsatisfiable
      const truth = bruteSolutions(clues);
      if (truth.size === 0) none++;
      if (truth.size >= 2) several++;
      expect(projectedModels(encodeLineGac(clues), w * h), JSON.stringify(clues)).toEqual(truth);
    }
    expect(none).toBeGreaterThan(20);
    expect(several).toBeGreaterThan(20);
  });

  it('restricted to known cells (units plus a pruned graph): the same models as the full encoding with those units', () => {
    const rng = createRng(32);
    for (let k = 0; k < 150; k++) {
      const w = 3 + rng.int(2);
      const h = 3;
      const clues = randomClues(w, h, 0.5, rng);
      const truth = [...bruteSolutions(clues)];
      // Known cells taken from a solution (consistent) or at random (often inconsistent).
      const from = truth.length > 0 && rng.next() < 0.7 ? truth[rng.int(truth.length)] : undefined;
      const known = new Uint8Array(w * h);
      for (let i = 0; i < w * h; i++) if (rng.next() < 0.3) known[i] = from ? (from[i] === '1' ? FILLED : EMPTY) : 1 + rng.int(2);
      const clauses: number[][] = [];
      emitLineGac(clues, (lits, len) => clauses.push(Array.from(lits.subarray(0, len))), known);
      const expected = new Set(truth.filter((t) => [...t].every((b, i) => known[i] === UNKNOWN || (b === '1') === (known[i] === FILLED))));
      expect(projectedModels({ clauses }, w * h)).toEqual(expected);
    }
  });

  it('unit propagation on one line sets exactly the cells the complete line solver sets (2,000 random partial lines)', () => {
    const rng = createRng(33);
    let contradictions = 0;
    let settled = 0;
    for (let k = 0; k < 2000; k++) {
      const n = 1 + rng.int(12);
      const line = Array.from({ length: n }, () => (rng.next() < 0.5 ? 1 : 0));
      const clue: Clue = rng.next() < 0.8 ? runs(line) : runs(Array.from({ length: n }, () => (rng.next() < 0.5 ? 1 : 0)));
      const partial = new Uint8Array(n);
      for (let j = 0; j < n; j++) if (rng.next() < 0.35) partial[j] = rng.next() < 0.5 ? FILLED : EMPTY;
      // The line solver's answer.
      const cells = Uint8Array.from(partial);
      const changed = solveLineInPlace(clue, cells, 0, n, 1);
      // Unit propagation: the line's clauses, then the known cells as units (addClause propagates at once).
      const s = new Solver();
      let ok = true;
      const lits: number[][] = [];
      emitLine(clue, Array.from({ length: n }, (_, j) => j + 1), (l, len) => lits.push(Array.from(l.subarray(0, len))), n + 1);
      for (const c of lits) {
        for (const l of c) while (s.nVars() < Math.abs(l)) s.newVar();
        while (s.nVars() < n) s.newVar();
        ok = s.addClause(c.map(fromDimacs)) && ok;
      }
      for (let j = 0; j < n && ok; j++) if (partial[j] !== UNKNOWN) ok = s.addClause([fromDimacs(partial[j] === FILLED ? j + 1 : -(j + 1))]);
      if (changed < 0) {
        contradictions++;
        expect(ok, `${JSON.stringify(clue)} ${Array.from(partial).join('')}`).toBe(false);
        continue;
      }
      expect(ok, `${JSON.stringify(clue)} ${Array.from(partial).join('')}`).toBe(true);
      const byUp = Array.from({ length: n }, (_, j) => {
        const v = s.litValue(fromDimacs(j + 1));
        return v === L_TRUE ? FILLED : v === L_FALSE ? EMPTY : UNKNOWN;
      });
      expect(byUp, `${JSON.stringify(clue)} ${Array.from(partial).join('')}`).toEqual(Array.from(cells));
      if (changed > 0) settled++;
    }
    expect(contradictions).toBeGreaterThan(100);
    expect(settled).toBeGreaterThan(300);
  });
});

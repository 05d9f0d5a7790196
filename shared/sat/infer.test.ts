// The fast forced-cell inference (steered models, every model harvested) against the one-cell-at-a-time reference, and its conflict budget.
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import { cluesOf, createGrid, EMPTY, FILLED, UNKNOWN } from '../nonogram/grid.ts';
import { propagateInPlace } from '../nonogram/solver.ts';
import { forcedCells, forcedCellsReference } from './infer.ts';
import { satMetrics } from './metrics.ts';
import { Solver, mkLit, L_TRUE } from './solver.ts';

function randomClues(size: number, density: number, seed: number) {
  const rng = createRng(seed);
  const cells = new Uint8Array(size * size);
  for (let i = 0; i < cells.length; i++) cells[i] = rng.next() < density ? FILLED : EMPTY;
  return cluesOf({ width: size, height: size, cells });
}

describe('forcedCells (fast) equals the reference', () => {
  const cases: [number, number, number][] = [];
  for (const size of [5, 8, 12]) for (const density of [0.3, 0.4, 0.5, 0.6]) for (let s = 0; s < 3; s++) cases.push([size, density, 1000 * size + 100 * density + s]);
  cases.push([15, 0.4, 7], [15, 0.45, 8], [15, 0.55, 9]);
  it.each(cases)('size %i, density %f, seed %i', (size, density, seed) => {
    const clues = randomClues(size, density, seed);
    for (const encoding of ['block-start', 'dfa', 'line-gac'] as const) {
      const ref = forcedCellsReference(clues, { encoding });
      const fast = forcedCells(clues, { encoding });
      expect(Array.from(fast.grid.cells)).toEqual(Array.from(ref.grid.cells));
      expect([fast.forcedFilled, fast.forcedEmpty, fast.undecided, fast.unique, fast.solvable]).toEqual([ref.forcedFilled, ref.forcedEmpty, 0, ref.unique, true]);
      // Cells known from line solving are reported as forced and change nothing.
      const known = createGrid(size, size);
      propagateInPlace(clues, known, 'complete');
      const withKnown = forcedCells(clues, { encoding, known });
      expect(Array.from(withKnown.grid.cells)).toEqual(Array.from(ref.grid.cells));
      // The first call is the plain solve: MiniSat's statistics of the board's CNF.
      if (encoding === 'line-gac') continue; // satMetrics measures the study's two encodings only
      expect(withKnown.firstSolve).toEqual(satMetrics(clues, encoding));
      expect(fast.firstSolve).toEqual(satMetrics(clues, encoding));
    }
  });

  it('reports cells whose call ran out of budget as undecided, never as forced or free', () => {
    const clues = randomClues(20, 0.4, 3);
    const exact = forcedCellsReference(clues);
    const limited = forcedCells(clues, { conflictBudget: 20 });
    if (!limited.solvable) {
      expect(limited.undecided).toBe(400);
      return;
    }
    expect(limited.undecided).toBeGreaterThan(0);
    let undecided = 0;
    for (let i = 0; i < 400; i++) {
      // A cell the budgeted run calls forced is forced; one it leaves UNKNOWN is free or undecided.
      if (limited.grid.cells[i] !== UNKNOWN) expect(limited.grid.cells[i]).toBe(exact.grid.cells[i]);
      else if (exact.grid.cells[i] !== UNKNOWN) undecided++;
    }
    expect(limited.forcedFilled + limited.forcedEmpty + undecided).toBeGreaterThanOrEqual(exact.forcedFilled + exact.forcedEmpty);
    expect(limited.undecided).toBeGreaterThanOrEqual(undecided);
  });
});

describe('forcedCells with a known solution', () => {
  function board(size: number, density: number, seed: number) {
    const rng = createRng(seed);
    const cells = new Uint8Array(size * size);
    for (let i = 0; i < cells.length; i++) cells[i] = rng.next() < density ? FILLED : EMPTY;
    const grid = { width: size, height: size, cells };
    return { grid, clues: cluesOf(grid) };
  }

  it('changes nothing when the plain solve finishes', () => {
    const { grid, clues } = board(12, 0.45, 11);
    const plain = forcedCells(clues);
    const withSolution = forcedCells(clues, { solution: grid });
    expect(Array.from(withSolution.grid.cells)).toEqual(Array.from(plain.grid.cells));
    expect(withSolution.solves).toBe(plain.solves);
  });

  it('goes on from the solution when the plain solve runs out of budget: forced cells are exact, the rest undecided or free', () => {
    let checked = 0;
    for (let seed = 1; seed <= 6 && checked < 2; seed++) {
      const { grid, clues } = board(15, 0.4, seed);
      const limited = forcedCells(clues, { conflictBudget: 10, solution: grid });
      if (limited.firstSolve.result !== 'UNKNOWN') continue;
      const exact = forcedCellsReference(clues);
      const without = forcedCells(clues, { conflictBudget: 10 });
      checked++;
      expect(without.undecided).toBe(225);
      expect(limited.solvable).toBe(true);
      expect(limited.undecided).toBeLessThan(225);
      let exactForcedLeftOpen = 0;
      for (let i = 0; i < 225; i++) {
        if (limited.grid.cells[i] !== UNKNOWN) expect(limited.grid.cells[i]).toBe(exact.grid.cells[i]);
        else if (exact.grid.cells[i] !== UNKNOWN) exactForcedLeftOpen++;
      }
      // Every exactly-forced cell the budgeted run did not prove is among its undecided ones.
      expect(limited.undecided).toBeGreaterThanOrEqual(exactForcedLeftOpen);
      expect(limited.forcedFilled + limited.forcedEmpty + limited.undecided).toBeGreaterThanOrEqual(exact.forcedFilled + exact.forcedEmpty);
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('refuses a solution that does not satisfy the clues', () => {
    const { grid, clues } = board(20, 0.4, 2);
    const wrong = { ...grid, cells: grid.cells.slice() };
    wrong.cells[0] = wrong.cells[0] === FILLED ? EMPTY : FILLED;
    expect(() => forcedCells(clues, { conflictBudget: 0, solution: wrong })).toThrow(/does not satisfy/);
    expect(() => forcedCells(clues, { conflictBudget: 0, solution: createGrid(3, 3) })).toThrow(RangeError);
  });
});

describe('Solver.setPolarity / setDecisionVar', () => {
  it('setPolarity picks the value a decision tries first; plain solve is unchanged without it', () => {
    const s = new Solver();
    for (let i = 0; i < 3; i++) s.newVar();
    s.addClause([mkLit(0), mkLit(1), mkLit(2)]);
    expect(s.solve()).toBe(true);
    expect(s.modelValue(0)).not.toBe(L_TRUE); // MiniSat's default phase: false first
    s.setPolarity(0, false);
    s.setPolarity(1, false);
    expect(s.solve()).toBe(true);
    expect([s.modelValue(0), s.modelValue(1)]).toEqual([L_TRUE, L_TRUE]);
    expect(() => s.setPolarity(9, true)).toThrow(RangeError);
  });
  it('setDecisionVar(v, false) keeps the search off v', () => {
    const s = new Solver();
    for (let i = 0; i < 2; i++) s.newVar();
    s.setDecisionVar(1, false);
    expect(s.solve()).toBe(true);
    expect(s.modelValue(1)).toBe(0);
    s.setDecisionVar(1, true);
    expect(s.solve()).toBe(true);
    expect(s.modelValue(1)).not.toBe(0);
  });
});

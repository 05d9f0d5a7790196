// The propagation ladder (Simonis 2005): known grades, monotone strength, soundness against a reference solver.
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import { shapeOf } from './grid.ts';
import type { Grid } from './grid.ts';
import { PROPAGATION_LEVELS, gradePropagation, initialDomains, propagate, propagateDomains } from './propagation.ts';
import type { PropagationLevel } from './propagation.ts';
import { bit } from './candidates.ts';
import { randomPuzzle, referenceSolutions } from './referenceSolver.ts';
import { gridFromLine, gridToLine } from './testGrid.ts';

const WIKIPEDIA = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
// Hidden singles are needed (domain consistency finds them; forward checking and Hall intervals do not).
const NEEDS_DOMAIN = '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......';
// Domain consistency stalls; bounds consistency with shaving solves it (the two are incomparable in strength).
const NEEDS_BOUNDS_SHAVING = '..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759..';
// AI Escargot: no level of the ladder solves it.
const ESCARGOT = '1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..';

const subset = (a: Uint32Array, b: Uint32Array) => a.every((m, i) => (m & ~b[i]) === 0);

describe('gradePropagation: known puzzles', () => {
  it('grades the Wikipedia example "value": forward checking alone solves it, to its published solution', () => {
    const r = gradePropagation(gridFromLine(WIKIPEDIA));
    expect(r.grade).toBe('value');
    const value = r.levels[0];
    expect(value).toMatchObject({ level: 'value', consistent: true, solved: true, fixed: 81, candidates: 81 });
    const digits = Array.from(value.domains, (m) => 32 - Math.clz32(m)).join('');
    expect(digits.slice(0, 9)).toBe('534678912');
    expect(digits.slice(72)).toBe('345286179');
  });

  it('grades a puzzle needing hidden singles "domain", with the weaker levels left open', () => {
    const r = gradePropagation(gridFromLine(NEEDS_DOMAIN), { allLevels: true });
    expect(r.grade).toBe('domain');
    expect(r.levels.map((l) => l.solved)).toEqual([false, false, true, true, true]);
    expect(r.levels[0].candidates).toBeGreaterThan(r.levels[1].candidates);
    // By default the levels past the grade are not computed.
    const quick = gradePropagation(gridFromLine(NEEDS_DOMAIN));
    expect(quick.grade).toBe('domain');
    expect(quick.levels.map((l) => l.level)).toEqual(['value', 'bounds', 'domain']);
    expect(quick.levels.map((l) => l.candidates)).toEqual(r.levels.slice(0, 3).map((l) => l.candidates));
  });

  it('grades "bounds-shaving" where domain consistency stalls but shaving on bounds finishes', () => {
    const r = gradePropagation(gridFromLine(NEEDS_BOUNDS_SHAVING), { allLevels: true });
    expect(r.grade).toBe('bounds-shaving');
    expect(r.levels.find((l) => l.level === 'domain')!.solved).toBe(false);
    expect(r.levels.find((l) => l.level === 'domain-shaving')!.solved).toBe(true);
  });

  it('grades AI Escargot "search", every level still sound (its solution survives)', () => {
    const grid = gridFromLine(ESCARGOT);
    const r = gradePropagation(grid);
    expect(r.grade).toBe('search');
    const [sol] = referenceSolutions(grid, 1);
    for (const l of r.levels) {
      expect(l.consistent).toBe(true);
      for (let i = 0; i < 81; i++) expect(l.domains[i] & bit(sol.cells[i])).not.toBe(0);
    }
  });

  it('names a board with no solution "inconsistent" (here a unit has two cells that both need the same digit)', () => {
    // Row 1 holds 1..7, and its last two cells can each only be 8 (a 9 stands in each of their columns).
    const line = '1234567..' + '.'.repeat(18) + '.......9.' + '.'.repeat(18) + '........9' + '.'.repeat(18);
    const grid = gridFromLine(line);
    expect(referenceSolutions(grid, 1)).toHaveLength(0);
    expect(gradePropagation(grid).grade).toBe('inconsistent');
    expect(propagate(grid, 'value').consistent).toBe(false);
  });

  it('names two equal givens in a unit "inconsistent" at every level', () => {
    const grid = gridFromLine('11' + '.'.repeat(14));
    const r = gradePropagation(grid);
    expect(r.grade).toBe('inconsistent');
    expect(r.levels.every((l) => !l.consistent)).toBe(true);
  });

  it('grades boards of every box shape (4x4 to 16x16) soundly; a full board is graded "value"', () => {
    const rng = createRng(7);
    for (const [br, bc, keep] of [[2, 2, 0], [2, 3, 0], [3, 3, 0], [2, 4, 0], [3, 4, 60], [4, 4, 130]] as const) {
      const { puzzle, solution } = randomPuzzle(shapeOf(br, bc), rng, keep);
      const r = gradePropagation(puzzle);
      expect(r.grade).not.toBe('inconsistent');
      expect(gradePropagation(solution).grade).toBe('value');
      // Whatever the grade, no level drops the solution's digit.
      for (const l of r.levels) for (let i = 0; i < solution.cells.length; i++) expect(l.domains[i] & bit(solution.cells[i])).not.toBe(0);
      const solved = r.levels.find((l) => l.solved);
      if (solved) for (let i = 0; i < solution.cells.length; i++) expect(solved.domains[i]).toBe(bit(solution.cells[i]));
    }
  });
});

/** Boards to check against the reference: unique puzzles, progress states, thin boards with many solutions, broken ones. */
function boards(seed: number): Grid[] {
  const rng = createRng(seed);
  const out: Grid[] = [];
  const shapes = [shapeOf(2, 2), shapeOf(2, 3), shapeOf(3, 2), shapeOf(3, 3), shapeOf(3, 3)];
  for (let k = 0; k < 20; k++) {
    const shape = shapes[k % shapes.length];
    const { puzzle, solution } = randomPuzzle(shape, rng);
    out.push(puzzle);
    const thin = { ...puzzle, cells: puzzle.cells.map((v) => (rng.next() < 0.3 ? 0 : v)) };
    out.push(thin);
    const progress = { ...puzzle, cells: puzzle.cells.map((v, i) => (v === 0 && rng.next() < 0.3 ? solution.cells[i] : v)) };
    out.push(progress);
    const broken = { ...progress, cells: progress.cells.slice() };
    const empties = [...broken.cells.keys()].filter((i) => broken.cells[i] === 0);
    const i = empties[rng.int(empties.length)];
    broken.cells[i] = 1 + ((solution.cells[i] + rng.int(shape.size - 1)) % shape.size);
    out.push(broken);
  }
  return out;
}

describe('propagation ladder: soundness and monotone strength', () => {
  const all = boards(34);

  it('never removes a digit some solution has (checked on up to 100 solutions a board), and fails only on boards without one', () => {
    let failed = 0;
    for (const grid of all) {
      const sols = referenceSolutions(grid, 100);
      for (const level of PROPAGATION_LEVELS) {
        const r = propagate(grid, level);
        if (!r.consistent) {
          expect(sols, `${level} on ${gridToLine(grid)}`).toHaveLength(0);
          failed++;
          continue;
        }
        const dropped = sols.flatMap((s) => [...s.cells.keys()].filter((i) => (r.domains[i] & bit(s.cells[i])) === 0).map((i) => `cell ${i} digit ${s.cells[i]}`));
        expect(dropped, `${level} on ${gridToLine(grid)}`).toEqual([]);
        // A board the level solves has exactly the solution it names.
        if (r.solved) expect(sols).toHaveLength(1);
      }
    }
    expect(failed).toBeGreaterThan(0);
  });

  it('a stronger level never leaves more candidates than a weaker one (value <= bounds <= domain <= domain-shaving, bounds <= bounds-shaving <= domain-shaving)', () => {
    const chains: [PropagationLevel, PropagationLevel][] = [['value', 'bounds'], ['bounds', 'domain'], ['domain', 'domain-shaving'], ['bounds', 'bounds-shaving'], ['bounds-shaving', 'domain-shaving']];
    let strictlyStronger = 0;
    for (const grid of all) {
      const by = Object.fromEntries(PROPAGATION_LEVELS.map((l) => [l, propagate(grid, l)]));
      for (const [weak, strong] of chains) {
        if (!by[weak].consistent) expect(by[strong].consistent).toBe(false);
        if (!by[strong].consistent) continue;
        expect(subset(by[strong].domains, by[weak].domains), `${strong} within ${weak} on ${gridToLine(grid)}`).toBe(true);
        if (by[strong].candidates < by[weak].candidates) strictlyStronger++;
      }
    }
    expect(strictlyStronger).toBeGreaterThan(0);
  });

  it('gradePropagation, chaining the levels, reaches the same fixpoints as each level from scratch', () => {
    for (const grid of all.slice(0, 24)) {
      const r = gradePropagation(grid, { allLevels: true });
      for (const l of r.levels) {
        const alone = propagate(grid, l.level);
        expect(l.consistent).toBe(alone.consistent);
        if (alone.consistent) expect(Array.from(l.domains)).toEqual(Array.from(alone.domains));
      }
    }
  });

  it('propagateDomains narrows given domains in place and keeps a solution it was started from', () => {
    const grid = gridFromLine(NEEDS_DOMAIN);
    const d = initialDomains(grid);
    expect(propagateDomains(grid, d, 'domain')).toBe(true);
    expect(d.every((m) => (m & (m - 1)) === 0)).toBe(true);
  });
});

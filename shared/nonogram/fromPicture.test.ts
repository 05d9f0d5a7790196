// Otsu's threshold against a direct search of the between-class variance; makeUnique on boards whose alternatives are known.
import { describe, expect, it } from 'vitest';
import { cluesOf, gridFromRows, gridToRows } from './grid.ts';
import { makeUnique, otsuThreshold, thresholdGrid } from './fromPicture.ts';
import { solvePuzzle } from './solvePuzzle.ts';
import { randomSolution } from './generate.ts';

/** Between-class variance of splitting at t (values <= t vs > t), computed naively. */
function between(values: number[], t: number): number {
  const a = values.filter((v) => v <= t);
  const b = values.filter((v) => v > t);
  if (!a.length || !b.length) return -1;
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return a.length * b.length * (mean(a) - mean(b)) ** 2;
}

describe('otsuThreshold', () => {
  it('finds the split of maximal between-class variance (first one on ties)', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 20; trial++) {
      const values = Array.from({ length: 50 }, () => (rnd() < 0.4 ? Math.floor(rnd() * 90) : 140 + Math.floor(rnd() * 115)));
      const t = otsuThreshold(values);
      const best = Math.max(...Array.from({ length: 256 }, (_, k) => between(values, k)));
      expect(between(values, t)).toBeCloseTo(best, 6);
      expect(Array.from({ length: t }, (_, k) => between(values, k)).every((v) => v < best - 1e-9 * best)).toBe(true);
    }
  });
  it('separates two grey levels, and returns the level of a one-level picture', () => {
    expect(otsuThreshold([10, 10, 10, 200, 200])).toBe(10);
    expect(otsuThreshold([77, 77, 77])).toBe(77);
  });
  it('thresholdGrid fills dark cells, or light ones inverted', () => {
    expect(gridToRows(thresholdGrid([0, 100, 200, 255], 2, 2, 100))).toEqual(['##', '..']);
    expect(gridToRows(thresholdGrid([0, 100, 200, 255], 2, 2, 100, true))).toEqual(['..', '##']);
  });
});

describe('makeUnique', () => {
  it('leaves a unique board alone', () => {
    const g = gridFromRows(['###', '#.#', '###']);
    const r = makeUnique(g);
    expect(r).toMatchObject({ saved: true, solutions: 1, complete: true, changed: [] });
  });
  it('saves a diagonal (24 solutions: every permutation) with two changes, and no single change would do', () => {
    const g = gridFromRows(['#...', '.#..', '..#.', '...#']);
    expect(solvePuzzle(cluesOf(g), { limit: 100 }).count).toBe(24);
    for (let i = 0; i < 16; i++) {
      const h = gridFromRows(gridToRows(g));
      h.cells[i] = h.cells[i] === 1 ? 2 : 1;
      expect(solvePuzzle(cluesOf(h), { limit: 2 }).count).toBe(2);
    }
    const r = makeUnique(g);
    expect(r.saved).toBe(true);
    expect(r.changed).toHaveLength(2);
    const check = solvePuzzle(r.clues, { limit: 2 });
    expect(check).toMatchObject({ count: 1, complete: true });
    expect(gridToRows(check.solutions[0])).toEqual(gridToRows(r.grid));
  });
  it('stops at maxChanges with the best reached, and says so (a 6x6 checkerboard has two solutions)', () => {
    const g = gridFromRows(['#.#.#.', '.#.#.#', '#.#.#.', '.#.#.#', '#.#.#.', '.#.#.#']);
    expect(makeUnique(g, { maxChanges: 1 })).toMatchObject({ saved: true, solutions: 1 });
    const r = makeUnique(g, { maxChanges: 0 });
    expect(r).toMatchObject({ saved: false, changed: [], solutions: 2, complete: true });
    expect(r.reason).toBe('still 2 solutions after --max-changes 0');
  });
  it("generate's settings (sample 2, the probed cells as units, no grading) make random 20x20 grids unique, the changes counted exactly (issue 41)", () => {
    let changedSome = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const g = randomSolution(20, 20, 0.45, seed);
      const r = makeUnique(g, { candidates: 6, sample: 2, probedUnits: true, grade: false });
      expect(r.saved).toBe(true);
      expect(r.level).toBeUndefined();
      // Unique, by the clues alone (no known solution given), and the grid is that solution.
      const check = solvePuzzle(r.clues, { limit: 2 });
      expect(check).toMatchObject({ count: 1, complete: true });
      expect(gridToRows(check.solutions[0])).toEqual(gridToRows(r.grid));
      // `changed` is exactly the cells where the result differs from the random grid.
      const differ = [];
      for (let i = 0; i < 400; i++) if (r.grid.cells[i] !== g.cells[i]) differ.push({ row: Math.floor(i / 20), col: i % 20 });
      expect(r.changed.map(({ row, col }) => ({ row, col }))).toEqual(differ);
      if (differ.length > 0) changedSome++;
      // The default grades the result.
      if (seed === 1) expect(makeUnique(g, { candidates: 6, sample: 2, probedUnits: true }).level).toBeGreaterThan(0);
    }
    expect(changedSome).toBeGreaterThan(3);
  });
});

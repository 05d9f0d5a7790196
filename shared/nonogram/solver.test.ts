// Propagation, probing, counting and forced cells against exhaustive enumeration (all 4x4 grids, random 5x5).
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import { EMPTY, FILLED, UNKNOWN, cluesOf, createGrid, gridFromRows, gridToRows, lineClue } from './grid.ts';
import type { Clues, Grid } from './grid.ts';
import { canonicalClues } from './id.ts';
import { countSolutions, forcedCells, propagate, solve } from './solver.ts';

function gridFromMask(mask: number, width: number, height: number): Grid {
  const g = createGrid(width, height, EMPTY);
  for (let i = 0; i < width * height; i++) if ((mask >> i) & 1) g.cells[i] = FILLED;
  return g;
}

/** All solutions by brute force: every row is one of its clue's lines, then check the columns. */
function bruteSolutions(clues: Clues): string[][] {
  const width = clues.cols.length;
  const rowChoices = clues.rows.map((clue) => {
    const out: number[] = [];
    for (let mask = 0; mask < 1 << width; mask++) {
      const line = Array.from({ length: width }, (_, i) => ((mask >> i) & 1 ? FILLED : EMPTY));
      if (lineClue(line, 0, width, 1).join(',') === clue.join(',')) out.push(mask);
    }
    return out;
  });
  const found: string[][] = [];
  const masks: number[] = [];
  const rec = (r: number) => {
    if (r === clues.rows.length) {
      const g = createGrid(width, clues.rows.length, EMPTY);
      masks.forEach((m, rr) => {
        for (let c = 0; c < width; c++) if ((m >> c) & 1) g.cells[rr * width + c] = FILLED;
      });
      if (canonicalClues(cluesOf(g)) === canonicalClues(clues)) found.push(gridToRows(g));
      return;
    }
    for (const m of rowChoices[r]) {
      masks.push(m);
      rec(r + 1);
      masks.pop();
    }
  };
  rec(0);
  return found;
}

describe('countSolutions', () => {
  it('agrees with exhaustive enumeration on all 65,536 4x4 grids', () => {
    const byClues = new Map<string, number>();
    for (let mask = 0; mask < 1 << 16; mask++) {
      const key = canonicalClues(cluesOf(gridFromMask(mask, 4, 4)));
      byClues.set(key, (byClues.get(key) ?? 0) + 1);
    }
    let unique = 0;
    for (let mask = 0; mask < 1 << 16; mask++) {
      const grid = gridFromMask(mask, 4, 4);
      const clues = cluesOf(grid);
      const expected = byClues.get(canonicalClues(clues)) as number;
      const r = countSolutions(clues, 1000);
      expect(r.complete).toBe(true);
      if (r.count !== expected) expect({ mask, count: r.count }).toEqual({ mask, count: expected });
      expect(canonicalClues(cluesOf(r.solution as Grid))).toBe(canonicalClues(clues));
      if (expected === 1) {
        unique++;
        expect(gridToRows(solve(clues) as Grid)).toEqual(gridToRows(grid));
      } else expect(solve(clues)).toBeNull();
    }
    // Sanity: a known fraction of 4x4 grids is uniquely determined by its clues.
    expect(unique).toBeGreaterThan(20_000);
    expect(unique).toBeLessThan(65_536);
  });

  it('agrees with brute force on random 5x5 grids, and limit 2 decides uniqueness', () => {
    const rng = createRng(55);
    for (let t = 0; t < 300; t++) {
      const density = 0.2 + 0.6 * rng.next();
      const g = createGrid(5, 5, EMPTY);
      for (let i = 0; i < 25; i++) if (rng.next() < density) g.cells[i] = FILLED;
      const clues = cluesOf(g);
      const all = bruteSolutions(clues);
      expect(all).toContainEqual(gridToRows(g));
      expect(countSolutions(clues, 10_000).count).toBe(all.length);
      expect(countSolutions(clues, 2).count).toBe(Math.min(2, all.length));
    }
  });

  it('returns 0 for contradictory clues', () => {
    expect(countSolutions({ rows: [[2], []], cols: [[1], []] }, 2).count).toBe(0);
    expect(propagate({ rows: [[2], []], cols: [[1], []] }).status).toBe('contradiction');
  });

  it('respects a node budget and reports an incomplete count', () => {
    // An all-ambiguous 6x6 (permutation matrices): 720 solutions, line solving finds nothing.
    const one = [1];
    const clues = { rows: Array(6).fill(one), cols: Array(6).fill(one) };
    const r = countSolutions(clues, 1000, { maxNodes: 20 });
    expect(r.complete).toBe(false);
    expect(countSolutions(clues, 1000).count).toBe(720);
  });
});

describe('propagate', () => {
  it('solves a line-solvable puzzle and counts passes and steps', () => {
    const rows = ['.#.#.', '#####', '#####', '.###.', '..#..'];
    const r = propagate(cluesOf(gridFromRows(rows)));
    expect(r.status).toBe('solved');
    expect(gridToRows(r.grid)).toEqual(rows);
    expect(r.passes).toBeGreaterThan(0);
    expect(r.steps).toBeGreaterThanOrEqual(r.passes);
  });

  it('does not modify its input grid', () => {
    const clues = cluesOf(gridFromRows(['##', '#.']));
    const start = createGrid(2, 2);
    propagate(clues, start);
    expect(Array.from(start.cells)).toEqual([UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN]);
  });
});

describe('forcedCells', () => {
  it('finds the cells shared by every solution of an ambiguous puzzle', () => {
    // Two solutions differ only in the 2x2 block at the top-left; the rest is forced.
    const a = gridFromRows(['#..#', '.#.#', '....', '####']);
    const clues = cluesOf(a);
    const all = bruteSolutions(clues);
    expect(all.length).toBe(2);
    const forced = forcedCells(clues) as Grid;
    const rows = gridToRows(forced);
    for (let r = 0; r < 4; r++)
      for (let c = 0; c < 4; c++) {
        const same = all.every((s) => s[r][c] === all[0][r][c]);
        expect(rows[r][c]).toBe(same ? all[0][r][c] : '?');
      }
    expect(rows).toEqual(['??.#', '??.#', '....', '####']);
  });
});

// The exact counter against a naive backtracking reference, on known 9x9 puzzles and on every box shape.
/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { createRng, shuffle } from '../random.ts';
import { type Grid, emptyGrid, shapeOf } from './grid.ts';
import { parseLine, parseLines, writeLine } from './formats.ts';
import { countSolutions, findInconsistency, isUnique, popcount, solve } from './solver.ts';
import { randomFullGrid } from './generate.ts';
import { isSolutionOf, referenceSolutions } from './testSupport.ts';
import hardestText from './fixtures/hardest.txt?raw';

const CLASSIC = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
const CLASSIC_SOLUTION = '534678912672195348198342567859761423426853791713924856961537284287419635345286179';

/** A board made of a full grid with `holes` random cells emptied and `noise` random cells set to random digits. */
function randomBoard(box: [number, number], seed: number, holes: number, noise: number): Grid {
  const rng = createRng(seed);
  const full = randomFullGrid({ boxRows: box[0], boxCols: box[1] }, seed);
  const n = full.size, cells = full.cells.slice();
  const order = shuffle(Array.from({ length: n * n }, (_, i) => i), rng);
  for (let k = 0; k < holes; k++) cells[order[k]] = 0;
  for (let k = 0; k < noise; k++) cells[rng.int(n * n)] = 1 + rng.int(n);
  return { ...full, cells };
}

describe('countSolutions on known boards', () => {
  it('solves the classic puzzle uniquely', () => {
    const r = countSolutions(parseLine(CLASSIC), 2);
    expect(r).toMatchObject({ solutions: 1, complete: true });
    expect(writeLine(r.solution as Grid)).toBe(CLASSIC_SOLUTION);
    expect(r.second).toBeUndefined();
    expect(writeLine(solve(parseLine(CLASSIC)) as Grid)).toBe(CLASSIC_SOLUTION);
  });

  it('counts the 288 full 4x4 grids and the 2 solutions of a deadly rectangle', () => {
    expect(countSolutions(emptyGrid(shapeOf(2, 2)), 1000)).toMatchObject({ solutions: 288, complete: true });
    // A full grid with a "deadly rectangle" emptied: four cells a b / b a in two rows of one band; the swap is the only other fill.
    const sol = parseLine(CLASSIC_SOLUTION);
    const n = 9;
    let found = false;
    for (let r1 = 0; r1 < n && !found; r1++) for (let r2 = r1 + 1; r2 < n && !found; r2++) {
      if (Math.floor(r1 / 3) !== Math.floor(r2 / 3)) continue;
      for (let c1 = 0; c1 < n && !found; c1++) for (let c2 = c1 + 1; c2 < n && !found; c2++) {
        const a = sol.cells[r1 * n + c1], b = sol.cells[r1 * n + c2];
        if (sol.cells[r2 * n + c1] !== b || sol.cells[r2 * n + c2] !== a) continue;
        const g: Grid = { ...sol, cells: sol.cells.slice() };
        for (const i of [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2]) g.cells[i] = 0;
        const r = countSolutions(g, 10);
        expect(r).toMatchObject({ solutions: 2, complete: true });
        expect(isSolutionOf(g, r.solution as Grid) && isSolutionOf(g, r.second as Grid)).toBe(true);
        expect(writeLine(r.solution as Grid)).not.toBe(writeLine(r.second as Grid));
        found = true;
      }
    }
    expect(found).toBe(true);
  });

  it('reports a consistent board without a solution as 0 solutions, not inconsistent', () => {
    // r1c9 must be 9 (the row has 1-8), but column 9 already holds a 9.
    const g = parseLine('12345678.' + '.'.repeat(8) + '9' + '.'.repeat(63));
    const r = countSolutions(g, 2);
    expect(r).toMatchObject({ solutions: 0, complete: true });
    expect(r.inconsistent).toBeUndefined();
    expect(r.solution).toBeUndefined();
  });

  it('names an inconsistent board (a repeated given) and does not search it', () => {
    const row = parseLine('5.......5' + '.'.repeat(72));
    const r = countSolutions(row, 2);
    expect(r).toMatchObject({ solutions: 0, complete: true, nodes: 0 });
    expect(r.inconsistent).toMatchObject({ unit: 'row', index: 0, digit: 5, cells: [0, 8] });
    expect(r.inconsistent?.message).toBe('inconsistent board: 5 appears twice in row 1 (r1c1 and r1c9)');
    const col = parseLine('7' + '.'.repeat(8) + '.'.repeat(54) + '7' + '.'.repeat(17));
    expect(findInconsistency(col)).toMatchObject({ unit: 'column', index: 0, cells: [0, 63] });
    const box = parseLine('3' + '.'.repeat(9) + '3' + '.'.repeat(70));
    expect(findInconsistency(box)).toMatchObject({ unit: 'box', index: 0, digit: 3, cells: [0, 10] });
    expect(findInconsistency(parseLine(CLASSIC))).toBeNull();
  });

  it('rejects a cell value above the side', () => {
    const g = emptyGrid(shapeOf(2, 2));
    g.cells[5] = 5;
    expect(() => countSolutions(g, 2)).toThrow(/r2c2 holds 5, more than the side 4/);
  });

  it('stops at the limit, and says incomplete when the node budget runs out', () => {
    const empty = emptyGrid(shapeOf(3, 3));
    expect(countSolutions(empty, 5)).toMatchObject({ solutions: 5, complete: true });
    const r = countSolutions(empty, 1e9, { maxNodes: 200 });
    expect(r.complete).toBe(false);
    expect(r.nodes).toBeLessThanOrEqual(200);
    expect(countSolutions(parseLine(CLASSIC), 0)).toMatchObject({ solutions: 0, complete: true });
  });

  it('honours candidate masks (no solution with the classic r1c3 other than 4)', () => {
    const cand = new Int32Array(81).fill(0x1ff);
    cand[2] = 0x1ff & ~(1 << 3);
    expect(countSolutions(parseLine(CLASSIC), 2, { candidates: cand }).solutions).toBe(0);
    cand[2] = 1 << 3;
    expect(countSolutions(parseLine(CLASSIC), 2, { candidates: cand }).solutions).toBe(1);
  });

  it('calls onSolution with each solution, all distinct and valid', () => {
    const g = emptyGrid(shapeOf(2, 2));
    const seen = new Set<string>();
    countSolutions(g, 1000, { onSolution: (s) => { expect(isSolutionOf(g, s)).toBe(true); seen.add(writeLine(s)); } });
    expect(seen.size).toBe(288);
  });

  it('solves every puzzle of the hardest fixture uniquely, with a valid solution', () => {
    const boards = parseLines(hardestText, 'hardest.txt');
    expect(boards.length).toBeGreaterThanOrEqual(40);
    for (const b of boards) {
      const r = countSolutions(b.grid, 2);
      expect({ line: b.line, solutions: r.solutions }).toEqual({ line: b.line, solutions: 1 });
      expect(isSolutionOf(b.grid, r.solution as Grid)).toBe(true);
    }
  });
});

describe('countSolutions against the naive reference', () => {
  const cases: { box: [number, number]; boards: number; holes: [number, number]; limit: number }[] = [
    { box: [2, 2], boards: 300, holes: [4, 16], limit: 300 },
    { box: [2, 3], boards: 150, holes: [10, 26], limit: 40 },
    { box: [3, 2], boards: 60, holes: [10, 24], limit: 40 },
    { box: [3, 3], boards: 40, holes: [40, 54], limit: 5 },
  ];
  for (const { box, boards, holes, limit } of cases) {
    it(`agrees on ${boards} random ${box[0]}x${box[1]}-box boards (unique, several, none, inconsistent)`, () => {
      const kinds = { none: 0, unique: 0, several: 0, inconsistent: 0 };
      for (let k = 0; k < boards; k++) {
        const seed = 1000 * box[0] + 10 * box[1] + k;
        const nHoles = holes[0] + (k % (holes[1] - holes[0] + 1));
        const g = randomBoard(box, seed, nHoles, k % 3 === 0 ? 1 : 0);
        const ref = referenceSolutions(g, limit);
        const r = countSolutions(g, limit);
        expect({ seed, solutions: r.solutions, complete: r.complete }).toEqual({ seed, solutions: ref.length, complete: true });
        if (r.inconsistent) kinds.inconsistent++;
        else kinds[r.solutions === 0 ? 'none' : r.solutions === 1 ? 'unique' : 'several']++;
        if (ref.length > 0) {
          expect(isSolutionOf(g, r.solution as Grid)).toBe(true);
          // When the reference listed every solution, ours is among them.
          if (ref.length < limit) expect(ref.map((c) => c.join(''))).toContain((r.solution as Grid).cells.join(''));
        }
        if (ref.length > 1) expect(isSolutionOf(g, r.second as Grid)).toBe(true);
      }
      // The sample covers every outcome, so the agreement means something.
      expect(kinds.unique).toBeGreaterThan(0);
      expect(kinds.several).toBeGreaterThan(0);
      expect(kinds.none + kinds.inconsistent).toBeGreaterThan(0);
    });
  }

  it('decides uniqueness of boards of every box shape, 12x12 and 16x16 included', () => {
    for (const box of [[2, 2], [2, 3], [3, 3], [3, 4], [4, 3], [4, 4]] as [number, number][]) {
      const full = randomFullGrid({ boxRows: box[0], boxCols: box[1] }, 42);
      expect(isSolutionOf(emptyGrid(full), full)).toBe(true);
      expect(isUnique(full)).toBe(true);
      const holes = randomBoard(box, 42, Math.floor((full.size * full.size) / 3), 0);
      const r = countSolutions(holes, 2);
      expect(r.complete).toBe(true);
      expect(r.solutions).toBeGreaterThanOrEqual(1);
      expect(isSolutionOf(holes, r.solution as Grid)).toBe(true);
    }
  });
});

describe('helpers', () => {
  it('popcount counts bits of 32-bit masks', () => {
    expect([0, 1, 0x1ff, 0xffff, -1, 0x80000000].map(popcount)).toEqual([0, 1, 9, 16, 32, 1]);
  });
  it('gives the same result twice, with other shapes counted in between (no state survives a call)', () => {
    const g = parseLine(CLASSIC);
    const a = countSolutions(g, 2);
    countSolutions(emptyGrid(shapeOf(4, 4)), 3);
    countSolutions(emptyGrid(shapeOf(2, 3)), 50);
    const b = countSolutions(g, 2);
    expect(a.nodes).toBe(b.nodes);
    expect(writeLine(a.solution as Grid)).toBe(writeLine(b.solution as Grid));
  });

  it('a count started inside onSolution does not disturb the search that called it', () => {
    const g = emptyGrid(shapeOf(2, 2));
    const plain: string[] = [];
    countSolutions(g, 1000, { onSolution: (s) => plain.push(writeLine(s)) });
    const nested: string[] = [];
    countSolutions(g, 1000, {
      onSolution: (s) => {
        nested.push(writeLine(s));
        const h: Grid = { ...s, cells: s.cells.slice() };
        h.cells.fill(0, 0, 8);
        expect(countSolutions(h, 10).solutions).toBeGreaterThanOrEqual(1);
      },
    });
    expect(nested).toEqual(plain);
  });
});

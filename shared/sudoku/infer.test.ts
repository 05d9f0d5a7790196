// Forced cells: exactly the cells every solution shares, checked against the intersection of all solutions.
import { describe, expect, it } from 'vitest';
import { createRng, shuffle } from '../random.ts';
import { type Grid, emptyGrid, shapeOf } from './grid.ts';
import { parseLine, writeLine } from './formats.ts';
import { generateSudoku, randomFullGrid } from './generate.ts';
import { forcedCells } from './infer.ts';
import { referenceSolutions } from './testSupport.ts';

/** The board with the cells every listed solution agrees on filled (0 elsewhere). */
function intersection(solutions: Uint8Array[]): Uint8Array {
  const out = solutions[0].slice();
  for (const s of solutions) for (let i = 0; i < out.length; i++) if (s[i] !== out[i]) out[i] = 0;
  return out;
}

describe('forcedCells', () => {
  it('on a unique puzzle every cell is forced', () => {
    const p = generateSudoku({ size: 9, seed: 3 });
    const r = forcedCells(p.givens);
    expect(writeLine(r.forced as Grid)).toBe(writeLine(p.solution));
    expect(r.forcedCount).toBe(81 - p.clues);
    expect(r.complete).toBe(true);
  });

  it('on an empty board nothing is forced; on a board with no solution there is no answer', () => {
    expect(forcedCells(emptyGrid(shapeOf(2, 2)))).toMatchObject({ forcedCount: 0, complete: true });
    expect(forcedCells(parseLine('12345678.' + '.'.repeat(8) + '9' + '.'.repeat(63)))).toMatchObject({ forced: null, complete: true });
    expect(forcedCells(parseLine('11' + '.'.repeat(79))).inconsistent?.message).toMatch(/1 appears twice in row 1/);
  });

  for (const box of [[2, 2], [2, 3]] as [number, number][]) {
    it(`equals the intersection of all solutions on random ${box[0]}x${box[1]}-box boards`, () => {
      let some = 0;
      for (let k = 0; k < 60; k++) {
        const full = randomFullGrid({ boxRows: box[0], boxCols: box[1] }, 500 + k);
        const n = full.size, rng = createRng(900 + k);
        const order = shuffle(Array.from({ length: n * n }, (_, i) => i), rng);
        const holes = Math.min(n * n, Math.floor(n * n * 0.45) + (k % 8));
        const g: Grid = { ...full, cells: full.cells.slice() };
        for (let i = 0; i < holes; i++) g.cells[order[i]] = 0;
        const all = referenceSolutions(g, 100000);
        const r = forcedCells(g);
        expect(Array.from((r.forced as Grid).cells)).toEqual(Array.from(intersection(all)));
        if (all.length > 1 && r.forcedCount > 0) some++;
      }
      // Boards with several solutions and some forced cells are among them.
      expect(some).toBeGreaterThan(0);
    });
  }
});

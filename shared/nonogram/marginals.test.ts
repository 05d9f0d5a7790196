// Line marginals against brute-force counting; BP marginals fix known cells and stay within [0, 1].
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import { EMPTY, FILLED, cluesOf, createGrid, lineClue } from './grid.ts';
import { cellMarginals, lineMarginals } from './marginals.ts';
import { randomSolution } from './generate.ts';

describe('lineMarginals', () => {
  it('equals the weighted share of valid fillings with the cell filled (brute force, random priors)', () => {
    const rng = createRng(3);
    for (let k = 0; k < 200; k++) {
      const n = 3 + rng.int(8);
      const line = Array.from({ length: n }, () => (rng.next() < 0.45 ? FILLED : EMPTY));
      const clue = lineClue(line, 0, n, 1);
      const prior = Float64Array.from({ length: n }, () => 0.05 + 0.9 * rng.next());
      const out = new Float64Array(n);
      lineMarginals(clue, prior, out);
      const filled = new Float64Array(n);
      let total = 0;
      for (let mask = 0; mask < 1 << n; mask++) {
        const cells = Array.from({ length: n }, (_, i) => ((mask >> i) & 1 ? FILLED : EMPTY));
        if (lineClue(cells, 0, n, 1).join() !== clue.join()) continue;
        let w = 1;
        for (let i = 0; i < n; i++) w *= (mask >> i) & 1 ? prior[i] : 1 - prior[i];
        total += w;
        for (let i = 0; i < n; i++) if ((mask >> i) & 1) filled[i] += w;
      }
      for (let i = 0; i < n; i++) expect(out[i]).toBeCloseTo(filled[i] / total, 9);
    }
  });
});

describe('cellMarginals', () => {
  it('keeps known cells at 0 or 1 and every estimate in [0, 1]', () => {
    const g = randomSolution(12, 10, 0.45, 4);
    const known = createGrid(12, 10);
    known.cells[5] = g.cells[5];
    known.cells[40] = g.cells[40];
    const p = cellMarginals(cluesOf(g), known);
    expect(p[5]).toBe(g.cells[5] === FILLED ? 1 : 0);
    expect(p[40]).toBe(g.cells[40] === FILLED ? 1 : 0);
    for (const x of p) expect(x >= 0 && x <= 1).toBe(true);
  });
});

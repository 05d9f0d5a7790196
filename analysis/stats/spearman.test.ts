import { describe, expect, it } from 'vitest';
import { averageRanks, spearman } from './spearman.ts';
import { fixtureJson, relClose } from './fixtures/load.ts';

interface RefCase { name: string; x: number[]; y: number[]; rho: number; p: number; p_exact?: number; p_exact_scipy_permutation_test?: number }
const ref = fixtureJson<{ cases: RefCase[] }>('spearman_reference.json');

describe('spearman against SciPy', () => {
  for (const c of ref.cases) {
    it(`${c.name} (n = ${c.x.length})`, () => {
      const r = spearman(c.x, c.y);
      expect(relClose(r.rho, c.rho, 1e-10)).toBe(true);
      expect(relClose(r.p, c.p, 1e-6)).toBe(true);
      if (c.p_exact !== undefined) {
        expect(r.p_exact).toBeCloseTo(c.p_exact, 12);
        expect(r.p_exact).toBeCloseTo(c.p_exact_scipy_permutation_test!, 12);
      } else expect(r.p_exact).toBeNull();
    });
  }
  it("the paper's Table 1 value: rho = -9/35, n = 6 -> p = 0.623 (t) and 0.658 (exact)", () => {
    const c = ref.cases.find((x) => x.name === 'paper_n6')!;
    const r = spearman(c.x, c.y);
    expect(r.rho).toBeCloseTo(-9 / 35, 12);
    expect(r.p).toBeCloseTo(0.623, 3);
    expect(r.p_exact).toBeCloseTo(0.658, 3);
  });
  it('perfect and null cases', () => {
    expect(spearman([1, 2, 3, 4], [2, 4, 6, 8])).toMatchObject({ rho: 1, p: 0, p_exact: 1 / 12 });
    expect(spearman([1, 2, 3, 4, 5], [3, 3, 3, 3, 3]).rho).toBeNaN();
    expect(() => spearman([1, 2], [1, 2])).toThrow(/at least 3/);
  });
  it('average ranks share ties', () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });
});

describe('spearman on a constant column', () => {
  it('rho and p are NaN, and the result says which side is constant', async () => {
    const { spearmanUndefinedReason } = await import('./spearman.ts');
    const r = spearman([3, 3, 3, 3, 3, 3], [1, 2, 3, 4, 5, 6]);
    expect(r.rho).toBeNaN();
    expect(r.constant).toBe('x');
    expect(spearmanUndefinedReason(r, 'human_line_passes', 'bt_score', [3, 3, 3, 3, 3, 3], [1, 2, 3, 4, 5, 6])).toBe(
      "human_line_passes is constant (3 in all 6 rows): Spearman's rho is undefined (no ranking to correlate)",
    );
    expect(spearman([1, 2, 3], [1, 1, 1]).constant).toBe('y');
    expect(spearman([1, 2, 3], [1, 3, 2]).constant).toBeUndefined();
  });
});

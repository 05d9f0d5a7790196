import { describe, expect, it } from 'vitest';
import { CholeskyDecomposition, Matrix } from 'ml-matrix';
import { buildDesign, fitLmm, LmmData, lmmDeviance, numericHessian } from './lmm.ts';
import { parseFormula } from './formula.ts';
import { fixtureCsv, fixtureJson, relClose } from './fixtures/load.ts';
import { createRng } from '../../shared/random.ts';

interface RefFit {
  formula: string;
  data: string;
  reml: boolean;
  fixed: { term: string; estimate: number; se: number; df: number; t: number; p: number }[];
  variances: Record<string, number>;
  reml_criterion?: number;
  deviance?: number;
}

const refs = fixtureJson<Record<string, RefFit>>('lmm_reference.json');

describe('fitLmm against lme4 + lmerTest', () => {
  for (const [name, ref] of Object.entries(refs)) {
    it(`${name}: ${ref.formula} (${ref.reml ? 'REML' : 'ML'})`, () => {
      const fit = fitLmm(fixtureCsv(ref.data).rows, ref.formula, { reml: ref.reml });
      expect(relClose(fit.criterion, (ref.reml ? ref.reml_criterion : ref.deviance)!, 1e-8)).toBe(true);
      expect(fit.fixed.map((f) => f.term)).toEqual(ref.fixed.map((f) => f.term));
      fit.fixed.forEach((f, j) => {
        const r = ref.fixed[j];
        expect(relClose(f.estimate, r.estimate, 1e-4), `${f.term} estimate ${f.estimate} vs ${r.estimate}`).toBe(true);
        expect(relClose(f.se, r.se, 1e-4), `${f.term} se ${f.se} vs ${r.se}`).toBe(true);
        expect(relClose(f.df, r.df, 1e-4), `${f.term} df ${f.df} vs ${r.df}`).toBe(true);
        expect(relClose(f.t, r.t, 1e-4)).toBe(true);
        expect(relClose(f.p, r.p, 1e-3, 1e-12), `${f.term} p ${f.p} vs ${r.p}`).toBe(true);
      });
      for (const [group, v] of Object.entries(ref.variances)) {
        // A variance on the boundary is ~0 in both; compare it on the residual's scale.
        expect(relClose(fit.variances[group], v, 1e-4, 1e-6 * ref.variances.residual), `${group} variance ${fit.variances[group]} vs ${v}`).toBe(true);
      }
    });
  }

  it("reproduces lme4's published Penicillin numbers", () => {
    const fit = fitLmm(fixtureCsv('penicillin.csv').rows, 'diameter ~ 1 + (1|plate) + (1|sample)');
    expect(fit.criterion).toBeCloseTo(330.8606, 4);
    expect(fit.variances.plate).toBeCloseTo(0.7169, 4);
    expect(fit.variances.sample).toBeCloseTo(3.7309, 4);
    expect(fit.variances.residual).toBeCloseTo(0.3024, 4);
    expect(fit.fixed[0].estimate).toBeCloseTo(22.9722, 4);
    expect(fit.fixed[0].se).toBeCloseTo(0.8086, 4);
    expect(fit.groups).toEqual({ plate: 24, sample: 6 });
  });
});

describe('fitLmm on simulated crossed data', () => {
  it('recovers planted effects and variances with many participants', () => {
    const rng = createRng(42);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    const puzzleEffect = Array.from({ length: 6 }, () => 0.5 * normal());
    const rows: Record<string, number | string>[] = [];
    for (let s = 0; s < 2000; s++) {
      const u = 0.8 * normal();
      const expertise = normal();
      for (let a = 0; a < 3; a++) {
        const puzzle = (s + a * 2) % 6;
        const conflicts = puzzle;
        rows.push({ participant: `s${s}`, puzzle: `p${puzzle}`, conflicts, expertise,
          y: 1 + 0.2 * conflicts - 0.3 * expertise - 0.1 * conflicts * expertise + u + puzzleEffect[puzzle] + 0.6 * normal() });
      }
    }
    const fit = fitLmm(rows, 'y ~ conflicts * expertise + (1|participant) + (1|puzzle)');
    const est = Object.fromEntries(fit.fixed.map((f) => [f.term, f]));
    expect(est['conflicts:expertise'].estimate).toBeCloseTo(-0.1, 1);
    expect(Math.abs(est['conflicts:expertise'].estimate + 0.1)).toBeLessThan(3 * est['conflicts:expertise'].se);
    expect(Math.abs(est.expertise.estimate + 0.3)).toBeLessThan(3 * est.expertise.se);
    expect(fit.variances.participant).toBeGreaterThan(0.5);
    expect(fit.variances.participant).toBeLessThan(0.8);
    expect(fit.variances.residual).toBeGreaterThan(0.3);
    expect(fit.variances.residual).toBeLessThan(0.42);
    // Puzzle-level terms have few df, participant-level ones many.
    expect(est.conflicts.df).toBeLessThan(10);
    expect(est.expertise.df).toBeGreaterThan(1000);
  });

  it('fits the same models from prepared data (LmmData, shared by several models) as from the rows', () => {
    const rng = createRng(7);
    const rows: Record<string, number | string | null>[] = [];
    for (let s = 0; s < 300; s++) {
      const expertise = rng.next();
      for (let a = 0; a < 3; a++) {
        const puzzle = (s + a) % 5;
        rows.push({
          participant: `s${(s * 7919) % 1000}`,
          puzzle: `p${puzzle}`,
          kind: ['easy', 'mid', 'hard'][puzzle % 3],
          conflicts: puzzle,
          expertise,
          y: s % 17 === 0 && a === 1 ? 'NA' : 1 + 0.2 * puzzle - 0.3 * expertise + rng.next(),
          pauses: s % 11 === 0 ? null : Math.floor(4 * rng.next()),
        });
      }
    }
    const formulas = ['y ~ conflicts * expertise + (1|participant) + (1|puzzle)', 'pauses ~ conflicts + (1|participant) + (1|puzzle)', 'y ~ kind * expertise + (1|participant)', 'y ~ 0 + kind + (1|puzzle)'];
    const data = new LmmData(rows);
    for (const f of formulas) expect(fitLmm(data, f)).toEqual(fitLmm(rows, f));
    for (const f of formulas) expect(buildDesign(data, parseFormula(f))).toEqual(buildDesign(rows, parseFormula(f)));
    expect(buildDesign(data, parseFormula(formulas[0])).n).toBe(rows.length - 18);
    expect(buildDesign(data, parseFormula(formulas[1])).n).toBe(rows.length - 28 * 3);
  });

  it('names missing columns and drops rows with missing values', () => {
    const rows = [{ y: 1, g: 'a' }, { y: 2, g: 'a' }, { y: 'NA', g: 'b' }, { y: 3, g: 'b' }, { y: 5, g: 'b' }, { y: 2.5, g: 'c' }, { y: 3.5, g: 'c' }];
    expect(() => fitLmm(rows, 'y ~ x + (1|g)')).toThrow(/no column "x"/);
    expect(fitLmm(rows, 'y ~ 1 + (1|g)').n).toBe(6);
    expect(() => fitLmm(rows, 'y ~ 1')).toThrow(/no random intercept/);
  });
});

describe('numericHessian', () => {
  it('is exact on a quadratic', () => {
    const h = numericHessian(([a, b]) => 3 * a * a + 2 * a * b + 5 * b * b, [0.7, -1.3]);
    expect(h[0][0]).toBeCloseTo(6, 8);
    expect(h[0][1]).toBeCloseTo(2, 8);
    expect(h[1][1]).toBeCloseTo(10, 8);
  });
});

describe('the Schur-complement deviance equals the textbook dense one', () => {
  /** Dense: A = Lambda'Z'Z Lambda + I (all levels), Cholesky, then the REML/ML formula. */
  function dense(rows: Record<string, number | string>[], formula: string, theta: number[], reml: boolean): number {
    const d = buildDesign(rows, parseFormula(formula));
    const offsets: number[] = [];
    let m = 0;
    for (const g of d.groups) { offsets.push(m); m += g.levels.length; }
    const z = new Matrix(d.n, m);
    for (let i = 0; i < d.n; i++) d.groups.forEach((g, k) => z.set(i, offsets[k] + g.index[i], theta[k]));
    const xy = new Matrix(d.n, d.p + 1);
    for (let i = 0; i < d.n; i++) { for (let j = 0; j < d.p; j++) xy.set(i, j, d.x[i * d.p + j]); xy.set(i, d.p, d.y[i]); }
    const a0 = z.transpose().mmul(z).add(Matrix.eye(m));
    const a = a0.add(a0.transpose()).div(2);
    const chol = new CholeskyDecomposition(a);
    let ldL2 = 0;
    for (let i = 0; i < m; i++) ldL2 += 2 * Math.log(chol.lowerTriangularMatrix.get(i, i));
    const zxy = z.transpose().mmul(xy);
    const g0 = xy.transpose().mmul(xy).sub(zxy.transpose().mmul(chol.solve(zxy)));
    const gl = new CholeskyDecomposition(g0.add(g0.transpose()).div(2)).lowerTriangularMatrix;
    let ldRX2 = 0;
    for (let j = 0; j < d.p; j++) ldRX2 += 2 * Math.log(gl.get(j, j));
    const r2 = gl.get(d.p, d.p) ** 2;
    const df = reml ? d.n - d.p : d.n;
    return ldL2 + (reml ? ldRX2 : 0) + df * (1 + Math.log((2 * Math.PI * r2) / df));
  }

  it('on an unbalanced design with three crossed factors, at arbitrary theta, REML and ML', () => {
    const rng = createRng(9);
    const rows: Record<string, number | string>[] = [];
    for (let i = 0; i < 150; i++) {
      if (rng.next() < 0.1) continue;
      rows.push({ s: `s${rng.int(40)}`, p: `p${rng.int(6)}`, b: `b${rng.int(4)}`, x: rng.next() * 3, f: rng.next() < 0.5 ? 'u' : 'v', y: rng.next() * 5 });
    }
    const formula = 'y ~ x * f + (1|s) + (1|p) + (1|b)';
    for (const theta of [[1, 1, 1], [0.3, 2.5, 0.7], [0, 1.2, 0.01]]) {
      for (const reml of [true, false]) {
        const fast = lmmDeviance(rows, formula, theta, { reml });
        expect(relClose(fast, dense(rows, formula, theta, reml), 1e-10), `theta ${theta} reml ${reml}`).toBe(true);
      }
    }
  });
});

describe('pooling the big factor by level count', () => {
  for (const [name, ref] of Object.entries(refs)) {
    it(`${name}: pooled and per-level Schur complements give the same deviance and fit`, () => {
      const rows = fixtureCsv(ref.data).rows;
      const q = Object.keys(ref.variances).length - 1;
      for (const t of [0.05, 0.7, 1.9]) {
        const theta = Array.from({ length: q }, (_, k) => t * (k + 1));
        const pooled = lmmDeviance(rows, ref.formula, theta, { reml: ref.reml, pool: true });
        const loop = lmmDeviance(rows, ref.formula, theta, { reml: ref.reml, pool: false });
        expect(relClose(pooled, loop, 1e-12), `${pooled} vs ${loop}`).toBe(true);
      }
      const a = fitLmm(rows, ref.formula, { reml: ref.reml, pool: true, satterthwaite: false });
      const b = fitLmm(rows, ref.formula, { reml: ref.reml, pool: false, satterthwaite: false });
      expect(relClose(a.criterion, b.criterion, 1e-10)).toBe(true);
      a.fixed.forEach((f, j) => expect(relClose(f.estimate, b.fixed[j].estimate, 1e-6, 1e-12)).toBe(true));
    });
  }
});

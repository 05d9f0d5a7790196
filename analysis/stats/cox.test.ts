// Cox regression against statsmodels PHReg (Breslow ties, cluster-robust covariance) on a simulated study's attempts.
import { describe, expect, it } from 'vitest';
import { fitCox, normalP, type CoxRow } from './cox.ts';
import { fixtureCsv, fixtureJson, relClose } from './fixtures/load.ts';

interface Ref { columns: string[]; coef: number[]; se: number[]; robust_se: number[]; log_likelihood: number; log_likelihood_null: number }
const ref = fixtureJson<{ x1: Ref; x1_x2: Ref; n: number; events: number }>('cox_reference.json');
const csv = fixtureCsv('cox.csv');
const col = (name: string) => csv.rows.map((r) => r[name]);

function rowsFor(columns: string[]): CoxRow[] {
  const time = col('time'), event = col('event'), cluster = col('cluster');
  const xs = columns.map(col);
  return time.map((t, i) => ({ time: Number(t), event: event[i] === '1', x: xs.map((x) => Number(x[i])), cluster: String(cluster[i]) }));
}

describe('fitCox against statsmodels PHReg (ties = breslow)', () => {
  for (const name of ['x1', 'x1_x2'] as const)
    it(`${name}: coefficients, SEs, cluster-robust SEs and log partial likelihoods`, () => {
      const r = ref[name];
      const fit = fitCox(rowsFor(r.columns), r.columns);
      expect(fit.n).toBe(ref.n);
      expect(fit.events).toBe(ref.events);
      expect(relClose(fit.logLikelihood, r.log_likelihood, 1e-10)).toBe(true);
      expect(relClose(fit.logLikelihoodNull, r.log_likelihood_null, 1e-10)).toBe(true);
      fit.terms.forEach((t, k) => {
        expect(t.term).toBe(r.columns[k]);
        expect(relClose(t.coef, r.coef[k], 1e-7), `coef ${t.coef} vs ${r.coef[k]}`).toBe(true);
        expect(relClose(t.se, r.se[k], 1e-6), `se ${t.se} vs ${r.se[k]}`).toBe(true);
        expect(relClose(t.robust_se, r.robust_se[k], 1e-6), `robust se ${t.robust_se} vs ${r.robust_se[k]}`).toBe(true);
        expect(t.hazard_ratio).toBeCloseTo(Math.exp(t.coef), 12);
        expect(t.p).toBeCloseTo(normalP(t.coef / t.robust_se), 14);
      });
    });
  it('says why it cannot fit: no events, a constant covariate, a bad time', () => {
    const rows = rowsFor(['x1']);
    expect(() => fitCox(rows.map((r) => ({ ...r, event: false })), ['x1'])).toThrow(/no events/);
    expect(() => fitCox(rows.map((r) => ({ ...r, x: [2] })), ['metric'])).toThrow(/covariate metric is constant/);
    expect(() => fitCox([{ time: 0, event: true, x: [1] }], ['x'])).toThrow(/row 0: time must be a positive/);
  });
  it('normalP: two-sided normal p', () => {
    expect(normalP(1.959963984540054)).toBeCloseTo(0.05, 14);
    expect(normalP(0)).toBe(1);
  });
});

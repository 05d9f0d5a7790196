import { describe, expect, it } from 'vitest';
import { crossingPoint, distinctLogGaps, fitGmm, gmmSelect, logGaps, pauseThreshold, type GmmFit } from './gmm.ts';
import { fixtureCsv, fixtureJson, relClose } from './fixtures/load.ts';
import { numericColumn } from './tidyCsv.ts';
import { createRng } from '../../shared/random.ts';

interface RefComponentFit { weights: number[]; means: number[]; variances: number[]; bic: number; threshold_s?: number; threshold_log?: number; kmeans_centers?: number[]; n_iter?: number }
const ref = fixtureJson<{ n: number; sklearn_defaults: Record<string, RefComponentFit>; 'converged_n_init_10_tol_1e-10': Record<string, RefComponentFit> }>('gmm_reference.json');
const gaps = numericColumn(fixtureCsv('gaps.csv'), 'gap_s');
const { values } = logGaps(gaps);

function expectSameFit(fit: GmmFit, r: RefComponentFit, rel: number) {
  expect(relClose(fit.bic, r.bic, rel), `bic ${fit.bic} vs ${r.bic}`).toBe(true);
  fit.components.forEach((c, i) => {
    expect(relClose(c.weight, r.weights[i], rel), `weight ${i}: ${c.weight} vs ${r.weights[i]}`).toBe(true);
    expect(relClose(c.mean, r.means[i], rel), `mean ${i}: ${c.mean} vs ${r.means[i]}`).toBe(true);
    expect(relClose(c.variance, r.variances[i], rel), `variance ${i}: ${c.variance} vs ${r.variances[i]}`).toBe(true);
  });
}

describe('fitGmm against scikit-learn', () => {
  it('reads the fixture', () => {
    expect(values.length).toBe(ref.n);
  });
  for (const k of ['1', '2', '3', '4']) {
    it(`compat sklearn, ${k} components, same k-means start: same EM path`, () => {
      const r = ref.sklearn_defaults[k];
      const fit = fitGmm(values, { components: Number(k), compat: 'sklearn', initCenters: r.kmeans_centers });
      expect(fit.iterations).toBe(r.n_iter);
      expectSameFit(fit, r, 1e-6);
      if (r.threshold_s) expect(relClose(pauseThreshold(fit)!, r.threshold_s, 1e-6)).toBe(true);
    });
  }
  for (const k of ['1', '2', '3']) {
    it(`default (converged, several starts), ${k} components: sklearn's best of 10 starts at tol 1e-10`, () => {
      const r = ref['converged_n_init_10_tol_1e-10'][k];
      const fit = fitGmm(values, { components: Number(k), seed: 1 });
      expect(fit.converged).toBe(true);
      // sklearn's EM at tol 1e-10 stops a little short of the maximum (our log-likelihood is
      // higher by ~1e-6), which moves the flattest parameters by ~1e-4: BIC agrees to 1e-8.
      expect(relClose(fit.bic, r.bic, 1e-8)).toBe(true);
      expect(fit.bic).toBeLessThanOrEqual(r.bic + 1e-6);
      expectSameFit(fit, r, 1e-3);
      if (r.threshold_s) expect(relClose(pauseThreshold(fit)!, r.threshold_s, 1e-3)).toBe(true);
    });
  }
  it('compat sklearn with its own k-means start lands on the same BIC and threshold on separated data', () => {
    const fit = fitGmm(values, { components: 3, compat: 'sklearn', seed: 3 });
    expect(relClose(fit.bic, ref.sklearn_defaults['3'].bic, 1e-3)).toBe(true);
    expect(relClose(pauseThreshold(fit)!, ref.sklearn_defaults['3'].threshold_s!, 0.1)).toBe(true);
  });
});

describe('fitGmm converges to the optimum (three simulated studies, cell-level gaps; reference: gmm_converged.py)', () => {
  interface ConvergedFit { weights: number[]; means: number[]; variances: number[]; log_likelihood: number; bic: number; fixed_point_residual: number; threshold_s?: number; em_log_likelihood_at_1e_10?: number }
  const studies = fixtureJson<{ studies: Record<string, { n: number; gap_s: number[]; count: number[]; fits: Record<string, ConvergedFit> }> }>('gmm_studies.json').studies;
  for (const [name, study] of Object.entries(studies)) {
    const gapList: number[] = [];
    study.gap_s.forEach((g, i) => { for (let j = 0; j < study.count[i]; j++) gapList.push(g); });
    const data = distinctLogGaps(gapList);
    for (const k of ['1', '2', '3', '4'])
      it(`${name} (n = ${study.n}), ${k} components: every weight, mean and variance to 1e-5 relative, the likelihood and threshold too`, () => {
        const r = study.fits[k];
        expect(r.fixed_point_residual).toBeLessThan(1e-12);
        const fit = fitGmm(data, { components: Number(k), seed: 1 });
        expect(fit.n).toBe(study.n);
        expect(fit.converged).toBe(true);
        expect(fit.residual!).toBeLessThan(1e-10);
        expectSameFit(fit, { ...r, bic: r.bic }, 1e-5);
        expect(Math.abs(fit.logLikelihood - r.log_likelihood)).toBeLessThan(1e-6);
        if (r.threshold_s) expect(relClose(pauseThreshold(fit)!, r.threshold_s, 1e-5)).toBe(true);
      });
  }
  it('without the Newton polish (plain tolerance on the likelihood) EM stops short on the flat ridge', () => {
    // The ridge is real: at the likelihood-tolerance stop the flattest parameters are off by far more than 1e-5.
    const study = studies.study_2;
    const gapList: number[] = [];
    study.gap_s.forEach((g, i) => { for (let j = 0; j < study.count[i]; j++) gapList.push(g); });
    const data = distinctLogGaps(gapList);
    const r = study.fits['4'];
    const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
    const worst = (fit: GmmFit) => Math.max(...fit.components.flatMap((c, i) => [rel(c.weight, r.weights[i]), rel(c.mean, r.means[i]), rel(c.variance, r.variances[i])]));
    const stopped = fitGmm(data, { components: 4, seed: 1, polish: false });
    const polished = fitGmm(data, { components: 4, seed: 1 });
    expect(Math.abs(stopped.logLikelihood - r.log_likelihood)).toBeLessThan(1e-2); // the likelihood is flat there...
    expect(worst(stopped)).toBeGreaterThan(1e-4); // ...the parameters are not
    expect(polished.newtonSteps!).toBeGreaterThan(0);
    expect(worst(polished)).toBeLessThan(1e-8);
  });
});

describe('gmmSelect', () => {
  it('reports BIC for 1..4, picks three components, ΔBIC against one', () => {
    const sel = gmmSelect(values, { maxComponents: 4, seed: 7 });
    expect(Object.keys(sel.bic)).toEqual(['1', '2', '3', '4']);
    expect(sel.best_components).toBe(3);
    expect(sel.components).toHaveLength(3);
    expect(sel.delta_bic).toBeCloseTo(sel.bic['1'] - sel.bic['3'], 8);
    expect(sel.delta_bic).toBeGreaterThan(6000);
    // Planted: drag-fill at ~0.012 s, moves at ~0.8 s, pauses at ~6 s.
    expect(Math.exp(sel.components[0].mean)).toBeCloseTo(0.012, 2);
    expect(sel.threshold_s!).toBeGreaterThan(0.8);
    expect(sel.threshold_s!).toBeLessThan(6);
  });
  it('is deterministic for a seed', () => {
    expect(gmmSelect(values.slice(0, 1500), { seed: 5, maxComponents: 3 })).toEqual(gmmSelect(values.slice(0, 1500), { seed: 5, maxComponents: 3 }));
  });
});

describe('pieces', () => {
  it('crossingPoint solves w2 N(x;m2,v2) = w3 N(x;m3,v3)', () => {
    const fit: GmmFit = { n: 1, logLikelihood: 0, bic: 0, iterations: 0, converged: true,
      components: [{ weight: 0.2, mean: -4, variance: 0.2 }, { weight: 0.5, mean: 0, variance: 0.5 }, { weight: 0.3, mean: 2, variance: 1 }] };
    const x = crossingPoint(fit)!;
    const dens = (c: { weight: number; mean: number; variance: number }) => c.weight * Math.exp(-((x - c.mean) ** 2) / (2 * c.variance)) / Math.sqrt(c.variance);
    expect(x).toBeGreaterThan(0);
    expect(x).toBeLessThan(2);
    expect(dens(fit.components[1])).toBeCloseTo(dens(fit.components[2]), 12);
    expect(pauseThreshold(fit)).toBeCloseTo(Math.exp(x), 12);
  });
  it('logGaps drops non-positive gaps', () => {
    expect(logGaps([1, 0, -2, Math.E, NaN])).toEqual({ values: [0, 1], dropped: 3 });
  });
  it('one component is the sample mean and variance (+ reg_covar)', () => {
    const rng = createRng(1);
    const xs = Array.from({ length: 500 }, () => rng.next() * 4);
    const fit = fitGmm(xs, { components: 1 });
    const m = xs.reduce((s, v) => s + v, 0) / xs.length;
    const v = xs.reduce((s, u) => s + (u - m) ** 2, 0) / xs.length;
    expect(fit.components[0].mean).toBeCloseTo(m, 12);
    expect(fit.components[0].variance).toBeCloseTo(v + 1e-6, 12);
  });
  it('rejects non-finite values, naming the index', () => {
    expect(() => fitGmm([1, 2, Infinity, 3, 4, 5], { components: 1 })).toThrow(/value 2/);
  });
});

describe('distinctLogGaps', () => {
  it('gives the same fits as logGaps on the full list', () => {
    const rng = createRng(11);
    const gaps = Array.from({ length: 4000 }, (_, i) => (i % 97 === 0 ? 0 : Math.round(1000 * Math.exp(-1 + 1.5 * (rng.next() + rng.next() - 1) + (i % 3))) / 1000));
    const d = distinctLogGaps(gaps);
    const full = logGaps(gaps);
    expect(d.n).toBe(full.values.length);
    expect(d.dropped).toBe(full.dropped);
    expect(d.x.length).toBeLessThan(full.values.length);
    const a = gmmSelect(full.values, { maxComponents: 3, components: 3, seed: 2 });
    const b = gmmSelect(d, { maxComponents: 3, components: 3, seed: 2 });
    expect(b.bic).toEqual(a.bic);
    expect(b.components).toEqual(a.components);
    expect(b.threshold_s).toBe(a.threshold_s);
  });
});

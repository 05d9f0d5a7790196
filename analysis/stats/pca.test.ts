import { describe, expect, it } from 'vitest';
import { pca } from './pca.ts';
import { zMeanComposite } from './composite.ts';
import { rankBiserial, rankBiserialFromFlags } from './rankBiserial.ts';
import { fixtureCsv, fixtureJson } from './fixtures/load.ts';
import { numericColumn } from './tidyCsv.ts';

const ref = fixtureJson<{ sdev2: number[]; explained: number[]; rotation: number[][]; scores_head: number[][]; composite: number[]; rank_biserial: { W: number; r: number } }>('pca_reference.json');
const csv = fixtureCsv('expertise.csv');
const cols = csv.columns.map((c) => numericColumn(csv, c));
const matrix = cols[0].map((_, i) => cols.map((c) => c[i]));

describe("pca against R's prcomp(scale. = TRUE)", () => {
  const fit = pca(matrix);
  it('variances, explained variance, loadings and scores', () => {
    fit.variances.forEach((v, i) => expect(v).toBeCloseTo(ref.sdev2[i], 10));
    fit.explained.forEach((v, i) => expect(v).toBeCloseTo(ref.explained[i], 10));
    fit.loadings.forEach((row, j) => row.forEach((v, c) => expect(v).toBeCloseTo(ref.rotation[j][c], 8)));
    ref.scores_head.forEach((row, i) => row.forEach((v, c) => expect(fit.scores[i][c]).toBeCloseTo(v, 8)));
  });
  it('PC1 has all loadings positive on this one-factor data', () => {
    expect(fit.loadings.every((row) => row[0] > 0)).toBe(true);
  });
  it('refuses a constant column', () => {
    expect(() => pca([[1, 2], [1, 3], [1, 4]])).toThrow(/column 0 is constant/);
  });
});

describe('zMeanComposite against rowMeans(scale(x))', () => {
  it('matches R and agrees with PC1', () => {
    const comp = zMeanComposite(matrix);
    comp.composite.forEach((v, i) => expect(v).toBeCloseTo(ref.composite[i], 10));
    const pc1 = pca(matrix).scores.map((s) => s[0]);
    const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
    const ma = mean(comp.composite), mb = mean(pc1);
    let sab = 0, saa = 0, sbb = 0;
    comp.composite.forEach((a, i) => { sab += (a - ma) * (pc1[i] - mb); saa += (a - ma) ** 2; sbb += (pc1[i] - mb) ** 2; });
    expect(sab / Math.sqrt(saa * sbb)).toBeGreaterThan(0.95);
  });
  it('leaves missing cells out', () => {
    const comp = zMeanComposite([[1, 10], [2, NaN], [3, 30]]);
    expect(comp.z[1][1]).toBeNaN();
    expect(comp.composite[1]).toBeCloseTo(0, 12);
    expect(comp.sd[1]).toBeCloseTo(Math.sqrt(200), 12);
  });
});

describe('rankBiserial (Glass), ties as half', () => {
  it("matches 2W/(n1 n0) - 1 from R's wilcox.test", () => {
    const t = fixtureCsv('theme.csv');
    const theme = numericColumn(t, 'theme'), difficulty = numericColumn(t, 'difficulty');
    const r = rankBiserialFromFlags(theme, difficulty);
    expect(r.u1).toBeCloseTo(ref.rank_biserial.W, 10);
    expect(r.r).toBeCloseTo(ref.rank_biserial.r, 12);
  });
  it('counts pairs', () => {
    expect(rankBiserial([3, 4], [1, 2]).r).toBe(1);
    expect(rankBiserial([1, 2], [3, 4]).r).toBe(-1);
    expect(rankBiserial([2, 2], [2, 2]).r).toBe(0);
    expect(rankBiserial([3], [1, 3]).r).toBeCloseTo(0.5, 12); // one win, one tie of two pairs
    expect(rankBiserial([], [1]).r).toBeNaN();
  });
});

// Linear mixed models with random intercepts (crossed or single), fitted as lme4 fits them, with lmerTest's Satterthwaite tests.
//
// Model: y = X beta + Z b + e, b ~ N(0, sigma^2 Lambda Lambda'), e ~ N(0, sigma^2 I), where Lambda
// is diagonal with the relative SD theta_k = sigma_k / sigma repeated over the levels of grouping
// factor k. lme4's profiled deviance (Bates et al. 2015, "Fitting linear mixed-effects models using
// lme4", section 3) reduces the fit to a search over theta alone: for a given theta, beta and the
// conditional modes come from one penalised least-squares problem, sigma^2 from its residual r^2,
// and
//   ML:   d(theta) = log|L|^2 + n (1 + log(2 pi r^2 / n))
//   REML: d(theta) = log|L|^2 + log|R_X|^2 + (n - p)(1 + log(2 pi r^2 / (n - p)))
// with L L' = Lambda' Z' Z Lambda + I and R_X' R_X = X'X - X'Z Lambda (L L')^-1 Lambda' Z'X.
//
// Making it fast. We never form an n x n or even a levels x levels matrix for the largest factor.
// Everything the deviance needs is a quadratic form W' A^-1 W with A = Lambda'Z'Z Lambda + I and
// W = Lambda' Z' [X y]; only the cross-products Z'Z, Z'X, Z'y, X'X, X'y, y'y enter, computed once.
// Put the factor with the most levels (participants) first: its block D of A is diagonal (each
// observation belongs to one level). Block elimination (the Schur complement S = C - B' D^-1 B,
// C the dense block of the other factors, B the sparse participant x puzzle counts) gives
//   log|A| = sum log D_ii + log|S|,
//   W' A^-1 W = W1' D^-1 W1 + (W2 - B' D^-1 W1)' S^-1 (W2 - B' D^-1 W1),
// and D_ll = theta_big^2 n_l + 1 depends on the level l only through its count n_l. So the sums
// over the big factor's levels (of W1 W1', B'B and B'W1, each scaled by 1/D_ll) are pooled once,
// when the cross-products are accumulated (O(n)), into one set per distinct count; an evaluation
// then costs O(distinct counts x (small levels^2 + p^2) + small levels^3), independent of the
// number of participants (a study where everyone did the same six puzzles has a handful of
// distinct counts). When counts are nearly all distinct (pooling would cost more) the loop runs
// over the levels instead, O(levels of the big factor x p^2 + nonzeros of B x small levels). The deviance is even in
// each theta_k, so the search runs unconstrained (Nelder-Mead, restarted until it stops
// improving) and reports |theta|; a variance at the boundary comes out as (near) zero.
//
// Inference as lmerTest (Kuznetsova et al. 2017): vcov(beta) = sigma^2 (R_X' R_X)^-1; for each
// coefficient the Satterthwaite df = 2 V^2 / (g' A g), where V is its variance, g the gradient of
// V with respect to the variance parameters (theta, sigma) and A = 2 H^-1 with H the Hessian of
// the (unprofiled) deviance in those parameters, both by Richardson-extrapolated central
// differences as numDeriv computes them. p = 2 P(T_df > |t|).
//
// Cannot do: random slopes or correlated random effects, weights, offsets, GLMMs; two factors
// that both have thousands of levels (the Schur block is dense in all but the largest factor).
import { CholeskyDecomposition, EigenvalueDecomposition, Matrix } from 'ml-matrix';
import tDist from '@stdlib/stats-base-dists-t';
import { parseFormula, type ParsedFormula } from './formula.ts';

export type DataRow = Record<string, number | string | null | undefined>;

export interface LmmFixed {
  term: string;
  estimate: number;
  se: number;
  df: number;
  t: number;
  p: number;
}

export interface LmmResult {
  formula: string;
  reml: boolean;
  n: number;
  /** Number of levels of each grouping factor. */
  groups: Record<string, number>;
  fixed: LmmFixed[];
  /** Variance of each random intercept by grouping factor, and "residual". */
  variances: Record<string, number>;
  theta: number[];
  sigma: number;
  /** The REML criterion (reml) or the deviance -2 log L (ml) at the optimum. */
  criterion: number;
  vcov: number[][];
  evaluations: number;
}

export interface LmmOptions {
  /** REML (default) or maximum likelihood. */
  reml?: boolean;
  /** Skip the Satterthwaite degrees of freedom (df and p come out NaN); faster on huge data. */
  satterthwaite?: boolean;
  /** Pool the big factor's levels by count (default: when cheaper); false forces the per-level loop. Same results to rounding. */
  pool?: boolean;
}

const MISSING = new Set(['', 'NA', 'NaN', 'na', 'nan', 'null']);

function isMissing(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v)) || (typeof v === 'string' && MISSING.has(v.trim()));
}

/** Design: fixed-effect columns with R's names, response, grouping indices. */
export interface LmmDesign {
  n: number;
  p: number;
  names: string[];
  /** Row-major n x p. */
  x: Float64Array;
  y: Float64Array;
  groups: { name: string; levels: string[]; index: Int32Array }[];
}

/** What buildDesign reads of one column, for every row: computed once per column of an LmmData. */
interface ColumnFacts {
  /** 1 where the value is missing (null, undefined, a non-finite number, '', 'NA', ...). */
  missing: Uint8Array;
  /** 1 where the value is neither a number nor a numeric string. */
  nonNumeric: Uint8Array;
  /** The value as a number (Number() of a string). */
  number: Float64Array;
}

/**
 * Data rows prepared for several models: each column's facts (missing, numeric, its values), its distinct values in
 * localeCompare order and each row's level index are computed once and shared by every model fitted on it (the
 * analysis fits 15 models on one table of 30,000 attempts; sorting 10,000 participant ids and checking every value
 * again for each model cost more than the fits). The rows must not change after it is made.
 */
export class LmmData {
  readonly rows: readonly DataRow[];
  private readonly facts = new Map<string, ColumnFacts>();
  private readonly levelsOf = new Map<string, { levels: string[]; index: Int32Array }>();

  constructor(rows: readonly DataRow[]) {
    this.rows = rows;
  }

  column(v: string): ColumnFacts {
    let f = this.facts.get(v);
    if (f) return f;
    const n = this.rows.length;
    f = { missing: new Uint8Array(n), nonNumeric: new Uint8Array(n), number: new Float64Array(n) };
    for (let i = 0; i < n; i++) {
      const value = this.rows[i][v];
      if (isMissing(value)) f.missing[i] = 1;
      const isNum = typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)));
      if (!isNum) f.nonNumeric[i] = 1;
      f.number[i] = typeof value === 'number' ? value : Number(value);
    }
    this.facts.set(v, f);
    return f;
  }

  /** The distinct values of v (as strings) over all rows in localeCompare order, and each row's index among them. */
  levels(v: string): { levels: string[]; index: Int32Array } {
    let l = this.levelsOf.get(v);
    if (l) return l;
    const text = this.rows.map((r) => String(r[v]));
    const levels = [...new Set(text)].sort((a, b) => a.localeCompare(b));
    const at = new Map(levels.map((x, i) => [x, i]));
    l = { levels, index: Int32Array.from(text, (x) => at.get(x)!) };
    this.levelsOf.set(v, l);
    return l;
  }

  /** The levels of v among the rows `kept` (indices, ascending), in the same order, and each kept row's index among them. */
  levelsAmong(v: string, kept: Int32Array): { levels: string[]; index: Int32Array } {
    const all = this.levels(v);
    const seen = new Uint8Array(all.levels.length);
    for (let k = 0; k < kept.length; k++) seen[all.index[kept[k]]] = 1;
    const renumber = new Int32Array(all.levels.length);
    const levels: string[] = [];
    for (let j = 0; j < all.levels.length; j++) if (seen[j]) { renumber[j] = levels.length; levels.push(all.levels[j]); }
    const index = new Int32Array(kept.length);
    for (let k = 0; k < kept.length; k++) index[k] = renumber[all.index[kept[k]]];
    return { levels, index };
  }
}

const prepared = (data: readonly DataRow[] | LmmData): LmmData => (data instanceof LmmData ? data : new LmmData(data));

/** Builds the model matrix as R's model.matrix would (treatment contrasts, first level as reference). */
export function buildDesign(data: readonly DataRow[] | LmmData, parsed: ParsedFormula): LmmDesign {
  const d = prepared(data);
  const rows = d.rows;
  const fixedVars = [...new Set(parsed.terms.flat())];
  const used = [parsed.response, ...fixedVars, ...parsed.random];
  if (rows.length === 0) throw new Error('lmm: no data rows');
  for (const v of used) if (!(v in rows[0])) throw new Error(`lmm: no column "${v}" in the data (columns: ${Object.keys(rows[0]).join(', ')})`);
  // (plain loops over typed arrays: TypedArray.from with a map function goes through the iterator protocol)
  const anyMissing = new Uint8Array(rows.length);
  for (const v of used) {
    const m = d.column(v).missing;
    for (let i = 0; i < rows.length; i++) anyMissing[i] |= m[i];
  }
  let n = 0;
  for (let i = 0; i < rows.length; i++) if (anyMissing[i] === 0) n++;
  const kept = new Int32Array(n);
  for (let i = 0, k = 0; i < rows.length; i++) if (anyMissing[i] === 0) kept[k++] = i;
  const response = d.column(parsed.response).number;
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = response[kept[i]];
    if (!Number.isFinite(v)) throw new Error(`lmm: row ${i + 1}: response "${parsed.response}" is not a number (${rows[kept[i]][parsed.response]})`);
    y[i] = v;
  }
  // A variable is numeric if every kept value is a number or a numeric string.
  const numeric = new Map<string, boolean>();
  const levels = new Map<string, { levels: string[]; index: Int32Array }>();
  for (const v of fixedVars) {
    const nonNumeric = d.column(v).nonNumeric;
    let isNum = true;
    for (let k = 0; k < n && isNum; k++) isNum = nonNumeric[kept[k]] === 0;
    numeric.set(v, isNum);
    if (!isNum) levels.set(v, d.levelsAmong(v, kept));
  }
  const termKeys = new Set(parsed.terms.map((t) => [...t].sort().join('\u0000')));
  // Each column as an array over the kept rows, built once per variable (a numeric variable's values, a factor's level
  // indices); an interaction column is the product of its parts, multiplied left to right (1 x first x second ...).
  const valuesOf = (v: string): Float64Array => {
    const all = d.column(v).number;
    const col = new Float64Array(n);
    for (let k = 0; k < n; k++) col[k] = all[kept[k]];
    return col;
  };
  const indicator = (v: string, level: number): Float64Array => {
    const at = levels.get(v)!.index;
    const col = new Float64Array(n);
    for (let i = 0; i < n; i++) col[i] = at[i] === level ? 1 : 0;
    return col;
  };
  const ones = new Float64Array(n).fill(1);
  type Col = { name: string; values: Float64Array };
  const columns: Col[] = [];
  if (parsed.intercept) columns.push({ name: '(Intercept)', values: ones });
  for (const term of parsed.terms) {
    // Per variable: a list of (name part, values); factors coded by contrasts when the
    // term's margin (the term without this factor) is in the model, else by full indicators.
    const parts = term.map((v): Col[] => {
      if (numeric.get(v)) return [{ name: v, values: valuesOf(v) }];
      const margin = term.filter((u) => u !== v);
      const contrasts = margin.length === 0 ? parsed.intercept : termKeys.has([...margin].sort().join('\u0000'));
      const lv = levels.get(v)!.levels;
      const first = contrasts ? 1 : 0;
      return lv.slice(first).map((level, k) => ({ name: `${v}${level}`, values: indicator(v, k + first) }));
    });
    // First variable varies fastest, as in R.
    let combos: Col[] = [{ name: '', values: ones }];
    for (const options of parts) {
      const next: Col[] = [];
      for (const o of options) for (const c of combos) {
        const values = new Float64Array(n);
        for (let i = 0; i < n; i++) values[i] = c.values[i] * o.values[i];
        next.push({ name: c.name ? `${c.name}:${o.name}` : o.name, values });
      }
      combos = next;
    }
    columns.push(...combos);
  }
  const p = columns.length;
  const x = new Float64Array(n * p);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < p; j++) {
      const v = columns[j].values[i];
      if (!Number.isFinite(v)) throw new Error(`lmm: row ${i + 1}: column "${columns[j].name}" is not a number`);
      x[i * p + j] = v;
    }
  }
  const groups = parsed.random.map((name) => ({ name, ...d.levelsAmong(name, kept) }));
  return { n, p, names: columns.map((c) => c.name), x, y, groups };
}

/** Cross-products computed once; the profiled deviance needs nothing else. */
interface CrossProducts {
  n: number;
  p: number;
  /** (p+1) x (p+1): [X y]'[X y]. */
  xy: Matrix;
  /** The largest factor ("big"): its counts and Z1'[X y] (m1 x (p+1), row-major). */
  big: number;
  m1: number;
  n1: Float64Array;
  z1xy: Float64Array;
  /** Remaining factors stacked: Mr columns; factorOf[c] = which factor (index in groups). */
  mr: number;
  factorOf: Int32Array;
  zrzr: Matrix;
  zrxy: Matrix;
  /** Sparse Z1'Zr: for big level l, entries [col, count]. */
  cross: { col: Int32Array; count: Float64Array }[];
  /**
   * The big factor's levels pooled by their count n1 (null when pooling would cost more than the
   * per-level loop): D_ll = theta_big^2 n1[l] + 1 depends on l only through n1[l], so every sum over
   * levels in the Schur complement is a sum over the distinct counts of pre-summed products.
   */
  pooled: PooledLevels | null;
}

/** Sufficient statistics of the big factor's levels, pooled by level count (one entry per distinct count). */
interface PooledLevels {
  /** The distinct counts and how many levels have each. */
  count: Float64Array;
  levels: Float64Array;
  /** Per distinct count g: sum over its levels of z z' (q x q, row-major, lower triangle used), z = Z1'[X y] row. */
  zz: Float64Array[];
  /** Per g: sum over its levels of B_l' z (mr x q row-major), B_l the level's counts in the other factors. */
  bz: Float64Array[];
  /** Per g: sum over its levels of B_l' B_l (mr x mr row-major). */
  bb: Float64Array[];
}

function poolLevels(m1: number, q: number, mr: number, n1: Float64Array, z1xy: Float64Array, cross: { col: Int32Array; count: Float64Array }[], force: boolean): PooledLevels | null {
  const groupOf = new Map<number, number>();
  for (let l = 0; l < m1; l++) if (!groupOf.has(n1[l])) groupOf.set(n1[l], groupOf.size);
  const G = groupOf.size;
  // Cost per evaluation: pooled G (mr^2 + mr q + q^2) against per level sum (nnz^2 + nnz q + q^2).
  let perLevel = 0;
  for (let l = 0; l < m1; l++) { const e = cross[l].col.length; perLevel += e * e + e * q + q * q; }
  if (!force && (G * (mr * mr + mr * q + q * q) > perLevel || G * mr * mr > 5e7)) return null;
  const count = new Float64Array(G), levels = new Float64Array(G);
  const zz = Array.from({ length: G }, () => new Float64Array(q * q));
  const bz = Array.from({ length: G }, () => new Float64Array(mr * q));
  const bb = Array.from({ length: G }, () => new Float64Array(mr * mr));
  for (const [c, g] of groupOf) count[g] = c;
  for (let l = 0; l < m1; l++) {
    const g = groupOf.get(n1[l])!;
    levels[g]++;
    const zg = zz[g], bzg = bz[g], bbg = bb[g], o = l * q;
    for (let a = 0; a < q; a++) { const za = z1xy[o + a]; for (let b = 0; b <= a; b++) zg[a * q + b] += za * z1xy[o + b]; }
    const { col, count: cnt } = cross[l];
    for (let e = 0; e < col.length; e++) {
      const ce = col[e], ke = cnt[e];
      for (let a = 0; a < q; a++) bzg[ce * q + a] += ke * z1xy[o + a];
      for (let f = 0; f < col.length; f++) bbg[ce * mr + col[f]] += ke * cnt[f];
    }
  }
  return { count, levels, zz, bz, bb };
}

/** Per level l of the big factor: the other columns it meets (ascending) and how many rows meet each, from (level, column) pairs. */
function crossCounts(m1: number, level: Int32Array, col: Int32Array): { col: Int32Array; count: Float64Array }[] {
  const start = new Int32Array(m1 + 1);
  for (let k = 0; k < level.length; k++) start[level[k] + 1]++;
  for (let l = 0; l < m1; l++) start[l + 1] += start[l];
  const at = start.slice(0, m1);
  const byLevel = new Int32Array(col.length);
  for (let k = 0; k < level.length; k++) byLevel[at[level[k]]++] = col[k];
  const cols = new Int32Array(col.length), counts = new Float64Array(col.length);
  const cross = new Array<{ col: Int32Array; count: Float64Array }>(m1);
  let w = 0;
  for (let l = 0; l < m1; l++) {
    const a = start[l], b = start[l + 1];
    // a level has a few pairs (one per row of the participant and other factor): insertion sort
    for (let k = a + 1; k < b; k++) {
      const v = byLevel[k];
      let j = k - 1;
      for (; j >= a && byLevel[j] > v; j--) byLevel[j + 1] = byLevel[j];
      byLevel[j + 1] = v;
    }
    const w0 = w;
    for (let k = a; k < b; k++) {
      if (w > w0 && cols[w - 1] === byLevel[k]) counts[w - 1]++;
      else {
        cols[w] = byLevel[k];
        counts[w++] = 1;
      }
    }
    cross[l] = { col: cols.subarray(w0, w), count: counts.subarray(w0, w) };
  }
  return cross;
}

function crossProducts(d: LmmDesign, pool?: boolean): CrossProducts {
  const { n, p, x, y, groups } = d;
  const q = p + 1;
  const xy = new Matrix(q, q);
  const row = new Float64Array(q);
  const big = groups.reduce((b, g, i) => (g.levels.length > groups[b].levels.length ? i : b), 0);
  const m1 = groups.length ? groups[big].levels.length : 0;
  const rest = groups.map((_, i) => i).filter((i) => i !== big && groups.length > 0);
  const offsets: number[] = [];
  let mr = 0;
  for (const k of rest) { offsets.push(mr); mr += groups[k].levels.length; }
  const factorOf = new Int32Array(mr);
  rest.forEach((k, r) => factorOf.fill(k, offsets[r], offsets[r] + groups[k].levels.length));
  const n1 = new Float64Array(m1), z1xy = new Float64Array(m1 * q);
  const zrzr = new Matrix(mr, mr), zrxy = new Matrix(mr, q);
  // Z1'Zr as (big level, other column) pairs, one per row and other factor, counted per level after the loop (a Map per
  // level, 10,000 of them per model, cost more in garbage collection than the rest of the cross-products).
  const R = rest.length;
  const pairLevel = new Int32Array(n * R), pairCol = new Int32Array(n * R);
  let pairs = 0;
  const xyData = Array.from({ length: q }, () => new Float64Array(q));
  const zrxyData = Array.from({ length: mr }, () => new Float64Array(q));
  const cols = new Int32Array(rest.length);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < p; j++) row[j] = x[i * p + j];
    row[p] = y[i];
    for (let a = 0; a < q; a++) { const ra = row[a], out = xyData[a]; for (let b = 0; b <= a; b++) out[b] += ra * row[b]; }
    if (groups.length) {
      const l = groups[big].index[i];
      n1[l]++;
      for (let a = 0; a < q; a++) z1xy[l * q + a] += row[a];
      rest.forEach((k, r) => (cols[r] = offsets[r] + groups[k].index[i]));
      for (let r = 0; r < rest.length; r++) {
        const c = cols[r];
        const out = zrxyData[c];
        for (let a = 0; a < q; a++) out[a] += row[a];
        for (let s = 0; s < rest.length; s++) zrzr.set(c, cols[s], zrzr.get(c, cols[s]) + 1);
        pairLevel[pairs] = l;
        pairCol[pairs++] = c;
      }
    }
  }
  for (let a = 0; a < q; a++) for (let b = 0; b <= a; b++) { xy.set(a, b, xyData[a][b]); xy.set(b, a, xyData[a][b]); }
  for (let c = 0; c < mr; c++) for (let a = 0; a < q; a++) zrxy.set(c, a, zrxyData[c][a]);
  const cross = crossCounts(m1, pairLevel.subarray(0, pairs), pairCol.subarray(0, pairs));
  return { n, p, xy, big, m1, n1, z1xy, mr, factorOf, zrzr, zrxy, cross, pooled: groups.length && pool !== false ? poolLevels(m1, q, mr, n1, z1xy, cross, pool === true) : null };
}

/** Everything one value of theta determines (the penalised least-squares solution). */
export interface ThetaEvaluation {
  /** log|L|^2 = log det(Lambda'Z'Z Lambda + I). */
  ldL2: number;
  /** log|R_X|^2. */
  ldRX2: number;
  /** Penalised residual sum of squares. */
  r2: number;
  /** [X y]'[X y] with the random effects profiled out: its X block and X'y column give the fixed effects (fixedEffects). */
  g: Matrix;
}

/** The fixed effects at an evaluated theta: beta and (R_X' R_X)^-1, i.e. vcov(beta) / sigma^2 (apart from the deviance, which the optimiser's many evaluations need alone). */
function fixedEffects(ev: ThetaEvaluation, p: number): { beta: number[]; rxInv: Matrix } {
  const gxx = ev.g.subMatrix(0, p - 1, 0, p - 1);
  const gxy = ev.g.subMatrix(0, p - 1, p, p);
  const cxx = new CholeskyDecomposition(gxx);
  return { beta: cxx.solve(gxy).to1DArray(), rxInv: cxx.solve(Matrix.eye(p)) };
}

function evaluateTheta(cp: CrossProducts, theta: readonly number[]): ThetaEvaluation {
  const { p, m1, n1, z1xy, mr, factorOf, zrzr, zrxy, cross, big } = cp;
  const q = p + 1;
  const g = cp.xy.clone();
  let ldL2 = 0;
  if (m1 > 0) {
    const tb = theta[big];
    const tb2 = tb * tb;
    const thetaR = Float64Array.from(factorOf, (k) => theta[k]);
    // C = diag(thetaR) Zr'Zr diag(thetaR) + I ; T = diag(thetaR) Zr'[X y]
    const s = new Matrix(mr, mr), t = new Matrix(mr, q);
    for (let a = 0; a < mr; a++) {
      for (let b = 0; b < mr; b++) s.set(a, b, thetaR[a] * thetaR[b] * zrzr.get(a, b) + (a === b ? 1 : 0));
      for (let c = 0; c < q; c++) t.set(a, c, thetaR[a] * zrxy.get(a, c));
    }
    const sData = s.to2DArray(), tData = t.to2DArray();
    const gAdj = Array.from({ length: q }, () => new Float64Array(q));
    const w1 = new Float64Array(q);
    const pooled = cp.pooled;
    if (pooled) for (let g = 0; g < pooled.count.length; g++) {
      // The same sums as the per-level loop below, over levels sharing one count at once.
      const dl = tb2 * pooled.count[g] + 1;
      ldL2 += pooled.levels[g] * Math.log(dl);
      const f = tb2 / dl;
      const zg = pooled.zz[g], bzg = pooled.bz[g], bbg = pooled.bb[g];
      for (let a = 0; a < q; a++) { const out = gAdj[a]; for (let b = 0; b <= a; b++) out[b] += f * zg[a * q + b]; }
      for (let a = 0; a < mr; a++) {
        const fa = f * thetaR[a];
        if (fa === 0) continue;
        const sRow = sData[a], tRow = tData[a];
        for (let b = 0; b < mr; b++) sRow[b] -= fa * thetaR[b] * bbg[a * mr + b];
        for (let c = 0; c < q; c++) tRow[c] -= fa * bzg[a * q + c];
      }
    }
    else for (let l = 0; l < m1; l++) {
      const dl = tb2 * n1[l] + 1;
      ldL2 += Math.log(dl);
      const inv = 1 / dl;
      for (let a = 0; a < q; a++) w1[a] = tb * z1xy[l * q + a];
      // W1' D^-1 W1
      for (let a = 0; a < q; a++) { const wa = w1[a] * inv; const out = gAdj[a]; for (let b = 0; b <= a; b++) out[b] += wa * w1[b]; }
      // S -= B' D^-1 B ; T -= B' D^-1 W1, with B[l, c] = tb * thetaR[c] * count
      const { col, count } = cross[l];
      for (let e = 0; e < col.length; e++) {
        const ce = col[e];
        const be = tb * thetaR[ce] * count[e] * inv;
        const sRow = sData[ce];
        for (let f = 0; f < col.length; f++) sRow[col[f]] -= be * tb * thetaR[col[f]] * count[f];
        const tRow = tData[ce];
        for (let a = 0; a < q; a++) tRow[a] -= be * w1[a];
      }
    }
    if (mr > 0) {
      // Rounding differs between S[a][b] and S[b][a]; make it exactly symmetric for the Cholesky.
      for (let a = 0; a < mr; a++) for (let b = 0; b < a; b++) { const v = 0.5 * (sData[a][b] + sData[b][a]); sData[a][b] = v; sData[b][a] = v; }
      const sm = new Matrix(sData);
      const chol = new CholeskyDecomposition(sm);
      if (!chol.isPositiveDefinite()) throw new Error('lmm: the Schur complement is not positive definite');
      const lower = chol.lowerTriangularMatrix;
      for (let a = 0; a < mr; a++) ldL2 += 2 * Math.log(lower.get(a, a));
      const tm = new Matrix(tData);
      const sol = chol.solve(tm);
      const quad = tm.transpose().mmul(sol);
      for (let a = 0; a < q; a++) for (let b = 0; b <= a; b++) gAdj[a][b] += quad.get(a, b);
    }
    for (let a = 0; a < q; a++) for (let b = 0; b <= a; b++) {
      const v = g.get(a, b) - gAdj[a][b];
      g.set(a, b, v); g.set(b, a, v);
    }
  }
  const chol = new CholeskyDecomposition(g);
  if (!chol.isPositiveDefinite()) throw new Error('lmm: the fixed-effects design is rank deficient (a column is constant within the data or a linear combination of others)');
  const lower = chol.lowerTriangularMatrix; // G = L L', L = R'
  let ldRX2 = 0;
  for (let a = 0; a < p; a++) ldRX2 += 2 * Math.log(lower.get(a, a));
  const r2 = lower.get(p, p) ** 2;
  return { ldL2, ldRX2, r2, g };
}

function profiledDeviance(cp: CrossProducts, ev: ThetaEvaluation, reml: boolean): number {
  const { n, p } = cp;
  if (reml) return ev.ldL2 + ev.ldRX2 + (n - p) * (1 + Math.log((2 * Math.PI * ev.r2) / (n - p)));
  return ev.ldL2 + n * (1 + Math.log((2 * Math.PI * ev.r2) / n));
}

/** The profiled deviance (REML criterion or -2 log L) at a given theta, as lme4's devfun(theta). */
export function lmmDeviance(rows: readonly DataRow[], formula: string, theta: readonly number[], options: { reml?: boolean; pool?: boolean } = {}): number {
  const cp = crossProducts(buildDesign(rows, parseFormula(formula)), options.pool);
  return profiledDeviance(cp, evaluateTheta(cp, theta), options.reml ?? true);
}

/** lmerTest's devfun_vp: the deviance at theta and sigma (not profiled). */
function devianceAt(cp: CrossProducts, varpar: readonly number[], reml: boolean): number {
  const { n, p } = cp;
  const sigma2 = varpar[varpar.length - 1] ** 2;
  const ev = evaluateTheta(cp, varpar.slice(0, -1));
  let dev = ev.ldL2 + ev.r2 / sigma2 + n * Math.log(2 * Math.PI * sigma2);
  if (reml) dev += ev.ldRX2 - p * Math.log(2 * Math.PI * sigma2);
  return dev;
}

/** Nelder-Mead minimisation (adaptive parameters for small dimensions), restarted until no gain. */
export function nelderMead(f: (x: number[]) => number, start: number[], opts: { step?: number; ftol?: number; xtol?: number; maxEvaluations?: number } = {}): { x: number[]; value: number; evaluations: number } {
  const d = start.length;
  const ftol = opts.ftol ?? 1e-13, xtol = opts.xtol ?? 1e-10, maxEval = opts.maxEvaluations ?? 20_000;
  let evaluations = 0;
  const call = (x: number[]) => { evaluations++; return f(x); };
  let best = { x: start.slice(), value: call(start) };
  let step = opts.step ?? 0.5;
  for (let restart = 0; restart < 20 && evaluations < maxEval; restart++) {
    let simplex = [best.x.slice()];
    for (let i = 0; i < d; i++) {
      const v = best.x.slice();
      v[i] += v[i] !== 0 ? step * Math.max(Math.abs(v[i]), 0.1) : step;
      simplex.push(v);
    }
    let values = simplex.map((v, i) => (i === 0 ? best.value : call(v)));
    while (evaluations < maxEval) {
      const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
      simplex = order.map((i) => simplex[i]); values = order.map((i) => values[i]);
      const spread = Math.max(...simplex.slice(1).map((v) => Math.max(...v.map((c, i) => Math.abs(c - simplex[0][i])))));
      if (Math.abs(values[d] - values[0]) <= ftol * (Math.abs(values[0]) + 1e-300) && spread < xtol * (1 + Math.max(...simplex[0].map(Math.abs)))) break;
      if (spread < 1e-15) break;
      const centroid = new Array<number>(d).fill(0);
      for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) centroid[j] += simplex[i][j] / d;
      const along = (t: number) => centroid.map((c, j) => c + t * (simplex[d][j] - c));
      const xr = along(-1), fr = call(xr);
      if (fr < values[0]) {
        const xe = along(-2), fe = call(xe);
        if (fe < fr) { simplex[d] = xe; values[d] = fe; } else { simplex[d] = xr; values[d] = fr; }
      } else if (fr < values[d - 1]) {
        simplex[d] = xr; values[d] = fr;
      } else {
        const outside = fr < values[d];
        const xc = along(outside ? -0.5 : 0.5), fc = call(xc);
        if (fc < (outside ? fr : values[d])) { simplex[d] = xc; values[d] = fc; } else {
          for (let i = 1; i <= d; i++) { simplex[i] = simplex[i].map((c, j) => simplex[0][j] + 0.5 * (c - simplex[0][j])); values[i] = call(simplex[i]); }
        }
      }
    }
    const idx = values.indexOf(Math.min(...values));
    const gained = best.value - values[idx];
    if (values[idx] <= best.value) best = { x: simplex[idx].slice(), value: values[idx] };
    if (restart > 0 && gained <= ftol * Math.abs(best.value)) break;
    step = Math.max(1e-3, step / 4);
  }
  return { ...best, evaluations };
}

/**
 * Richardson-extrapolated central differences exactly as R's numDeriv computes them (r = 4
 * halvings): jacobian() starts from a relative step d = 1e-4, hessian() (genD) from d = 0.1.
 * lmerTest's df depend on these choices at the 1e-2 level, so we copy them rather than pick
 * "better" steps.
 */
function stepFor(x: number, d: number): number {
  const zeroTol = Math.sqrt(Number.EPSILON / 7e-7);
  return Math.abs(d * x) + (Math.abs(x) < zeroTol ? 1e-4 : 0);
}

function richardson(estimates: number[][]): number[] {
  // estimates[i] at step h / 2^i; eliminate h^2, h^4, ...
  let a = estimates.map((e) => e.slice());
  for (let m = 1; m < a.length; m++) {
    const f = 4 ** m;
    a = a.slice(1).map((e, i) => e.map((v, j) => (f * v - a[i][j]) / (f - 1)));
  }
  return a[0];
}

export function numericJacobian(f: (x: number[]) => number[], x: readonly number[]): number[][] {
  const d = x.length;
  const columns: number[][] = [];
  for (let j = 0; j < d; j++) {
    const h0 = stepFor(x[j], 1e-4);
    const est: number[][] = [];
    for (let r = 0; r < 4; r++) {
      const h = h0 / 2 ** r;
      const up = x.slice(), dn = x.slice();
      up[j] += h; dn[j] -= h;
      const fu = f(up), fd = f(dn);
      est.push(fu.map((v, i) => (v - fd[i]) / (2 * h)));
    }
    columns.push(richardson(est));
  }
  return columns[0].map((_, i) => columns.map((c) => c[i]));
}

export function numericHessian(f: (x: number[]) => number, x: readonly number[]): number[][] {
  const d = x.length;
  const f0 = f(x.slice());
  const h0 = x.map((v) => stepFor(v, 0.1));
  const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
  const at = (deltas: number[]) => f(x.map((v, i) => v + deltas[i]));
  for (let i = 0; i < d; i++) {
    const est: number[][] = [];
    for (let r = 0; r < 4; r++) {
      const h = h0[i] / 2 ** r;
      const e = new Array<number>(d).fill(0);
      e[i] = h;
      const fp = at(e), fm = at(e.map((v) => -v));
      est.push([(fp - 2 * f0 + fm) / (h * h)]);
    }
    hess[i][i] = richardson(est)[0];
  }
  for (let i = 0; i < d; i++) for (let j = 0; j < i; j++) {
    const est: number[][] = [];
    for (let r = 0; r < 4; r++) {
      const hi = h0[i] / 2 ** r, hj = h0[j] / 2 ** r;
      const e = new Array<number>(d).fill(0);
      e[i] = hi; e[j] = hj;
      const fp = at(e), fm = at(e.map((v) => -v));
      est.push([(fp - 2 * f0 + fm - hess[i][i] * hi * hi - hess[j][j] * hj * hj) / (2 * hi * hj)]);
    }
    hess[i][j] = hess[j][i] = richardson(est)[0];
  }
  return hess;
}

export function fitLmm(rows: readonly DataRow[] | LmmData, formula: string, options: LmmOptions = {}): LmmResult {
  const reml = options.reml ?? true;
  const parsed = parseFormula(formula);
  if (parsed.random.length === 0) throw new Error('lmm: the formula has no random intercept (1 | group)');
  const design = buildDesign(rows, parsed);
  const { n, p } = design;
  if (n <= p) throw new Error(`lmm: ${n} complete rows for ${p} fixed effects`);
  if (design.y.every((v) => v === design.y[0]))
    throw new Error(`lmm: the response "${parsed.response}" is constant (${design.y[0]} in all ${n} complete rows): there is no variance to model`);
  for (let j = 0; j < p && design.names.includes('(Intercept)'); j++) {
    if (design.names[j] === '(Intercept)') continue;
    const first = design.x[j];
    let constant = true;
    for (let i = 1; i < n && constant; i++) constant = design.x[i * p + j] === first;
    if (constant) throw new Error(`lmm: the fixed effect "${design.names[j]}" is constant (${first} in all ${n} complete rows): its coefficient is not estimable beside the intercept`);
  }
  for (const g of design.groups) if (g.levels.length < 2) throw new Error(`lmm: grouping factor "${g.name}" has fewer than 2 levels`);
  const cp = crossProducts(design, options.pool);
  const q = design.groups.length;
  const objective = (theta: number[]) => profiledDeviance(cp, evaluateTheta(cp, theta.map(Math.abs)), reml);
  const opt = nelderMead(objective, new Array<number>(q).fill(1));
  const theta = opt.x.map(Math.abs);
  const ev = evaluateTheta(cp, theta);
  const { beta, rxInv } = fixedEffects(ev, p);
  const sigma2 = ev.r2 / (reml ? n - p : n);
  const sigma = Math.sqrt(sigma2);
  const vcov = rxInv.mul(sigma2);
  const se = design.names.map((_, j) => Math.sqrt(vcov.get(j, j)));
  let df = design.names.map(() => NaN);
  if (options.satterthwaite ?? true) df = satterthwaite(cp, theta, sigma, vcov, reml);
  const fixed = design.names.map((term, j) => {
    const t = beta[j] / se[j];
    return { term, estimate: beta[j], se: se[j], df: df[j], t, p: Number.isFinite(df[j]) ? 2 * tDist.cdf(-Math.abs(t), df[j]) : NaN };
  });
  const variances: Record<string, number> = {};
  design.groups.forEach((g, k) => (variances[g.name] = sigma2 * theta[k] * theta[k]));
  variances.residual = sigma2;
  return {
    formula,
    reml,
    n,
    groups: Object.fromEntries(design.groups.map((g) => [g.name, g.levels.length])),
    fixed,
    variances,
    theta,
    sigma,
    criterion: opt.value,
    vcov: vcov.to2DArray(),
    evaluations: opt.evaluations,
  };
}

/** lmerTest's Satterthwaite df for each coefficient (contrast = unit vector). */
function satterthwaite(cp: CrossProducts, theta: number[], sigma: number, vcov: Matrix, reml: boolean): number[] {
  const varpar = [...theta, sigma];
  const h = numericHessian((v) => devianceAt(cp, v, reml), varpar);
  // As lmerTest: A = 2 H^+, inverting only the eigenvalues above 1e-8.
  const eig = new EigenvalueDecomposition(new Matrix(h), { assumeSymmetric: true });
  const vecs = eig.eigenvectorMatrix;
  const aMat = new Matrix(varpar.length, varpar.length);
  eig.realEigenvalues.forEach((value, k) => {
    if (!(value > 1e-8)) return;
    const v = vecs.getColumnVector(k);
    aMat.add(v.mmul(v.transpose()).mul(2 / value));
  });
  const p = cp.p;
  // Jacobian of the diagonal of vcov(beta) = sigma^2 (R_X'R_X)^-1 with respect to varpar.
  const jac = numericJacobian((v) => {
    const { rxInv } = fixedEffects(evaluateTheta(cp, v.slice(0, -1)), p);
    const s2 = v[v.length - 1] ** 2;
    return Array.from({ length: p }, (_, j) => s2 * rxInv.get(j, j));
  }, varpar);
  return Array.from({ length: p }, (_, j) => {
    const g = Matrix.rowVector(jac[j]);
    const denom = g.mmul(aMat).mmul(g.transpose()).get(0, 0);
    return (2 * vcov.get(j, j) ** 2) / denom;
  });
}

// Cox proportional hazards regression (Breslow ties) with model-based and cluster-robust standard errors.
//
// For solve times that a skip, a time-out or the end of a session cut short (right-censored): the
// hazard of solving at time t is h0(t) exp(x'b), h0 left unspecified. b maximises Cox's partial
// likelihood, with tied event times handled as Breslow did (every event at t sees the whole risk set
// at t): l(b) = sum over events i of [x_i'b - log sum_{j: t_j >= t_i} exp(x_j'b)]. Newton-Raphson
// from b = 0 with step halving until the log partial likelihood changes by less than 1e-10 relative;
// the covariates are centred first (the fit is invariant; it keeps exp() in range). Model-based SEs
// from the inverse information; robust SEs (Lin & Wei 1989) from the score residuals summed within
// each cluster (participant): V = I^-1 (sum_g U_g U_g') I^-1, no small-sample factor (as R's
// coxph(..., cluster = ) and statsmodels' PHReg(groups = )). p values are two-sided normal.
// What it cannot do: time-varying covariates, strata, frailties (a random effect per puzzle as the
// mixed models have), Efron ties (solve times are in milliseconds: ties are rare and Breslow's
// approximation then agrees with Efron's to rounding).
import { inverse, Matrix } from 'ml-matrix';
import normal from '@stdlib/stats-base-dists-normal';

export interface CoxRow {
  /** Follow-up time (> 0). */
  time: number;
  /** true: the event (a solve) happened at `time`; false: censored there. */
  event: boolean;
  x: readonly number[];
  /** Cluster for the robust SEs (e.g. the participant); absent: each row its own cluster. */
  cluster?: string;
}

export interface CoxTerm {
  term: string;
  /** Log hazard ratio per unit of the covariate. */
  coef: number;
  hazard_ratio: number;
  se: number;
  robust_se: number;
  /** coef / robust_se (coef / se when every row is its own cluster and no cluster was given). */
  z: number;
  p: number;
}

export interface CoxResult {
  terms: CoxTerm[];
  n: number;
  events: number;
  clusters: number;
  logLikelihood: number;
  /** Log partial likelihood at b = 0. */
  logLikelihoodNull: number;
  iterations: number;
}

/** Two-sided normal p value of z. */
export function normalP(z: number): number {
  return Number.isFinite(z) ? 2 * normal.cdf(-Math.abs(z), 0, 1) : NaN;
}

export function fitCox(rows: readonly CoxRow[], names?: readonly string[]): CoxResult {
  const n = rows.length;
  if (n === 0) throw new Error('fitCox: no rows');
  const p = rows[0].x.length;
  if (p === 0) throw new Error('fitCox: no covariates');
  rows.forEach((r, i) => {
    if (!(Number.isFinite(r.time) && r.time > 0)) throw new Error(`fitCox: row ${i}: time must be a positive number, got ${r.time}`);
    if (r.x.length !== p) throw new Error(`fitCox: row ${i} has ${r.x.length} covariates, expected ${p}`);
    r.x.forEach((v, j) => {
      if (!Number.isFinite(v)) throw new Error(`fitCox: row ${i}: covariate ${names?.[j] ?? j} is not a finite number`);
    });
  });
  const events = rows.filter((r) => r.event).length;
  if (events === 0) throw new Error('fitCox: no events (every time is censored): the hazard ratio is not estimable');
  for (let j = 0; j < p; j++) {
    const first = rows[0].x[j];
    if (rows.every((r) => r.x[j] === first)) throw new Error(`fitCox: covariate ${names?.[j] ?? j} is constant (${first}): its hazard ratio is not estimable`);
  }
  // Sort by time descending so that risk sets accumulate; events before censorings at equal times does not matter
  // (a censoring at t is in the risk set at t either way).
  const order = rows.map((_, i) => i).sort((a, b) => rows[b].time - rows[a].time);
  const means = Array.from({ length: p }, (_, j) => rows.reduce((s, r) => s + r.x[j], 0) / n);
  const X = order.map((i) => rows[i].x.map((v, j) => v - means[j]));
  const T = order.map((i) => rows[i].time);
  const D = order.map((i) => rows[i].event);

  /** Log partial likelihood, score and information at b. */
  const evaluate = (b: number[]) => {
    let ll = 0;
    const U = new Array<number>(p).fill(0);
    const I = Array.from({ length: p }, () => new Array<number>(p).fill(0));
    let s0 = 0;
    const s1 = new Array<number>(p).fill(0);
    const s2 = Array.from({ length: p }, () => new Array<number>(p).fill(0));
    let i = 0;
    while (i < n) {
      // add every row with this time to the risk set, then process its events
      let j = i;
      let d = 0;
      const xsum = new Array<number>(p).fill(0);
      let etaSum = 0;
      while (j < n && T[j] === T[i]) {
        const eta = X[j].reduce((s, v, k) => s + v * b[k], 0);
        const w = Math.exp(eta);
        s0 += w;
        for (let a = 0; a < p; a++) {
          s1[a] += w * X[j][a];
          for (let c = 0; c <= a; c++) s2[a][c] += w * X[j][a] * X[j][c];
        }
        if (D[j]) {
          d++;
          etaSum += eta;
          for (let a = 0; a < p; a++) xsum[a] += X[j][a];
        }
        j++;
      }
      if (d > 0) {
        ll += etaSum - d * Math.log(s0);
        for (let a = 0; a < p; a++) {
          U[a] += xsum[a] - (d * s1[a]) / s0;
          for (let c = 0; c <= a; c++) I[a][c] += d * (s2[a][c] / s0 - (s1[a] * s1[c]) / (s0 * s0));
        }
      }
      i = j;
    }
    for (let a = 0; a < p; a++) for (let c = 0; c < a; c++) I[c][a] = I[a][c];
    return { ll, U, I };
  };

  let b = new Array<number>(p).fill(0);
  let cur = evaluate(b);
  const llNull = cur.ll;
  let iterations = 0;
  for (; iterations < 100; iterations++) {
    let step: number[];
    try {
      step = inverse(new Matrix(cur.I)).mmul(Matrix.columnVector(cur.U)).to1DArray();
    } catch {
      throw new Error('fitCox: the information matrix is singular (collinear covariates)');
    }
    let scale = 1;
    let next = b.map((v, k) => v + step[k]);
    let ev = evaluate(next);
    while (!(ev.ll >= cur.ll - 1e-12 * Math.abs(cur.ll)) && scale > 1e-6) {
      scale /= 2;
      next = b.map((v, k) => v + scale * step[k]);
      ev = evaluate(next);
    }
    const change = Math.abs(ev.ll - cur.ll);
    b = next;
    cur = ev;
    if (change <= 1e-10 * Math.max(1, Math.abs(cur.ll)) && step.every((s) => Math.abs(s * scale) < 1e-9 * Math.max(1, ...b.map(Math.abs)))) break;
  }
  if (b.some((v) => !Number.isFinite(v) || Math.abs(v) > 50)) throw new Error('fitCox: the estimate diverges (monotone likelihood: a covariate separates solved from censored)');
  const Iinv = inverse(new Matrix(cur.I));

  // Score residuals (Breslow), in the sorted order: r_i = d_i (x_i - xbar(t_i)) - sum_{event times t_k <= t_i} w_i (x_i - xbar(t_k)) dN_k / S0(t_k).
  const eta = X.map((x) => x.reduce((s, v, k) => s + v * b[k], 0));
  const w = eta.map(Math.exp);
  // Risk-set sums at each distinct time (descending order accumulation), then the hazard increments in ascending time.
  const groups: { start: number; end: number; s0: number; s1: number[]; d: number }[] = [];
  {
    let s0 = 0;
    const s1 = new Array<number>(p).fill(0);
    let i = 0;
    while (i < n) {
      let j = i, d = 0;
      while (j < n && T[j] === T[i]) {
        s0 += w[j];
        for (let a = 0; a < p; a++) s1[a] += w[j] * X[j][a];
        if (D[j]) d++;
        j++;
      }
      groups.push({ start: i, end: j, s0, s1: s1.slice(), d });
      i = j;
    }
  }
  // Ascending time: cumulative hazard increments dL = d / s0 and dL * xbar.
  const resid = X.map(() => new Array<number>(p).fill(0));
  let cumH = 0;
  const cumHx = new Array<number>(p).fill(0);
  for (let g = groups.length - 1; g >= 0; g--) {
    const G = groups[g];
    if (G.d > 0) {
      const dL = G.d / G.s0;
      cumH += dL;
      for (let a = 0; a < p; a++) cumHx[a] += (dL * G.s1[a]) / G.s0;
    }
    for (let i = G.start; i < G.end; i++)
      for (let a = 0; a < p; a++) {
        const xbar = G.s1[a] / G.s0;
        resid[i][a] = (D[i] ? X[i][a] - xbar : 0) - w[i] * (X[i][a] * cumH - cumHx[a]);
      }
  }
  const clusterOf = order.map((i, k) => rows[i].cluster ?? `\u0000row${k}`);
  const sums = new Map<string, number[]>();
  resid.forEach((r, k) => {
    let s = sums.get(clusterOf[k]);
    if (!s) sums.set(clusterOf[k], (s = new Array<number>(p).fill(0)));
    for (let a = 0; a < p; a++) s[a] += r[a];
  });
  const meat = new Matrix(p, p);
  for (const s of sums.values()) for (let a = 0; a < p; a++) for (let c = 0; c < p; c++) meat.set(a, c, meat.get(a, c) + s[a] * s[c]);
  const robust = Iinv.mmul(meat).mmul(Iinv);
  const terms: CoxTerm[] = b.map((coef, k) => {
    const se = Math.sqrt(Iinv.get(k, k));
    const rse = Math.sqrt(robust.get(k, k));
    const z = coef / rse;
    return { term: names?.[k] ?? `x${k + 1}`, coef, hazard_ratio: Math.exp(coef), se, robust_se: rse, z, p: normalP(z) };
  });
  return { terms, n, events, clusters: sums.size, logLikelihood: cur.ll, logLikelihoodNull: llNull, iterations };
}

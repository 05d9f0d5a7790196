// One-dimensional Gaussian mixtures by EM (for log gap lengths), BIC model choice and the pause threshold.
//
// EM alternates the posterior membership of each point (E-step) with the weighted weight, mean
// and variance of each component (M-step); each round cannot lower the likelihood, so it climbs
// to a local maximum. Which maximum depends on the start, so we start from k-means (k-means++
// seeding, then Lloyd's iterations) several times with one seeded generator and keep the best
// likelihood. A tiny constant (reg_covar, 1e-6 as in scikit-learn) is added to every variance so
// that a component cannot collapse onto one repeated value; the likelihood is therefore that of
// a slightly regularised fit. By default the starts are screened (SQUAREM-accelerated EM until the
// mean log-likelihood changes by less than 1e-5, at most 300 steps), the best is run on until the
// TOTAL log-likelihood changes by less than `tol` (1e-3, or 1e-8 per value when that is larger; at
// most 3000 EM steps), and then polished
// by Newton's method on the EM map's fixed point: with F the EM map, solve F(t) - t = 0, the
// Jacobian of F by central differences (3k parameters: at most a few dozen EM steps per Newton
// step). Why: where components overlap the likelihood has a flat ridge along which EM, even
// accelerated, creeps; any stopping rule on the likelihood then stops short, and the flattest
// parameters are off by up to ~1e-3 relative although the likelihood is within 1e-6. The fixed point
// is the optimum EM (and scikit-learn with tol -> 0) converges to; Newton reaches it to rounding in
// two or three steps. A Newton step is kept only if it stays in the parameter space, lowers the
// residual and does not lower the likelihood by more than 1e-3 + 1e-10 |log L| (the regularised fixed
// point lies a hair below the likelihood's maximum; a larger fall would mean another stationary
// point); `residual` reports max |F(t) - t| / max(1, |t|) at the end. compat: 'sklearn' reproduces
// sklearn.mixture.GaussianMixture's defaults instead: one k-means start, stop when the mean
// log-likelihood changes by less than 1e-3, the last M-step's parameters reported. Its k-means
// cannot replay NumPy's random stream, so to reproduce a given sklearn fit pass the centres its
// KMeans found (initCenters): the labels, hence the whole EM path, are then the same.
//
// BIC = -2 log L + (3k - 1) ln n (k weights summing to 1, k means, k variances). The pause
// threshold is where the weighted densities of the two slowest components of a three-component
// fit (components 2 and 3 sorted by mean) are equal, between their means: w2 N(x; m2, v2) =
// w3 N(x; m3, v3) is a quadratic in x. If neither root lies between the means (one component
// dominates the whole interval) there is no threshold (null). Values must be the natural log of
// gap lengths in seconds for threshold_s = exp(x) to be in seconds; use logGaps() to get them.
import { Matrix, solve } from 'ml-matrix';
import { createRng, type Rng } from '../../shared/random.ts';

export interface GmmComponent {
  weight: number;
  mean: number;
  variance: number;
}

export interface GmmFit {
  n: number;
  components: GmmComponent[];
  logLikelihood: number;
  bic: number;
  /** EM steps (SQUAREM's included) before the Newton polish. */
  iterations: number;
  converged: boolean;
  /** Newton steps taken on the EM fixed point (0 with compat 'sklearn'). */
  newtonSteps?: number;
  /** max |F(t) - t| / max(1, |t|) over the parameters at the end (F: one EM step); ~1e-15 at the optimum. */
  residual?: number;
}

export interface GmmOptions {
  components: number;
  seed?: number;
  /** Number of seeded k-means starts (default 5; 1 with compat 'sklearn'). */
  starts?: number;
  compat?: 'sklearn';
  /** Start from k-means labels for these centres (as sklearn's KMeans cluster_centers_). */
  initCenters?: number[];
  tol?: number;
  maxIterations?: number;
  regCovar?: number;
  /** Newton polish of the EM fixed point after the likelihood tolerance (default true; never with compat 'sklearn'). */
  polish?: boolean;
}

/** Natural logs of the positive, finite gaps (seconds); the rest are dropped and counted. */
export function logGaps(gapsSeconds: readonly number[]): { values: number[]; dropped: number } {
  const values: number[] = [];
  let dropped = 0;
  for (const g of gapsSeconds) {
    if (Number.isFinite(g) && g > 0) values.push(Math.log(g)); else dropped++;
  }
  return { values, dropped };
}

const LOG_2PI = Math.log(2 * Math.PI);

/**
 * k-means++ seeding (D^2 sampling) followed by Lloyd's iterations; returns the final centres.
 * Weighted: value x[i] stands for cnt[i] equal observations (all 1 when cnt is omitted).
 */
export function kmeans1d(x: Float64Array, k: number, rng: Rng, cnt?: Float64Array, maxIterations = 300): number[] {
  const n = x.length;
  const w = cnt ?? new Float64Array(n).fill(1);
  const pick = (score: Float64Array | null): number => {
    let total = 0;
    for (let i = 0; i < n; i++) total += w[i] * (score ? score[i] : 1);
    if (!(total > 0)) return rng.int(n);
    let target = rng.next() * total;
    for (let i = 0; i < n; i++) { target -= w[i] * (score ? score[i] : 1); if (target < 0) return i; }
    return n - 1;
  };
  const centers: number[] = [x[pick(null)]];
  const d2 = new Float64Array(n);
  for (let i = 0; i < n; i++) d2[i] = (x[i] - centers[0]) ** 2;
  while (centers.length < k) {
    const c = x[pick(d2)];
    centers.push(c);
    for (let i = 0; i < n; i++) { const d = (x[i] - c) ** 2; if (d < d2[i]) d2[i] = d; }
  }
  const sums = new Float64Array(k), counts = new Float64Array(k);
  for (let iter = 0; iter < maxIterations; iter++) {
    sums.fill(0); counts.fill(0);
    const labels = labelsFor(x, centers);
    for (let i = 0; i < n; i++) { sums[labels[i]] += w[i] * x[i]; counts[labels[i]] += w[i]; }
    let moved = 0;
    for (let c = 0; c < k; c++) {
      if (counts[c] === 0) continue;
      const next = sums[c] / counts[c];
      moved = Math.max(moved, Math.abs(next - centers[c]));
      centers[c] = next;
    }
    if (moved === 0) break;
  }
  return centers;
}

function labelsFor(x: Float64Array, centers: readonly number[]): Uint8Array {
  const labels = new Uint8Array(x.length);
  const k = centers.length;
  for (let i = 0; i < x.length; i++) {
    let best = 0, bestD = Infinity;
    for (let c = 0; c < k; c++) { const d = (x[i] - centers[c]) ** 2; if (d < bestD) { bestD = d; best = c; } }
    labels[i] = best;
  }
  return labels;
}

interface EmState { w: Float64Array; m: Float64Array; v: Float64Array }

/**
 * The distinct values and how often each occurs. Gaps come from millisecond timestamps, so a
 * million gaps hold far fewer distinct values; EM over (value, count) pairs is the same EM.
 */
function distinctWithCounts(values: readonly number[]): { x: Float64Array; cnt: Float64Array } {
  const sorted = Float64Array.from(values).sort();
  let d = 0;
  const x = new Float64Array(sorted.length), cnt = new Float64Array(sorted.length);
  for (let i = 0; i < sorted.length; i++) {
    if (d > 0 && sorted[i] === x[d - 1]) cnt[d - 1]++;
    else { x[d] = sorted[i]; cnt[d] = 1; d++; }
  }
  return { x: x.slice(0, d), cnt: cnt.slice(0, d) };
}

/** Weights, means and variances from hard labels (sklearn's _initialize with one-hot responsibilities). */
function fromLabels(x: Float64Array, cnt: Float64Array, total: number, labels: Uint8Array, k: number, reg: number): EmState {
  const n = total;
  const nk = new Float64Array(k), m = new Float64Array(k), v = new Float64Array(k);
  for (let i = 0; i < x.length; i++) { nk[labels[i]] += cnt[i]; m[labels[i]] += cnt[i] * x[i]; }
  for (let c = 0; c < k; c++) { nk[c] += 10 * Number.EPSILON; m[c] /= nk[c]; }
  for (let i = 0; i < x.length; i++) v[labels[i]] += cnt[i] * (x[i] - m[labels[i]]) ** 2;
  for (let c = 0; c < k; c++) v[c] = v[c] / nk[c] + reg;
  const w = nk.map((q) => q / n);
  return { w, m, v };
}

/** Weighted data: distinct values, their counts, the total count and a responsibilities buffer. */
interface EmData { x: Float64Array; cnt: Float64Array; n: number; resp: Float64Array; reg: number }

/** One EM step: the mean log-likelihood of `s` (E-step) and the parameters after the M-step. */
function emStep(d: EmData, s: EmState): { next: EmState; meanLl: number } {
  const { x, cnt, n, resp, reg } = d;
  const k = s.w.length, distinct = x.length;
  const { w, m, v } = s;
  const nk = new Float64Array(k), sx = new Float64Array(k), sxx = new Float64Array(k);
  const logp = new Float64Array(k), r = new Float64Array(k);
  const consts = new Float64Array(k), inv = new Float64Array(k);
  for (let c = 0; c < k; c++) { consts[c] = Math.log(w[c]) - 0.5 * (LOG_2PI + Math.log(v[c])); inv[c] = 0.5 / v[c]; }
  let ll = 0;
  for (let i = 0; i < distinct; i++) {
    const xi = x[i], wi = cnt[i];
    let max = -Infinity, top = -1;
    for (let c = 0; c < k; c++) { const dd = xi - m[c]; logp[c] = consts[c] - dd * dd * inv[c]; if (logp[c] > max) { max = logp[c]; top = c; } }
    // exp(logp - max) is exactly 1 for the largest term: one exp fewer per value, the same sums bit for bit
    let sum = 0;
    for (let c = 0; c < k; c++) { r[c] = c === top ? 1 : Math.exp(logp[c] - max); sum += r[c]; }
    ll += wi * (max + Math.log(sum));
    const base = i * k;
    for (let c = 0; c < k; c++) { const q = (wi * r[c]) / sum; resp[base + c] = q; nk[c] += q; sx[c] += q * xi; }
  }
  // M-step (two passes for the variance, as sklearn does, for accuracy).
  const m2 = new Float64Array(k), v2 = new Float64Array(k);
  for (let c = 0; c < k; c++) { nk[c] += 10 * Number.EPSILON; m2[c] = sx[c] / nk[c]; }
  for (let i = 0; i < distinct; i++) {
    const base = i * k, xi = x[i];
    for (let c = 0; c < k; c++) { const dd = xi - m2[c]; sxx[c] += resp[base + c] * dd * dd; }
  }
  for (let c = 0; c < k; c++) v2[c] = sxx[c] / nk[c] + reg;
  return { next: { w: nk.map((q) => q / n), m: m2, v: v2 }, meanLl: ll / n };
}

interface EmRun { state: EmState; iterations: number; converged: boolean }

/**
 * Plain EM in sklearn's order: E-step (mean log-likelihood of the current parameters), M-step,
 * stop when that mean log-likelihood moved by less than tol; the last M-step's parameters.
 */
function runEm(d: EmData, start: EmState, tol: number, maxIterations: number): EmRun {
  let state = start, lower = -Infinity;
  for (let it = 1; it <= maxIterations; it++) {
    const { next, meanLl } = emStep(d, state);
    state = next;
    const change = meanLl - lower;
    lower = meanLl;
    if (Math.abs(change) < tol) return { state, iterations: it, converged: true };
  }
  return { state, iterations: maxIterations, converged: false };
}

/**
 * EM accelerated by SQUAREM (Varadhan & Roland 2008, scheme S3): from two EM steps r = F(t) - t,
 * u = F(F(t)) - 2F(t) + t extrapolate t - 2a r + a^2 u with a = -|r|/|u| and finish with one EM
 * step; if that lowers the likelihood or leaves the parameter space, keep the plain double step.
 * Same fixed points as EM, far fewer steps when components overlap (where EM crawls).
 */
function runSquarem(d: EmData, start: EmState, tol: number, maxIterations: number): EmRun {
  const pack = (s: EmState) => [...s.w, ...s.m, ...s.v];
  const k = start.w.length;
  const unpack = (p: number[]): EmState | null => {
    const w = Float64Array.from(p.slice(0, k)), m = Float64Array.from(p.slice(k, 2 * k)), v = Float64Array.from(p.slice(2 * k));
    if (w.some((q) => !(q > 0)) || v.some((q) => !(q > 0)) || m.some((q) => !Number.isFinite(q))) return null;
    const total = w.reduce((s, q) => s + q, 0);
    return { w: w.map((q) => q / total), m, v };
  };
  let state = start, lower = -Infinity, steps = 0;
  while (steps < maxIterations) {
    const one = emStep(d, state);
    const two = emStep(d, one.next);
    steps += 2;
    const change = one.meanLl - lower;
    lower = one.meanLl;
    if (Math.abs(change) < tol) return { state: one.next, iterations: steps, converged: true };
    const t0 = pack(state), t1 = pack(one.next), t2 = pack(two.next);
    const r = t1.map((q, i) => q - t0[i]);
    const u = t2.map((q, i) => q - 2 * t1[i] + t0[i]);
    const rn = Math.hypot(...r), un = Math.hypot(...u);
    let next = two.next;
    if (un > 0) {
      const alpha = Math.min(-1, -rn / un);
      const proposal = alpha === -1 ? null : unpack(t0.map((q, i) => q - 2 * alpha * r[i] + alpha * alpha * u[i]));
      if (proposal) {
        const three = emStep(d, proposal);
        steps++;
        if (three.meanLl >= two.meanLl - 1e-12 && unpack(pack(three.next))) next = three.next;
      }
    }
    state = next;
  }
  return { state, iterations: steps, converged: false };
}

function logLikelihood(x: Float64Array, cnt: Float64Array, s: EmState): number {
  const k = s.w.length;
  const consts = new Float64Array(k), inv = new Float64Array(k);
  for (let c = 0; c < k; c++) { consts[c] = Math.log(s.w[c]) - 0.5 * (LOG_2PI + Math.log(s.v[c])); inv[c] = 0.5 / s.v[c]; }
  let total = 0;
  const lp = new Float64Array(k);
  for (let i = 0; i < x.length; i++) {
    let max = -Infinity, top = -1;
    for (let c = 0; c < k; c++) { const d = x[i] - s.m[c]; lp[c] = consts[c] - d * d * inv[c]; if (lp[c] > max) { max = lp[c]; top = c; } }
    let sum = 0;
    for (let c = 0; c < k; c++) sum += c === top ? 1 : Math.exp(lp[c] - max);
    total += cnt[i] * (max + Math.log(sum));
  }
  return total;
}

/** Data as its distinct values (ascending) and how often each occurs: what EM actually runs on. */
export interface WeightedValues {
  x: Float64Array;
  cnt: Float64Array;
}

function checkFinite(values: readonly number[]): void {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) throw new Error(`value ${i} is not a finite number (${values[i]})`);
}

function asWeighted(values: readonly number[] | WeightedValues): WeightedValues {
  if (!Array.isArray(values)) return values as WeightedValues;
  checkFinite(values as readonly number[]);
  return distinctWithCounts(values as readonly number[]);
}

/**
 * The natural logs of positive gaps (seconds) as distinct values with counts, without building the
 * million-entry list: equal gaps are counted (a hash map: gaps are rounded to the millisecond, so a
 * million of them hold a few tens of thousands of values), only the distinct ones are sorted and
 * logged (log is increasing, so the order holds; values whose logs coincide are merged). Same data as
 * logGaps() followed by the counting fitGmm does itself.
 */
export function distinctLogGaps(gapsSeconds: ArrayLike<number>): WeightedValues & { n: number; dropped: number } {
  const counts = new Map<number, number>();
  let dropped = 0, n = 0;
  for (let i = 0; i < gapsSeconds.length; i++) {
    const g = gapsSeconds[i];
    if (!(Number.isFinite(g) && g > 0)) { dropped++; continue; }
    n++;
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  const sorted = Float64Array.from(counts.keys()).sort();
  const x = new Float64Array(sorted.length), cnt = new Float64Array(sorted.length);
  let d = 0;
  for (let i = 0; i < sorted.length; i++) {
    const c = counts.get(sorted[i])!;
    const v = Math.log(sorted[i]);
    if (d > 0 && v === x[d - 1]) cnt[d - 1] += c;
    else { x[d] = v; cnt[d] = c; d++; }
  }
  return { x: x.slice(0, d), cnt: cnt.slice(0, d), n, dropped };
}

export function fitGmm(values: readonly number[] | WeightedValues, options: GmmOptions): GmmFit {
  const plan = gmmPlan(values, options);
  return gmmFinish(plan, plan.inits.map((init) => gmmScreen(plan, init)));
}

/** A start's parameters (weights, means, variances), as screened by gmmScreen. */
export interface GmmStart { w: Float64Array; m: Float64Array; v: Float64Array }

/** One screened start: its parameters after screening, the EM steps taken, whether it met the screening tolerance, its log-likelihood. */
export interface GmmScreened { state: GmmStart; iterations: number; converged: boolean; ll: number }

/** A fit's data, settings and k-means starts (the seeded generator drawn in start order, so the starts do not depend on where they are screened). */
export interface GmmPlan {
  readonly inits: readonly GmmStart[];
}
interface Plan extends GmmPlan {
  k: number;
  data: EmData;
  sklearn: boolean;
  polish: boolean;
  tol: number;
  maxIterations: number;
  screenTol: number;
  screenIterations: number;
}

/**
 * fitGmm in three steps, so that the screened starts can run on several threads: gmmPlan (the data, the settings and
 * every start), gmmScreen for each start (anywhere: a plan made from the same values and options on another thread has
 * the same starts), gmmFinish with the screened starts in start order. The result equals fitGmm's bit for bit.
 */
export function gmmPlan(values: readonly number[] | WeightedValues, options: GmmOptions): GmmPlan {
  const k = options.components;
  if (!Number.isInteger(k) || k < 1 || k > 255) throw new Error(`the number of components must be an integer in 1..255, got ${k}`);
  const { x, cnt } = asWeighted(values);
  let n = 0;
  for (let i = 0; i < cnt.length; i++) n += cnt[i];
  if (n < 2 * k) throw new Error(`${n} usable value(s) are too few for ${k} components (at least ${2 * k} needed)`);
  const sklearn = options.compat === 'sklearn';
  // sklearn: tol on the mean log-likelihood (its rule); default: tol on the total log-likelihood.
  // (never stricter than 1e-8 per value by default: on a million gaps EM would crawl along a ridge for nothing,
  // since the Newton polish takes it from there)
  const tol = sklearn ? options.tol ?? 1e-3 : (options.tol ?? Math.max(1e-3, 1e-8 * n)) / n;
  const maxIterations = options.maxIterations ?? (sklearn ? 100 : 3000);
  const reg = options.regCovar ?? 1e-6;
  const rng = createRng(options.seed ?? 0);
  const starts = options.initCenters ? 1 : options.starts ?? (sklearn ? 1 : 5);
  if (options.initCenters && options.initCenters.length !== k) throw new Error(`--init-centers has ${options.initCenters.length} centres for ${k} components`);
  const data: EmData = { x, cnt, n, resp: new Float64Array(x.length * k), reg };
  const inits: EmState[] = [];
  for (let s = 0; s < starts; s++) {
    const centers = options.initCenters ? options.initCenters.slice() : kmeans1d(x, k, rng, cnt);
    inits.push(fromLabels(x, cnt, n, labelsFor(x, centers), k, reg));
  }
  // Several starts are screened at a loose tolerance; only the best is then run to `tol`.
  const screenTol = starts > 1 ? Math.max(tol, 1e-5) : tol;
  const screenIterations = starts > 1 ? Math.min(maxIterations, 300) : maxIterations;
  const plan: Plan = { inits, k, data, sklearn, polish: !sklearn && options.polish !== false, tol, maxIterations, screenTol, screenIterations };
  return plan;
}

/** Screen one start of the plan (EM, SQUAREM-accelerated unless sklearn, to the screening tolerance). */
export function gmmScreen(planIn: GmmPlan, init: GmmStart): GmmScreened {
  const plan = planIn as Plan;
  const run = (plan.sklearn ? runEm : runSquarem)(plan.data, init, plan.screenTol, plan.screenIterations);
  return { ...run, ll: logLikelihood(plan.data.x, plan.data.cnt, run.state) };
}

/** The best screened start (the first of the highest log-likelihood), run on to the tolerance and polished: the fit. */
export function gmmFinish(planIn: GmmPlan, screened: readonly GmmScreened[]): GmmFit {
  const plan = planIn as Plan;
  const { k, data, tol } = plan;
  const { x, cnt, n } = data;
  if (screened.length !== plan.inits.length) throw new Error(`gmmFinish: ${screened.length} screened starts for ${plan.inits.length}`);
  let best: GmmScreened | null = null;
  for (const run of screened) if (!best || run.ll > best.ll) best = run;
  if (plan.screenTol !== tol) {
    const run = (plan.sklearn ? runEm : runSquarem)(data, best!.state, tol, plan.maxIterations);
    best = { ...run, iterations: best!.iterations + run.iterations, ll: logLikelihood(x, cnt, run.state) };
  }
  let { state, iterations, converged, ll } = best!;
  let newtonSteps = 0;
  let residual = fixedPointResidual(data, state);
  if (plan.polish) {
    const polished = polishNewton(data, state, ll);
    if (polished.steps > 0) {
      state = polished.state;
      ll = polished.ll;
      newtonSteps = polished.steps;
    }
    residual = polished.residual;
    converged = converged || residual < 1e-10;
  }
  const components = Array.from(state.w, (w, c) => ({ weight: w, mean: state.m[c], variance: state.v[c] }))
    .sort((a, b) => a.mean - b.mean);
  return { n, components, logLikelihood: ll, bic: -2 * ll + (3 * k - 1) * Math.log(n), iterations, converged, newtonSteps, residual };
}

const packState = (s: EmState): Float64Array => Float64Array.from([...s.w, ...s.m, ...s.v]);
function unpackState(t: Float64Array, k: number): EmState | null {
  const w = t.slice(0, k), m = t.slice(k, 2 * k), v = t.slice(2 * k);
  if (w.some((q) => !(q > 0)) || v.some((q) => !(q > 0)) || m.some((q) => !Number.isFinite(q))) return null;
  return { w, m, v };
}

/** max |F(t) - t| / max(1, |t|) over the parameters (F: one EM step). */
function fixedPointResidual(d: EmData, s: EmState): number {
  const t = packState(s), f = packState(emStep(d, s).next);
  let r = 0;
  for (let i = 0; i < t.length; i++) r = Math.max(r, Math.abs(f[i] - t[i]) / Math.max(1, Math.abs(t[i])));
  return r;
}

/**
 * Newton's method on G(t) = F(t) - t = 0 (F: one EM step, t = weights, means, variances), the Jacobian of F by
 * central differences with steps of 1e-6 relative. Stops when the residual is at rounding level (1e-14), when a
 * step would leave the parameter space or lower the likelihood by more than rounding, or after maxSteps.
 */
function polishNewton(d: EmData, start: EmState, startLl: number, maxSteps = 12): { state: EmState; ll: number; steps: number; residual: number } {
  const k = start.w.length, p = 3 * k;
  let state = start, ll = startLl, steps = 0, slow = 0;
  let residual = fixedPointResidual(d, state);
  const F = (t: Float64Array): Float64Array | null => {
    const s = unpackState(t, k);
    return s ? packState(emStep(d, s).next) : null;
  };
  while (steps < maxSteps && residual > 1e-14) {
    const t = packState(state);
    const f0 = F(t)!;
    const J = new Matrix(p, p);
    for (let j = 0; j < p; j++) {
      const h = 1e-6 * Math.max(Math.abs(t[j]), 1e-3);
      const up = t.slice(), down = t.slice();
      up[j] += h;
      down[j] -= h;
      const fu = F(up), fd = F(down);
      if (!fu || !fd) return { state, ll, steps, residual };
      for (let i = 0; i < p; i++) J.set(i, j, (fu[i] - fd[i]) / (2 * h) - (i === j ? 1 : 0));
    }
    let delta: Matrix;
    try {
      delta = solve(J, Matrix.columnVector(Array.from(t, (q, i) => q - f0[i])));
    } catch {
      break;
    }
    // Damped: halve the step until it lowers the residual (far from the fixed point a full step can overshoot).
    let accepted: { next: EmState; nextLl: number; nextResidual: number } | null = null;
    for (let scale = 1; scale >= 1 / 64 && !accepted; scale /= 2) {
      const next = unpackState(Float64Array.from(t, (q, i) => q + scale * delta.get(i, 0)), k);
      if (!next || next.m.some((q, i) => i > 0 && q === next.m[i - 1])) continue;
      const nextLl = logLikelihood(d.x, d.cnt, next);
      // The fixed point of the regularised EM map sits a hair below the likelihood's own maximum (reg_covar), so
      // the likelihood may fall by that much (~1e-4 on a million gaps); a larger fall means another stationary point.
      if (!(nextLl >= ll - (1e-3 + 1e-10 * Math.abs(ll)))) continue;
      const nextResidual = fixedPointResidual(d, next);
      if (nextResidual < residual) accepted = { next, nextLl, nextResidual };
    }
    if (!accepted) break;
    const { next, nextLl, nextResidual } = accepted;
    // Newton near a fixed point divides the residual by far more than 2 a step; twice less means there is no
    // interior fixed point nearby (an over-specified k drifting along a ridge): stop paying for Jacobians.
    if (nextResidual > residual / 2) slow++;
    state = next;
    ll = nextLl;
    residual = nextResidual;
    steps++;
    if (slow >= 2) break;
  }
  return { state, ll, steps, residual };
}

/**
 * Where the weighted densities of components a and b (0-based, sorted by mean; default: the two
 * slowest of the fit, i.e. 2 and 3 of a three-component fit) are equal between their means, in
 * the units of the fitted values (log seconds). Null if there is no crossing there or k < 2.
 */
export function crossingPoint(fit: GmmFit, a?: number, b?: number): number | null {
  const k = fit.components.length;
  if (k < 2) return null;
  const i = a ?? (k >= 3 ? 1 : 0), j = b ?? i + 1;
  const p = fit.components[i], q = fit.components[j];
  // log w - log(v)/2 - (x - m)^2 / (2v), difference as A x^2 + B x + C = 0
  const A = 1 / (2 * q.variance) - 1 / (2 * p.variance);
  const B = p.mean / p.variance - q.mean / q.variance;
  const C = Math.log(p.weight) - Math.log(q.weight) - 0.5 * Math.log(p.variance / q.variance)
    - (p.mean * p.mean) / (2 * p.variance) + (q.mean * q.mean) / (2 * q.variance);
  const lo = Math.min(p.mean, q.mean), hi = Math.max(p.mean, q.mean);
  const roots: number[] = [];
  if (Math.abs(A) < 1e-14 * (Math.abs(B) + 1)) { if (B !== 0) roots.push(-C / B); } else {
    const disc = B * B - 4 * A * C;
    if (disc >= 0) {
      const s = Math.sqrt(disc);
      const r1 = (-B - Math.sign(B || 1) * s) / (2 * A);
      roots.push(r1, r1 !== 0 ? C / (A * r1) : (-B + s) / (2 * A));
    }
  }
  const inside = roots.filter((r) => r >= lo && r <= hi).sort((u, v) => Math.abs(u - (lo + hi) / 2) - Math.abs(v - (lo + hi) / 2));
  return inside.length ? inside[0] : null;
}

/** The pause threshold in seconds (exp of the crossing point of components 2 and 3 of a log-gap fit). */
export function pauseThreshold(fit: GmmFit): number | null {
  const x = crossingPoint(fit);
  return x === null ? null : Math.exp(x);
}

export interface GmmSelection {
  n: number;
  /** The number of components with the lowest BIC. */
  best_components: number;
  /** The reported fit (fixed `components` if given, else the BIC choice). */
  fit: GmmFit;
  components: GmmComponent[];
  threshold_s: number | null;
  bic: Record<string, number>;
  /** BIC of one component minus BIC of the reported fit (positive: the mixture is better). */
  delta_bic: number;
  fits: GmmFit[];
}

/** Fits 1..maxComponents components, reports BIC for each, ΔBIC against one component and the threshold. */
export function gmmSelect(values: readonly number[] | WeightedValues, options: { maxComponents?: number; seed?: number; components?: number; starts?: number; compat?: 'sklearn'; onProgress?: (done: number, total: number) => void } = {}): GmmSelection {
  const max = options.maxComponents ?? 4;
  if (options.components !== undefined && options.components > max) throw new Error(`gmmSelect: components ${options.components} is more than maxComponents ${max}`);
  const fits: GmmFit[] = [];
  const weighted = asWeighted(values);
  for (let k = 1; k <= max; k++) {
    fits.push(fitGmm(weighted, { components: k, seed: options.seed, starts: options.starts, compat: options.compat }));
    options.onProgress?.(k, max);
  }
  return gmmSelectFromFits(fits, options.components);
}

/**
 * The selection from fits of 1..fits.length components (fits[k - 1] has k components), e.g. fitted
 * on several threads: each fitGmm(values, { components: k, seed }) is independent of the others.
 */
export function gmmSelectFromFits(fits: readonly GmmFit[], components?: number): GmmSelection {
  const max = fits.length;
  fits.forEach((f, i) => { if (f.components.length !== i + 1) throw new Error(`gmmSelectFromFits: fit ${i} has ${f.components.length} components, expected ${i + 1}`); });
  const options = { components };
  const bic: Record<string, number> = {};
  fits.forEach((f, i) => (bic[String(i + 1)] = f.bic));
  let best = 0;
  fits.forEach((f, i) => { if (f.bic < fits[best].bic) best = i; });
  const chosen = options.components ?? best + 1;
  if (chosen < 1 || chosen > max) throw new Error(`gmmSelect: components ${chosen} outside 1..${max}`);
  const fit = fits[chosen - 1];
  return {
    n: fit.n,
    best_components: best + 1,
    fit,
    components: fit.components,
    threshold_s: pauseThreshold(fit),
    bic,
    delta_bic: fits[0].bic - fit.bic,
    fits: [...fits],
  };
}

// `nonolab plan`: how many puzzles (and participants) a study needs to tell two measures apart, by simulation from the fitted model (issue 36).
/*
 * The model is the one the study fitted for measure a (measures.csv, the paper's Table 2 per measure):
 *   rating = round(b0 + b_a·z_a + b_e·e + b_ae·z_a·e + u_participant + v_puzzle + ε), clamped to 1..scale,
 * with u, v, ε normal with the fitted variances, e drawn from the study's expertise composites (participants.csv),
 * and z_a measure a standardised over the simulated study's puzzles (as analyze standardises it). Each simulated study
 * draws its puzzles from the candidate pool without replacement and has each participant rate `perParticipant` of
 * them (all by default), then does what the comparison does: Spearman's rho of each measure with the puzzles' mean
 * rating and a 95 % percentile bootstrap interval over participants. The two measures are told apart when the
 * intervals do not overlap; the power is the share of simulated studies that tell them apart, with its Wilson 95 %
 * interval. Everything is a function of the seed.
 */
import type { Puzzle } from '../shared/schema/puzzle.ts';
import { createRng, type Rng } from '../shared/random.ts';
import { averageRanks, pearson } from './stats/spearman.ts';
import { metricOf, metricValueOf } from './metric.ts';
import { quantile7, withEveryEncoding } from './pipeline/measures.ts';

export interface PlanModel {
  intercept: number;
  measure: number;
  expertise: number;
  interaction: number;
  var_participant: number;
  var_puzzle: number;
  var_residual: number;
}

export interface PlanOptions {
  /** The two measures: a drives the simulated ratings (the fitted model), b is the rival. */
  measures: [string, string];
  model: PlanModel;
  /** The study's expertise composites, drawn with replacement for the simulated participants. */
  expertise: readonly number[];
  /** The pool the simulated studies draw their puzzles from (with both measures). */
  candidates: readonly Puzzle[];
  puzzles: readonly number[];
  participants: number;
  perParticipant?: number;
  scale?: number;
  reps?: number;
  boot?: number;
  seed?: number;
}

export interface PlanRow {
  puzzles: number;
  participants: number;
  reps: number;
  /** Studies whose intervals for a and b do not overlap. */
  separated: number;
  power: number;
  ci_low: number;
  ci_high: number;
  /** Studies in which a's rho was the larger. */
  a_ahead: number;
}

export class PlanError extends Error {}

function normal(rng: Rng): number {
  let u = 0;
  while (u === 0) u = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/** Wilson's 95 % score interval for k successes in n trials. */
export function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959963984540054, p = k / n, d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d, h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [k === 0 ? 0 : Math.max(0, c - h), k === n ? 1 : Math.min(1, c + h)];
}

function rho(x: readonly number[], y: readonly number[]): number {
  return pearson(averageRanks(x), averageRanks(y));
}

const standardise = (v: readonly number[]) => {
  const mu = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = Math.sqrt(v.reduce((s, x) => s + (x - mu) ** 2, 0) / Math.max(1, v.length - 1));
  return v.map((x) => (sd > 0 ? (x - mu) / sd : 0));
};

/** One simulated study: does it tell a from b (intervals apart), and is a ahead? */
function simulateStudy(a: readonly number[], b: readonly number[], o: Required<Pick<PlanOptions, 'participants' | 'scale' | 'boot'>> & { perParticipant: number; model: PlanModel; expertise: readonly number[] }, rng: Rng): { separated: boolean; ahead: boolean } {
  const n = a.length;
  const z = standardise(a);
  const m = o.model;
  const v = z.map(() => Math.sqrt(Math.max(0, m.var_puzzle)) * normal(rng));
  // ratings[p] = list of [puzzle, rating]
  const ratings: [number, number][][] = [];
  for (let p = 0; p < o.participants; p++) {
    const e = o.expertise[rng.int(o.expertise.length)];
    const u = Math.sqrt(Math.max(0, m.var_participant)) * normal(rng);
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    ratings.push(order.slice(0, o.perParticipant).map((j) => {
      const y = m.intercept + m.measure * z[j] + m.expertise * e + m.interaction * z[j] * e + u + v[j] + Math.sqrt(Math.max(0, m.var_residual)) * normal(rng);
      return [j, Math.min(o.scale, Math.max(1, Math.round(y)))];
    }));
  }
  const means = (who: readonly number[]) => {
    const sum = new Array<number>(n).fill(0), cnt = new Array<number>(n).fill(0);
    for (const p of who) for (const [j, r] of ratings[p]) (sum[j] += r), cnt[j]++;
    return sum.map((s, j) => (cnt[j] ? s / cnt[j] : NaN));
  };
  const all = Array.from({ length: o.participants }, (_, i) => i);
  const y0 = means(all);
  const ra = rho(a, y0), rb = rho(b, y0);
  const bootA: number[] = [], bootB: number[] = [];
  for (let r = 0; r < o.boot; r++) {
    const y = means(all.map(() => rng.int(o.participants)));
    if (y.some((x) => !Number.isFinite(x))) continue;
    const x = rho(a, y), w = rho(b, y);
    if (Number.isFinite(x)) bootA.push(x);
    if (Number.isFinite(w)) bootB.push(w);
  }
  bootA.sort((p, q) => p - q);
  bootB.sort((p, q) => p - q);
  const [aLo, aHi] = [quantile7(bootA, 0.025), quantile7(bootA, 0.975)];
  const [bLo, bHi] = [quantile7(bootB, 0.025), quantile7(bootB, 0.975)];
  return { separated: aLo > bHi || bLo > aHi, ahead: ra > rb };
}

/** The power to tell the two measures apart, for each number of puzzles. */
export function planPower(options: PlanOptions): PlanRow[] {
  const [ma, mb] = options.measures.map((m) => metricOf(m));
  const pool = withEveryEncoding(options.candidates).puzzles;
  const values = pool.map((p) => [metricValueOf(p, ma), metricValueOf(p, mb)] as const).filter((x): x is readonly [number, number] => x[0] !== null && x[1] !== null);
  if (values.length < 3) throw new PlanError(`the candidate pool has ${values.length} puzzle(s) with both ${ma.name} and ${mb.name}; at least 3 are needed`);
  if (!options.expertise.length) throw new PlanError('no expertise values to draw participants from');
  const rng = createRng(options.seed ?? 1);
  const reps = options.reps ?? 200;
  const rows: PlanRow[] = [];
  for (const n of options.puzzles) {
    if (!Number.isInteger(n) || n < 3 || n > values.length) throw new PlanError(`--puzzles ${n}: between 3 and the pool's ${values.length} puzzles with both measures`);
    const per = Math.min(n, options.perParticipant ?? n);
    let separated = 0, ahead = 0;
    for (let r = 0; r < reps; r++) {
      const idx = Array.from({ length: values.length }, (_, i) => i);
      for (let i = idx.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [idx[i], idx[j]] = [idx[j], idx[i]];
      }
      const chosen = idx.slice(0, n).map((i) => values[i]);
      const s = simulateStudy(chosen.map((x) => x[0]), chosen.map((x) => x[1]), { participants: options.participants, scale: options.scale ?? 5, boot: options.boot ?? 200, perParticipant: per, model: options.model, expertise: options.expertise }, rng);
      if (s.separated) separated++;
      if (s.ahead) ahead++;
    }
    const [lo, hi] = wilson(separated, reps);
    rows.push({ puzzles: n, participants: options.participants, reps, separated, power: separated / reps, ci_low: lo, ci_high: hi, a_ahead: ahead });
  }
  return rows;
}

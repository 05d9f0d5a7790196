// Bradley-Terry scores from pairwise comparisons: Hunter's MM algorithm, ties as half wins or Davidson's tie model.
//
// Model: P(i beats j) = pi_i / (pi_i + pi_j), log-ability lambda_i = log pi_i. Hunter (2004) shows
// that pi_i <- W_i / sum_j n_ij / (pi_i + pi_j) (W_i = i's wins, n_ij = comparisons of i with j)
// increases the likelihood at every step (it maximises a minorising function), so it climbs to
// the unique maximum whenever that exists: when the "beats" graph is strongly connected (for
// every split of the items into two sets, someone in each set beats someone in the other).
// If the graph is not even connected, two groups of items are on incomparable scales; if it is
// connected but not strongly, some abilities run off to infinity. Both are errors here, naming
// the groups. A tie gives half a win to each side (the default) or, with ties: 'davidson',
// P(tie) = nu sqrt(pi_i pi_j) / (pi_i + pi_j + nu sqrt(pi_i pi_j)) (Davidson 1970), fitted by
// Newton's method from the half-win solution.
//
// Log-abilities are reported summing to zero. Their covariance is the Moore-Penrose inverse of
// the Fisher information (singular only along the all-ones direction, the scale's free origin),
// which is exactly the covariance of the centred estimates; the standard error of a difference
// lambda_i - lambda_j (what BradleyTerry2 reports against a reference item) is
// sqrt(cov_ii + cov_jj - 2 cov_ij). Rank 1 is the item with the largest ability (for difficulty
// ratings: the hardest puzzle).
import { inverse, Matrix, pseudoInverse } from 'ml-matrix';
import { z } from 'zod';

export const Comparison = z.object({
  winner: z.string().min(1),
  loser: z.string().min(1),
  weight: z.number().positive().default(1),
  /** When true the comparison was a tie: winner and loser are just its two items. */
  tie: z.boolean().default(false),
});
export type Comparison = z.infer<typeof Comparison>;
export type ComparisonInput = z.input<typeof Comparison>;

export const RatingRow = z.object({
  participant: z.union([z.string(), z.number()]),
  item: z.union([z.string(), z.number()]),
  rating: z.number(),
});
export type RatingRow = z.infer<typeof RatingRow>;

export interface BtItem {
  item: string;
  log_ability: number;
  se: number;
  rank: number;
}

export interface BtResult {
  items: BtItem[];
  /** Covariance of the centred log-abilities, in the order of items. */
  cov: number[][];
  /** Davidson's tie parameter (only with ties: 'davidson'). */
  nu?: number;
  iterations: number;
  log_likelihood: number;
}

export interface BtOptions {
  ties?: 'half' | 'davidson';
  /** Convergence: largest change of any log-ability (default 1e-12). */
  tol?: number;
  maxIterations?: number;
}

/**
 * Within-participant pairs from ratings: for every two items one participant rated, the item with
 * the higher rating wins (for difficulty ratings: is harder); equal ratings are a tie.
 */
/** Log-abilities closer than this share a rank. */
export const RANK_TIE = 1e-9;

export function pairsFromRatings(rows: readonly RatingRow[]): Comparison[] {
  const byParticipant = new Map<string, { item: string; rating: number }[]>();
  rows.forEach((row, i) => {
    if (!Number.isFinite(row.rating)) throw new Error(`rating ${i + 1}: not a number`);
    const key = String(row.participant);
    const list = byParticipant.get(key) ?? [];
    list.push({ item: String(row.item), rating: row.rating });
    byParticipant.set(key, list);
  });
  const pairs: Comparison[] = [];
  for (const list of byParticipant.values()) {
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const x = list[a], y = list[b];
        if (x.item === y.item) continue;
        if (x.rating === y.rating) pairs.push({ winner: x.item, loser: y.item, weight: 1, tie: true });
        else if (x.rating > y.rating) pairs.push({ winner: x.item, loser: y.item, weight: 1, tie: false });
        else pairs.push({ winner: y.item, loser: x.item, weight: 1, tie: false });
      }
    }
  }
  return pairs;
}

interface Tallies {
  items: string[];
  /** wins[i][j]: weight of comparisons i won against j (ties excluded). */
  wins: number[][];
  /** ties[i][j] = ties[j][i]: weight of ties between i and j. */
  ties: number[][];
}

function tally(pairs: readonly ComparisonInput[]): Tallies {
  const parsed = pairs.map((p, i) => {
    const r = Comparison.safeParse(p);
    if (!r.success) throw new Error(`comparison ${i}: ${r.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`);
    if (r.data.winner === r.data.loser) throw new Error(`comparison ${i} compares ${r.data.winner} with itself`);
    return r.data;
  });
  const items = [...new Set(parsed.flatMap((p) => [p.winner, p.loser]))].sort(naturalCompare);
  const index = new Map(items.map((it, i) => [it, i]));
  const k = items.length;
  const wins = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const ties = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const p of parsed) {
    const i = index.get(p.winner)!, j = index.get(p.loser)!;
    if (p.tie) { ties[i][j] += p.weight; ties[j][i] += p.weight; } else wins[i][j] += p.weight;
  }
  return { items, wins, ties };
}

function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/** Strongly connected components of "i beats j (or ties with j)" (Tarjan's algorithm, iterative-free sizes here are tiny). */
function checkConnected({ items, wins, ties }: Tallies): void {
  const k = items.length;
  const adjacent = (i: number, j: number) => wins[i][j] > 0 || wins[j][i] > 0 || ties[i][j] > 0;
  const beats = (i: number, j: number) => wins[i][j] > 0 || ties[i][j] > 0;
  const reach = (start: number, edge: (i: number, j: number) => boolean) => {
    const seen = new Array<boolean>(k).fill(false);
    const stack = [start];
    seen[start] = true;
    while (stack.length) {
      const i = stack.pop()!;
      for (let j = 0; j < k; j++) if (!seen[j] && edge(i, j)) { seen[j] = true; stack.push(j); }
    }
    return seen;
  };
  const comp = reach(0, adjacent);
  if (comp.some((s) => !s)) {
    const a = items.filter((_, i) => comp[i]), b = items.filter((_, i) => !comp[i]);
    throw new Error(`the comparisons do not link every puzzle: the comparison graph is not connected: {${a.join(', ')}} is never compared with {${b.join(', ')}}`);
  }
  for (let i = 0; i < k; i++) {
    const forward = reach(i, beats);
    if (forward.some((s) => !s)) {
      const a = items.filter((_, j) => forward[j]), b = items.filter((_, j) => !forward[j]);
      throw new Error(`no finite strength can be estimated: {${b.join(', ')}} always beat {${a.join(', ')}} (the comparison graph is not strongly connected)`);
    }
  }
}

export function bradleyTerry(pairs: readonly ComparisonInput[], options: BtOptions = {}): BtResult {
  const t = tally(pairs);
  const k = t.items.length;
  if (k < 2) throw new Error(`the comparisons need at least 2 puzzles, got ${k}`);
  checkConnected(t);
  const n = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => t.wins[i][j] + t.wins[j][i] + t.ties[i][j]));
  const { pi, iterations } = hunterMm(t, n, options);
  let lambda = pi.map(Math.log);
  let nu: number | undefined;
  let cov: number[][];
  let logLik: number;
  if ((options.ties ?? 'half') === 'davidson') {
    const fit = fitDavidson(t, lambda);
    lambda = fit.lambda; nu = fit.nu; cov = fit.cov; logLik = fit.logLik;
  } else {
    const info = new Matrix(k, k);
    logLik = 0;
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        if (i === j || n[i][j] === 0) continue;
        const pij = 1 / (1 + Math.exp(lambda[j] - lambda[i]));
        const v = n[i][j] * pij * (1 - pij);
        info.set(i, j, -v);
        info.set(i, i, info.get(i, i) + v);
        logLik += (t.wins[i][j] + 0.5 * t.ties[i][j]) * Math.log(pij);
      }
    }
    cov = pseudoInverse(info).to2DArray();
  }
  // Competition ranking ("1224"): items whose log-abilities agree to 1e-9 share the best rank of their group, so
  // equal scores (e.g. all ratings identical) give tied ranks, not an order that only reflects the input.
  const order = lambda.map((_, i) => i).sort((a, b) => lambda[b] - lambda[a]);
  const rank = new Array<number>(k);
  order.forEach((i, r) => (rank[i] = r > 0 && Math.abs(lambda[order[r - 1]] - lambda[i]) <= RANK_TIE ? rank[order[r - 1]] : r + 1));
  return {
    items: t.items.map((item, i) => ({ item, log_ability: lambda[i], se: Math.sqrt(Math.max(0, cov[i][i])), rank: rank[i] })),
    cov,
    nu,
    iterations,
    log_likelihood: logLik,
  };
}

/**
 * Hunter's MM iterations on tallies (n[i][j]: comparisons of i with j): the abilities, normalised to a geometric mean
 * of 1, and the iterations run. Plain loops over the same operations in the same order as one would write with
 * map/reduce (the results are those bits): sums from 0 left to right, the change the largest |log next - log pi| (NaN
 * when any is NaN).
 */
function hunterMm(t: Tallies, n: readonly (readonly number[])[], options: BtOptions): { pi: number[]; iterations: number } {
  const tol = options.tol ?? 1e-12;
  const maxIterations = options.maxIterations ?? 100_000;
  const k = t.items.length;
  const w = new Array<number>(k);
  for (let i = 0; i < k; i++) {
    let wins = 0, ties = 0;
    for (let j = 0; j < k; j++) wins += t.wins[i][j];
    for (let j = 0; j < k; j++) ties += t.ties[i][j];
    w[i] = wins + 0.5 * ties;
  }
  let pi = new Array<number>(k).fill(1);
  let next = new Array<number>(k);
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    let meanLog = 0;
    for (let i = 0; i < k; i++) {
      const p = pi[i];
      let d = 0;
      for (let j = 0; j < k; j++) if (j !== i && n[i][j] > 0) d += n[i][j] / (p + pi[j]);
      next[i] = w[i] / d;
      meanLog += Math.log(next[i]);
    }
    meanLog /= k;
    let change = -Infinity;
    for (let i = 0; i < k; i++) {
      const v = Math.exp(Math.log(next[i]) - meanLog);
      next[i] = v;
      const c = Math.abs(Math.log(v) - Math.log(pi[i]));
      if (c > change || Number.isNaN(c)) change = Number.isNaN(change) ? change : c;
    }
    [pi, next] = [next, pi];
    if (change < tol) { iterations++; break; }
  }
  return { pi, iterations };
}

/**
 * The log-abilities alone (no covariance, ranks or log-likelihood) from counts already tallied, for resampling loops
 * (the measure comparison's bootstrap): `items` in the order bradleyTerry would sort them (naturally), wins[i][j] and
 * ties[i][j] (symmetric) as tally() counts them. Same checks and the same iterations as bradleyTerry (same numbers),
 * without parsing a comparison list each time. Throws where bradleyTerry would.
 */
export function btLogAbilities(items: readonly string[], wins: number[][], ties: number[][], options: Pick<BtOptions, 'tol' | 'maxIterations'> = {}): number[] {
  const t: Tallies = { items: items as string[], wins, ties };
  const k = items.length;
  if (k < 2) throw new Error(`the comparisons need at least 2 puzzles, got ${k}`);
  checkConnected(t);
  const n = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => wins[i][j] + wins[j][i] + ties[i][j]));
  return hunterMm(t, n, options).pi.map(Math.log);
}

/** Items in the order bradleyTerry reports them (natural order: "p2" before "p10"). */
export function btItemOrder(items: Iterable<string>): string[] {
  return [...items].sort(naturalCompare);
}

/** Difference of two items' log-abilities and its standard error (BradleyTerry2's coefficient against a reference item). */
export function btContrast(result: BtResult, item: string, reference: string): { estimate: number; se: number } {
  const i = result.items.findIndex((x) => x.item === item);
  const r = result.items.findIndex((x) => x.item === reference);
  if (i < 0) throw new Error(`Bradley-Terry contrast: no puzzle ${item} among the compared ones`);
  if (r < 0) throw new Error(`Bradley-Terry contrast: no puzzle ${reference} among the compared ones`);
  const c = result.cov;
  return {
    estimate: result.items[i].log_ability - result.items[r].log_ability,
    se: Math.sqrt(Math.max(0, c[i][i] + c[r][r] - 2 * c[i][r])),
  };
}

/** Davidson's tie model by damped Newton on (lambda_1..lambda_k, log nu) with the sum of lambda fixed at 0. */
function fitDavidson(t: Tallies, start: number[]): { lambda: number[]; nu: number; cov: number[][]; logLik: number } {
  const k = t.items.length;
  const logLik = (params: number[]) => {
    const logNu = params[k];
    let ll = 0;
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        if (i === j) continue;
        const li = params[i], lj = params[j];
        const m = Math.max(li, lj, logNu + (li + lj) / 2);
        const logDen = m + Math.log(Math.exp(li - m) + Math.exp(lj - m) + Math.exp(logNu + (li + lj) / 2 - m));
        if (t.wins[i][j] > 0) ll += t.wins[i][j] * (li - logDen);
        if (i < j && t.ties[i][j] > 0) ll += t.ties[i][j] * (logNu + (li + lj) / 2 - logDen);
      }
    }
    return ll;
  };
  const totalTies = t.ties.flat().reduce((s, v) => s + v, 0) / 2;
  if (totalTies === 0) throw new Error("Davidson's tie model needs at least one tie, and the comparisons have none");
  let params = [...start, 0];
  // Work in the sum-to-zero subspace: lambda = C phi with C the first k - 1 columns of
  // I - 11'/k, so the Hessian is regular there (numerical noise along all-ones cannot leak in).
  const basis = new Matrix(k + 1, k);
  for (let i = 0; i < k; i++) for (let j = 0; j < k - 1; j++) basis.set(i, j, (i === j ? 1 : 0) - 1 / k);
  basis.set(k, k - 1, 1);
  const reducedInverse = (hess: number[][]) => {
    const h = basis.transpose().mmul(new Matrix(hess)).mmul(basis).neg();
    return basis.mmul(inverse(h)).mmul(basis.transpose());
  };
  let ll = logLik(params);
  for (let iter = 0; iter < 200; iter++) {
    const { grad, hess } = numericGradHess(logLik, params);
    const step = reducedInverse(hess).mmul(Matrix.columnVector(grad)).to1DArray();
    let scale = 1, next = params, nextLl = -Infinity;
    for (let half = 0; half < 40; half++) {
      next = params.map((v, i) => v + scale * step[i]);
      nextLl = logLik(next);
      if (nextLl >= ll - 1e-12) break;
      scale /= 2;
    }
    const moved = Math.max(...next.map((v, i) => Math.abs(v - params[i])));
    params = next; ll = nextLl;
    if (moved < 1e-10) break;
  }
  const full = reducedInverse(numericGradHess(logLik, params).hess);
  const cov = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => full.get(i, j)));
  return { lambda: params.slice(0, k), nu: Math.exp(params[k]), cov, logLik: ll };
}

/** Central-difference gradient and Hessian. */
function numericGradHess(f: (x: number[]) => number, x: number[]): { grad: number[]; hess: number[][] } {
  const d = x.length;
  const h = 1e-4;
  const at = (delta: [number, number][]) => {
    const y = x.slice();
    for (const [i, v] of delta) y[i] += v;
    return f(y);
  };
  const f0 = f(x);
  const grad = new Array<number>(d).fill(0);
  const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
  for (let i = 0; i < d; i++) {
    const fp = at([[i, h]]), fm = at([[i, -h]]);
    grad[i] = (fp - fm) / (2 * h);
    hess[i][i] = (fp - 2 * f0 + fm) / (h * h);
    for (let j = 0; j < i; j++) {
      const v = (at([[i, h], [j, h]]) - at([[i, h], [j, -h]]) - at([[i, -h], [j, h]]) + at([[i, -h], [j, -h]])) / (4 * h * h);
      hess[i][j] = v; hess[j][i] = v;
    }
  }
  return { grad, hess };
}

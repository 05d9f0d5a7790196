// Spearman rank correlation with average ranks, SciPy's t-approximation p-value and an exact permutation p for small n.
//
// rho is Pearson's correlation of the two rank vectors (ties get the mean of the ranks they span),
// which is what scipy.stats.spearmanr and R's cor(method = "spearman") compute. The p-value the
// paper reports is SciPy's: t = rho * sqrt((n - 2) / (1 - rho^2)) on n - 2 degrees of freedom,
// two-sided. For n <= 9 we also enumerate every permutation of y against x (n! <= 362,880) and
// count those with |rho| at least the observed one: the exact two-sided permutation p under the
// null of exchangeability, tie pattern included. Beyond n = 9 the enumeration is too large and
// p_exact is null. Neither p is meaningful for n < 3.
import tDist from '@stdlib/stats-base-dists-t';

/** Average ranks (1-based), ties sharing the mean of the positions they occupy. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
  const ranks = new Array<number>(values.length);
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1]] === values[order[i]]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]] = rank;
    i = j + 1;
  }
  return ranks;
}

/** Pearson correlation; NaN when either side is constant. */
export function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  let mx = 0, my = 0;
  for (let i = 0; i < n; i++) { mx += x[i]; my += y[i]; }
  mx /= n; my /= n;
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx, dy = y[i] - my;
    sxy += dx * dy; sxx += dx * dx; syy += dy * dy;
  }
  return sxy / Math.sqrt(sxx * syy);
}

export interface SpearmanResult {
  n: number;
  rho: number;
  /** Two-sided p from the t-approximation (SciPy's spearmanr). */
  p: number;
  /** Exact two-sided permutation p for n <= 9, else null. */
  p_exact: number | null;
  /** Which side is constant when rho is undefined (NaN): 'x', 'y' or 'both'; absent otherwise. */
  constant?: 'x' | 'y' | 'both';
}

const EXACT_MAX_N = 9;

export function spearman(x: readonly number[], y: readonly number[]): SpearmanResult {
  if (x.length !== y.length) throw new Error(`spearman: x has ${x.length} values but y has ${y.length}`);
  const n = x.length;
  if (n < 3) throw new Error(`spearman: need at least 3 pairs, got ${n}`);
  const rx = averageRanks(x), ry = averageRanks(y);
  const rho = pearson(rx, ry);
  let p: number;
  if (Number.isNaN(rho)) p = NaN;
  else if (Math.abs(rho) >= 1) p = 0;
  else {
    const df = n - 2;
    const t = rho * Math.sqrt(df / ((1 - rho) * (1 + rho)));
    p = 2 * tDist.cdf(-Math.abs(t), df);
  }
  const pExact = n <= EXACT_MAX_N && !Number.isNaN(rho) ? exactPermutationP(rx, ry, rho) : null;
  if (Number.isNaN(rho)) {
    const cx = x.every((v) => v === x[0]), cy = y.every((v) => v === y[0]);
    return { n, rho, p, p_exact: pExact, constant: cx && cy ? 'both' : cx ? 'x' : 'y' };
  }
  return { n, rho, p, p_exact: pExact };
}

/** Why rho is undefined, naming the constant column(s) and their value; null when rho is defined. */
export function spearmanUndefinedReason(r: SpearmanResult, xName: string, yName: string, x: readonly number[], y: readonly number[]): string | null {
  if (!r.constant) return null;
  const side = (name: string, v: readonly number[]) => `${name} is constant (${v[0]} in all ${v.length} rows)`;
  const what = r.constant === 'both' ? `${side(xName, x)} and ${side(yName, y)}` : r.constant === 'x' ? side(xName, x) : side(yName, y);
  return `${what}: Spearman's rho is undefined (no ranking to correlate)`;
}

/** Fraction of all permutations of ry whose |rho| with rx reaches |observed| (Heap's algorithm). */
function exactPermutationP(rx: number[], ry: number[], observed: number): number {
  const n = rx.length;
  const mean = (n + 1) / 2;
  const cx = rx.map((r) => r - mean);
  const perm = ry.slice();
  const sxx = cx.reduce((s, v) => s + v * v, 0);
  const syy = perm.reduce((s, v) => s + (v - mean) * (v - mean), 0);
  const scale = Math.sqrt(sxx * syy);
  const limit = Math.abs(observed) * scale * (1 - 1e-12) - 1e-12;
  let hits = 0, total = 0;
  const count = () => {
    let s = 0;
    for (let i = 0; i < n; i++) s += cx[i] * perm[i];
    total++;
    if (Math.abs(s) >= limit) hits++;
  };
  const c = new Array<number>(n).fill(0);
  count();
  let i = 0;
  while (i < n) {
    if (c[i] < i) {
      const j = i % 2 === 0 ? 0 : c[i];
      const tmp = perm[j]; perm[j] = perm[i]; perm[i] = tmp;
      count();
      c[i]++;
      i = 0;
    } else {
      c[i] = 0;
      i++;
    }
  }
  return hits / total;
}

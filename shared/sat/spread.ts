// The `spread` selection (issue 36): the puzzles on which two measures disagree most, so a study can tell them apart.
/*
 * Each candidate's two measures become percentile ranks over the pool (average ranks / n, ties shared); the
 * disagreement is rank_a - rank_b. Half the picks are the puzzles highest on a and lowest on b (largest
 * disagreement), the other half the reverse (smallest), each half in order of disagreement; with an odd count the
 * extra pick goes to the first half. Ties are broken by id, so the selection is a function of the pool alone.
 * Within a half no two picks share a value of either measure while the pool allows it (a candidate that would tie an
 * earlier pick of its half on a or on b is passed over): three puzzles at gac_conflicts 0 cannot be ranked by it, and
 * Spearman's rho of a measure that ties half the puzzles is a weak test of it. A pick is always on its half's side
 * (ranked higher on a than on b for the first half, the reverse for the second) while the pool has such candidates,
 * so distinct values never buy a pick that belongs to the other half. When a half's side has too few distinct values,
 * the passed-over candidates of that side fill the remaining places in the same order (`ties` on the pick says so).
 */
export interface SpreadCandidate {
  id: string;
  a: number;
  b: number;
}

export interface SpreadPick extends SpreadCandidate {
  role: 'a_high_b_low' | 'b_high_a_low';
  rank_a: number;
  rank_b: number;
  disagreement: number;
  /** true when the pick shares a value of a or b with an earlier pick (the pool had too few distinct values) */
  ties?: boolean;
}

function percentileRanks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
  const ranks = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) ranks[order[k][1]] = (i + j + 2) / 2 / xs.length;
    i = j + 1;
  }
  return ranks;
}

export function selectSpread(candidates: readonly SpreadCandidate[], count = 6): SpreadPick[] {
  if (candidates.length < count) throw new Error(`need at least ${count} candidates, got ${candidates.length}`);
  const ra = percentileRanks(candidates.map((c) => c.a)), rb = percentileRanks(candidates.map((c) => c.b));
  const all = candidates.map((c, i) => ({ ...c, rank_a: ra[i], rank_b: rb[i], disagreement: ra[i] - rb[i] }));
  const byId = (p: { id: string }, q: { id: string }) => (p.id < q.id ? -1 : p.id > q.id ? 1 : 0);
  const taken = new Set<string>();
  const pick = (order: typeof all, n: number, role: SpreadPick['role']): SpreadPick[] => {
    const out: SpreadPick[] = [];
    const seenA = new Set<number>(), seenB = new Set<number>();
    const take = (p: (typeof all)[number], ties: boolean) => {
      out.push(ties ? { ...p, role, ties } : { ...p, role });
      taken.add(p.id);
      seenA.add(p.a);
      seenB.add(p.b);
    };
    const onItsSide = (p: (typeof all)[number]) => (role === 'a_high_b_low' ? p.disagreement > 0 : p.disagreement < 0);
    for (const p of order) if (out.length < n && !taken.has(p.id) && onItsSide(p) && !seenA.has(p.a) && !seenB.has(p.b)) take(p, false);
    for (const p of order) if (out.length < n && !taken.has(p.id) && onItsSide(p)) take(p, true);
    for (const p of order) if (out.length < n && !taken.has(p.id)) take(p, true);
    return out;
  };
  const high = pick([...all].sort((p, q) => q.disagreement - p.disagreement || byId(p, q)), Math.ceil(count / 2), 'a_high_b_low');
  const low = pick([...all].sort((p, q) => p.disagreement - q.disagreement || byId(p, q)), Math.floor(count / 2), 'b_high_a_low');
  return [...high, ...low];
}

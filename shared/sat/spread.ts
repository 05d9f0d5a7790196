// The `spread` selection (issue 36): the puzzles on which two measures disagree most, so a study can tell them apart.
/*
 * Each candidate's two measures become percentile ranks over the pool (average ranks / n, ties shared); the
 * disagreement is rank_a - rank_b. Half the picks are the puzzles highest on a and lowest on b (largest
 * disagreement), the other half the reverse (smallest), each half in order of disagreement; with an odd count the
 * extra pick goes to the first half. Ties are broken by id, so the selection is a function of the pool alone.
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
  const high = [...all].sort((p, q) => q.disagreement - p.disagreement || byId(p, q)).slice(0, Math.ceil(count / 2));
  const taken = new Set(high.map((p) => p.id));
  const low = [...all].filter((p) => !taken.has(p.id)).sort((p, q) => p.disagreement - q.disagreement || byId(p, q)).slice(0, Math.floor(count / 2));
  return [...high.map((p) => ({ ...p, role: 'a_high_b_low' as const })), ...low.map((p) => ({ ...p, role: 'b_high_a_low' as const }))];
}

// The paper's puzzle selection: rank candidates by a solver metric, keep the 2 lowest, 2 nearest the median, 2 highest below the top 5%.
/*
 * He et al. (2026) drew 1,000 uniquely solvable 10x10 boards, ranked them by MiniSat conflicts and
 * took six: the two lowest, the two nearest the median, and the two highest after excluding the
 * top 5% (outliers). Here, exactly and deterministically:
 *   - rank ascending by the metric, ties by id (so the same input always gives the same six);
 *   - low: ranks 1 and 2;
 *   - median: the median m of all N values (mean of the two middle ones when N is even); the two
 *     candidates with the smallest |value - m|, ties broken by rank distance from the middle, then
 *     rank; never one already taken;
 *   - high: drop the top ceil(5N/100) ranks, then take the two highest remaining not yet taken.
 * It needs at least six candidates. It cannot say whether the metric is any good: the paper's
 * point was that conflicts did not predict human difficulty.
 */
import { z } from 'zod';

export const SelectionRole = z.enum(['lowest', 'median', 'highest']);
export type SelectionRole = z.infer<typeof SelectionRole>;

export interface Candidate {
  id: string;
  value: number;
}

export interface Selected extends Candidate {
  role: SelectionRole;
  /** 1-based rank in ascending order of the metric. */
  rank: number;
}

export interface Selection {
  selected: Selected[];
  n: number;
  median: number;
  /** Number of top-ranked candidates excluded before picking the highest. */
  excluded_top: number;
  /** The value below which (inclusive) the "highest" picks were made. */
  high_cutoff: number;
}

export function rankCandidates(candidates: Candidate[]): Candidate[] {
  for (const c of candidates) if (!Number.isFinite(c.value)) throw new RangeError(`candidate ${c.id}: metric value ${c.value} is not a finite number`);
  return [...candidates].sort((a, b) => a.value - b.value || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function selectPaper(candidates: Candidate[]): Selection {
  const n = candidates.length;
  if (n < 6) throw new RangeError(`the paper's scheme picks six puzzles; got ${n} candidates`);
  const ids = new Set<string>();
  for (const c of candidates) {
    if (ids.has(c.id)) throw new RangeError(`duplicate candidate id '${c.id}'`);
    ids.add(c.id);
  }
  const ranked = rankCandidates(candidates);
  const median = n % 2 ? ranked[(n - 1) / 2].value : (ranked[n / 2 - 1].value + ranked[n / 2].value) / 2;
  const taken = new Set<number>();
  const selected: Selected[] = [];
  const take = (i: number, role: SelectionRole) => {
    taken.add(i);
    selected.push({ ...ranked[i], role, rank: i + 1 });
  };
  take(0, 'lowest');
  take(1, 'lowest');
  const middle = (n - 1) / 2;
  const byMedian = ranked
    .map((c, i) => ({ i, d: Math.abs(c.value - median), m: Math.abs(i - middle) }))
    .filter((x) => !taken.has(x.i))
    .sort((a, b) => a.d - b.d || a.m - b.m || a.i - b.i);
  take(byMedian[0].i, 'median');
  take(byMedian[1].i, 'median');
  const excluded = Math.ceil((5 * n) / 100);
  let picked = 0;
  for (let i = n - excluded - 1; i >= 0 && picked < 2; i--) {
    if (taken.has(i)) continue;
    take(i, 'highest');
    picked++;
  }
  if (picked < 2) throw new RangeError('not enough candidates left for the two highest picks');
  return { selected, n, median, excluded_top: excluded, high_cutoff: ranked[n - excluded - 1].value };
}

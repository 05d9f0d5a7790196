// Rank-biserial correlation between a binary grouping and a score (Glass's form, ties counted as half).
//
// Glass (1966): r = 2 (mean rank of group 1 - mean rank of group 0) / n, with average ranks over
// the pooled sample. It equals P(X1 > X0) - P(X1 < X0) over all cross-group pairs with a tie
// counting half each way, i.e. 2 U1 / (n1 n0) - 1 with U1 the Mann-Whitney count. Positive r means
// group 1 (e.g. answers that mention a theme) tends to have higher scores (e.g. rated difficulty).
// Undefined (NaN) when either group is empty.
import { averageRanks } from './spearman.ts';

export interface RankBiserialResult {
  r: number;
  n1: number;
  n0: number;
  /** Mann-Whitney U for group 1, ties counted as half. */
  u1: number;
}

/** Two samples: scores of group 1 and scores of group 0. */
export function rankBiserial(group1: readonly number[], group0: readonly number[]): RankBiserialResult {
  const n1 = group1.length, n0 = group0.length;
  if (n1 === 0 || n0 === 0) return { r: NaN, n1, n0, u1: NaN };
  const ranks = averageRanks([...group1, ...group0]);
  let r1 = 0;
  for (let i = 0; i < n1; i++) r1 += ranks[i];
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  return { r: (2 * u1) / (n1 * n0) - 1, n1, n0, u1 };
}

/** The same from parallel arrays: a 0/1 (or boolean) membership per observation and its score. */
export function rankBiserialFromFlags(member: readonly (boolean | number)[], score: readonly number[]): RankBiserialResult {
  if (member.length !== score.length) throw new Error(`rankBiserial: ${member.length} flags but ${score.length} scores`);
  const g1: number[] = [], g0: number[] = [];
  member.forEach((m, i) => (m ? g1 : g0).push(score[i]));
  return rankBiserial(g1, g0);
}

// Sequence assignment: all ordered k-sequences of the pool, and the balanced draw among the free ones.
import type { Rng } from '../random.ts';

/** Every ordered selection of k distinct items (6 items, k = 3: 120 sequences), in lexicographic order. */
export function orderedSequences(items: readonly string[], k: number): string[][] {
  const out: string[][] = [];
  const walk = (prefix: string[]) => {
    if (prefix.length === k) {
      out.push(prefix);
      return;
    }
    for (const item of items) if (!prefix.includes(item)) walk([...prefix, item]);
  };
  walk([]);
  return out;
}

export interface Counts {
  /** Attempts per puzzle (leased or used sequences). */
  perPuzzle: Map<string, number>;
  /** Attempts per "puzzle@position". */
  perSlot: Map<string, number>;
}

export function countAttempts(sequences: readonly (readonly string[])[]): Counts {
  const perPuzzle = new Map<string, number>();
  const perSlot = new Map<string, number>();
  for (const seq of sequences)
    seq.forEach((p, i) => {
      perPuzzle.set(p, (perPuzzle.get(p) ?? 0) + 1);
      perSlot.set(`${p}@${i + 1}`, (perSlot.get(`${p}@${i + 1}`) ?? 0) + 1);
    });
  return { perPuzzle, perSlot };
}

function spread(values: Iterable<number>, universe: number): number {
  const list = [...values];
  while (list.length < universe) list.push(0);
  return list.length === 0 ? 0 : Math.max(...list) - Math.min(...list);
}

/**
 * Choose among free sequences the one that keeps attempts most even: first minimise the spread of per-puzzle
 * counts after taking it, then the spread of per-(puzzle, position) counts, then the sum of squares (which
 * prefers the least-attempted puzzles); ties are broken by the seeded generator. Returns an index into `free`.
 *
 * Greedy choice cannot always keep per-puzzle spread at zero (3 attempts per participant over 6 puzzles), but it
 * never lets it exceed 2: a free sequence made of the least-attempted puzzles exists while the pool is not exhausted.
 */
export function chooseBalanced(free: readonly (readonly string[])[], taken: readonly (readonly string[])[], puzzles: readonly string[], rng: Rng): number {
  if (free.length === 0) return -1;
  const base = countAttempts(taken);
  const slots = puzzles.length * (free[0]?.length ?? 0);
  let best: number[] = [];
  let bestKey: number[] = [];
  free.forEach((seq, idx) => {
    const perPuzzle = new Map(base.perPuzzle);
    const perSlot = new Map(base.perSlot);
    seq.forEach((p, i) => {
      perPuzzle.set(p, (perPuzzle.get(p) ?? 0) + 1);
      perSlot.set(`${p}@${i + 1}`, (perSlot.get(`${p}@${i + 1}`) ?? 0) + 1);
    });
    let squares = 0;
    for (const v of perPuzzle.values()) squares += v * v;
    const key = [spread(perPuzzle.values(), puzzles.length), spread(perSlot.values(), slots), squares];
    const cmp = bestKey.length === 0 ? -1 : key[0] - bestKey[0] || key[1] - bestKey[1] || key[2] - bestKey[2];
    if (cmp < 0) {
      best = [idx];
      bestKey = key;
    } else if (cmp === 0) best.push(idx);
  });
  return best[rng.int(best.length)];
}

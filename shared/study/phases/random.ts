// A simulated participant's random draws (seeded: the Rng is passed in) and what playing one board gives, shared by the Nonogram and Sudoku hands.
import type { Rng } from '../../random.ts';

export function normal(rng: Rng): number {
  let u = rng.next();
  while (u <= 1e-12) u = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}
export const logNormal = (rng: Rng, median: number, sigma: number) => median * Math.exp(sigma * normal(rng));
export const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
export const pick = <T>(rng: Rng, items: readonly T[]): T => items[rng.int(items.length)];

/** How one board's play ended. */
export interface BoardPlay {
  outcome: 'solved' | 'skipped' | 'timeout' | 'done';
  hints: number;
  mistakes: number;
}

// Where a rising curve crosses a level (linear interpolation) and a seeded bootstrap interval for it: the phase experiment's threshold.
/*
 * The threshold of a size is the density at which the mean forced-filled share first reaches the
 * level (0.5): between the last density below it and the next one, the crossing is interpolated
 * linearly; a curve that starts at or above the level crosses at its first density; one that never
 * reaches it has no threshold (NaN). The interval is a percentile bootstrap: the boards of each
 * density are resampled with replacement (independently per density, as they were drawn), the
 * crossing of the resampled means is found, and the 2.5 % and 97.5 % quantiles (type 7) of the
 * replicates that cross are reported, with the share of replicates that crossed at all. It says
 * how well the boards pin the crossing down at the given densities; it cannot see a crossing
 * outside the density grid, and linear interpolation between grid points is an assumption.
 */
import { createRng } from '../../shared/random.ts';

/** Density where `values` (at ascending `xs`) first reaches `level`; NaN if it never does. */
export function crossing(xs: number[], values: number[], level = 0.5): number {
  for (let i = 0; i < xs.length; i++) {
    if (values[i] >= level) {
      if (i === 0) return xs[0];
      const [x0, x1, y0, y1] = [xs[i - 1], xs[i], values[i - 1], values[i]];
      return x0 + ((level - y0) * (x1 - x0)) / (y1 - y0);
    }
  }
  return NaN;
}

function quantile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export interface ThresholdEstimate {
  threshold: number;
  lo: number;
  hi: number;
  /** Fraction of bootstrap replicates whose curve reached the level. */
  crossed: number;
}

/**
 * The crossing of the mean curve and its bootstrap interval. `groups[i]` holds the per-board
 * values at density `xs[i]` (ascending).
 */
export function thresholdBootstrap(xs: number[], groups: number[][], options: { level?: number; replicates?: number; seed?: number; confidence?: number } = {}): ThresholdEstimate {
  const level = options.level ?? 0.5;
  const replicates = options.replicates ?? 1000;
  const alpha = (1 - (options.confidence ?? 0.95)) / 2;
  const rng = createRng(options.seed ?? 1);
  const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
  const threshold = crossing(xs, groups.map(mean), level);
  const boots: number[] = [];
  for (let b = 0; b < replicates; b++) {
    const means = groups.map((g) => {
      let s = 0;
      for (let k = 0; k < g.length; k++) s += g[rng.int(g.length)];
      return s / g.length;
    });
    const c = crossing(xs, means, level);
    if (!Number.isNaN(c)) boots.push(c);
  }
  boots.sort((a, b) => a - b);
  return { threshold, lo: quantile(boots, alpha), hi: quantile(boots, 1 - alpha), crossed: boots.length / replicates };
}

// A picture into a uniquely solvable Nonogram: Otsu's threshold, then the fewest cell changes a greedy search finds.
/*
 * The caller (analysis/commands/fromImage.ts) decodes and resamples the image to one grey value
 * (0 black .. 255 white) per board cell; everything here is pure.
 *
 * Threshold. Otsu (1979): the grey level t that maximises the between-class variance
 * w0(t) w1(t) (mu0(t) - mu1(t))^2 of the two classes [0..t] and [t+1..255] of the histogram, i.e.
 * the split that makes both classes as tight as possible. A cell is filled when its grey value is at
 * most t (dark ink on light paper), or above it with `invert`. A picture of one grey level has no
 * split; Otsu then returns that level, and every cell falls on one side (the caller reports it).
 *
 * Making it unique. The thresholded grid G is a solution of its own clues, but often not the only
 * one (swappable 2x2 corners, loose diagonals). Greedy search, as the puzzle collections do it:
 *   1. ask the exact counter (`solvePuzzle`, the engine of `nonolab solve`) for up to `sample`
 *      solutions of clues(G), G given as the known solution; if there is one, stop;
 *   2. the cells where the alternative solutions differ from G are the candidates, most often
 *      differing first (at most `candidates` of them; a cell is changed at most once);
 *   3. for each candidate c, flip c in G and pre-score it by the cells complete line solving plus
 *      probing of the new clues leaves unknown (sound reasoning, no search: cells in a swappable
 *      region stay unknown, so breaking one region lowers it even while many solutions remain);
 *      the `counted` best then get an exact count of the new clues' solutions (up to `sample`):
 *      the change "breaks the most alternatives" when fewest solutions remain. Take the best
 *      (ties: fewer cells unknown to line solving and probing, which tells
 *      apart changes that all leave more than `sample` solutions; then the cell most alternatives
 *      disagree on, then reading order); the first that leaves exactly one solution is taken at once;
 *   4. repeat until unique or `maxChanges` changes are spent.
 * The line solves of every variant go through one cache keyed by clue and line length (`LineResults`):
 * a variant differs from the board in one row and one column, so most of its line solves were made for
 * an earlier one. With `probedUnits` (generate --method perturb) each count also gets the cells its
 * pre-score's probing set as units, so its CNF covers only the cells still open.
 * With `maxLevel` K (metrics.ts levels 1-4), once unique the search goes on while the level is
 * above K: candidates are the cells the level's reasoning leaves unknown (complete line solving;
 * for K = 3 line solving plus probing; for K = 1 the overlap rule), and a change is kept only if the
 * puzzle stays unique; the best one leaves the fewest cells unknown to that reasoning (ties: lower
 * level, reading order). The cells one level's reasoning leaves open are many on some pictures, and
 * this phase can spend many changes (a 20x20 smiley: 2 changes to unique level 3, 26 to level 2).
 *
 * What it cannot do. Greedy is not optimal: the fewest changes overall is a hitting-set problem over
 * an unknown (possibly huge) set of alternative solutions; a change can also create new
 * alternatives, which the next round then has to break. The count of remaining solutions is capped
 * at `sample`, so two changes that both leave "many" are told apart only by the line-solving
 * and probing proxy, which can prefer a change that is no real progress; on pictures with many
 * independent ambiguous spots (50 scattered squares on 20x20) it takes ~50 changes and 1-2 minutes. Solver
 * budgets (`conflictBudget` per count) keep one hard board from stalling the search: an incomplete
 * count is scored as the cap. The result says whether it succeeded and keeps the best grid reached
 * (fewest solutions, then fewest cells unknown to line solving and probing).
 */
import { cloneGrid, cluesOf, createGrid, EMPTY, FILLED, UNKNOWN } from './grid.ts';
import type { Clues, Grid } from './grid.ts';
import { difficulty } from './metrics.ts';
import { probeInPlace, propagateInPlace, unknownCount } from './solver.ts';
import { LineCache, LineResults } from './lineSolver.ts';
import { solvePuzzle } from './solvePuzzle.ts';

/** Otsu's threshold of grey values 0..255: cells at or below it are the dark class. */
export function otsuThreshold(values: ArrayLike<number>): number {
  const hist = new Float64Array(256);
  for (let i = 0; i < values.length; i++) hist[Math.max(0, Math.min(255, Math.round(values[i])))]++;
  const total = values.length;
  if (total === 0) throw new RangeError('otsuThreshold: no values');
  let sumAll = 0;
  for (let t = 0; t < 256; t++) sumAll += t * hist[t];
  let w0 = 0;
  let sum0 = 0;
  let best = -1;
  let bestT = 0;
  for (let t = 0; t < 256; t++) {
    w0 += hist[t];
    sum0 += t * hist[t];
    const w1 = total - w0;
    if (w0 === 0) continue;
    if (w1 === 0) break;
    const mu0 = sum0 / w0;
    const mu1 = (sumAll - sum0) / w1;
    const between = w0 * w1 * (mu0 - mu1) * (mu0 - mu1);
    if (between > best) {
      best = between;
      bestT = t;
    }
  }
  if (best < 0) {
    // One grey level only: no split exists; return that level.
    for (let t = 0; t < 256; t++) if (hist[t] > 0) return t;
  }
  return bestT;
}

/** The black-and-white board of grey cells: filled where grey <= threshold (or > threshold with invert). */
export function thresholdGrid(gray: ArrayLike<number>, width: number, height: number, threshold: number, invert = false): Grid {
  if (gray.length !== width * height) throw new RangeError(`expected ${width * height} grey values, got ${gray.length}`);
  const g = createGrid(width, height, EMPTY);
  for (let i = 0; i < gray.length; i++) {
    const dark = gray[i] <= threshold;
    g.cells[i] = dark !== invert ? FILLED : EMPTY;
  }
  return g;
}

export interface MakeUniqueOptions {
  /** Stop after this many changed cells (default: 10% of the cells, at least 10). */
  maxChanges?: number;
  /** Keep changing (while unique) until the human level (1-4) is at most this. */
  maxLevel?: number;
  /** Solutions counted per candidate (the cap of the score; default 8). */
  sample?: number;
  /** Candidate cells pre-scored per change by the cells line solving and probing leave unknown (default 60). */
  candidates?: number;
  /** Of those, how many get an exact solution count (default 6). */
  counted?: number;
  /** Conflicts allowed to the SAT stage of each count (default 20,000). */
  conflictBudget?: number;
  /**
   * Give each exact count the cells line solving and probing set for its clues (the pre-score computes
   * them anyway) as units, so its CNF covers only the rest: several times cheaper on big boards. The
   * counts stay exact, but the alternative solutions found, and so the cells changed, can differ
   * (default false: from-image's choices stay as they were; `generate --method perturb` sets it).
   */
  probedUnits?: boolean;
  /** Grade the result (`level`, by `difficulty`) when unique (default true; `generate` grades it itself). */
  grade?: boolean;
  /** Called after each change (for progress output). */
  onChange?: (change: { row: number; col: number; changes: number; solutions: number; unknown?: number; level?: number }) => void;
}

export interface ChangedCell {
  row: number;
  col: number;
  /** The cell's value in the thresholded picture and in the puzzle: '#' filled, '.' empty. */
  from: '#' | '.';
  to: '#' | '.';
}

export interface MakeUniqueResult {
  /** The best grid reached: unique (and within maxLevel) when `saved`. */
  grid: Grid;
  clues: Clues;
  saved: boolean;
  /** Solutions of `clues` counted up to the sample cap (1 when unique). */
  solutions: number;
  /** Exact when true; false when a solver budget stopped the last count. */
  complete: boolean;
  changed: ChangedCell[];
  /** Human level of the result when unique. */
  level?: number;
  /** Why it stopped without saving the picture (when not saved). */
  reason?: string;
}

interface Count {
  count: number;
  complete: boolean;
  solutions: Grid[];
}

/** Flip the grid's cell i between filled and empty. */
function flip(g: Grid, i: number): void {
  g.cells[i] = g.cells[i] === FILLED ? EMPTY : FILLED;
}

/**
 * Unknown cells left by the reasoning of level `k` (2: complete line solving; 3: plus probing); -1 if contradictory.
 * `results` (complete line solving only) keeps line solves across calls: the variants of one board share most lines.
 */
function unknownAfterLevel(clues: Clues, k: number, results?: LineResults): { unknown: number; cells: number[]; grid?: Grid } {
  const g = createGrid(clues.cols.length, clues.rows.length);
  const cache = k >= 2 ? (results ? new LineCache(undefined, { results, clues }) : new LineCache()) : undefined;
  if (!propagateInPlace(clues, g, k <= 1 ? 'overlap' : 'complete', undefined, -1, results ? cache : undefined)) return { unknown: -1, cells: [] };
  if (k >= 3 && !probeInPlace(clues, g, undefined, undefined, cache)) return { unknown: -1, cells: [] };
  const cells: number[] = [];
  for (let i = 0; i < g.cells.length; i++) if (g.cells[i] === UNKNOWN) cells.push(i);
  return { unknown: unknownCount(g), cells, grid: g };
}

/** Make the picture's grid uniquely solvable (and, with maxLevel, easy enough) by flipping few cells. See the essay above. */
export function makeUnique(picture: Grid, options: MakeUniqueOptions = {}): MakeUniqueResult {
  const n = picture.width * picture.height;
  const maxChanges = options.maxChanges ?? Math.max(10, Math.round(n / 10));
  const sample = Math.max(2, options.sample ?? 8);
  const candidateCap = options.candidates ?? 60;
  const countTop = options.counted ?? 6;
  const conflictBudget = options.conflictBudget ?? 20_000;
  const maxLevel = options.maxLevel;
  const width = picture.width;
  // Line solves shared by every variant of the board tried below (each differs in one row and one column).
  const lineResults = new LineResults(300_000);

  // `forced`: the cells line solving and probing set for these clues (they hold in every solution): the count's CNF is only the rest.
  const count = (g: Grid, forced?: Grid, limit = sample): Count => {
    const r = solvePuzzle(cluesOf(g), { limit, knownSolution: g, conflictBudget, ...(forced && options.probedUnits ? { forced } : {}) });
    return { count: r.complete ? r.count : Math.max(r.count, limit), complete: r.complete, solutions: r.solutions };
  };

  const grid = cloneGrid(picture);
  const touched = new Set<number>();
  const start = unknownAfterLevel(cluesOf(grid), 3, lineResults);
  let current = count(grid, start.grid);
  let best = { grid: cloneGrid(grid), count: current.count, complete: current.complete, unknown: start.unknown };
  const changedCells = (g: Grid): ChangedCell[] => {
    const out: ChangedCell[] = [];
    for (let i = 0; i < n; i++) {
      if (g.cells[i] !== picture.cells[i]) out.push({ row: Math.floor(i / width), col: i % width, from: picture.cells[i] === FILLED ? '#' : '.', to: g.cells[i] === FILLED ? '#' : '.' });
    }
    return out;
  };
  const finish = (g: Grid, solutions: number, complete: boolean, saved: boolean, reason?: string): MakeUniqueResult => {
    const clues = cluesOf(g);
    const out: MakeUniqueResult = { grid: cloneGrid(g), clues, saved, solutions, complete, changed: changedCells(g) };
    if (solutions === 1 && complete && options.grade !== false) out.level = difficulty(clues, { forcedCells: false }).level;
    if (reason) out.reason = reason;
    return out;
  };

  // Phase 1: uniqueness.
  while (current.count !== 1 || !current.complete) {
    if (touched.size >= maxChanges) return finish(best.grid, best.count, best.complete, false, `still ${best.count >= sample ? `${sample} or more` : best.count} solutions after --max-changes ${maxChanges}`);
    const disagree = new Map<number, number>();
    for (const s of current.solutions) {
      for (let i = 0; i < n; i++) if (s.cells[i] !== grid.cells[i] && !touched.has(i)) disagree.set(i, (disagree.get(i) ?? 0) + 1);
    }
    if (disagree.size === 0) {
      // No alternative in hand (a budget stopped the count): try every untouched cell in reading order.
      for (let i = 0; i < n && disagree.size < candidateCap; i++) if (!touched.has(i)) disagree.set(i, 0);
    }
    // Pre-score (cells line solving and probing leave unknown), then exact counts on the best few.
    const ranked = [...disagree.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, candidateCap)
      .map(([cell, votes]) => {
        flip(grid, cell);
        const { unknown, grid: forced } = unknownAfterLevel(cluesOf(grid), 3, lineResults);
        flip(grid, cell);
        return { cell, votes, unknown: unknown < 0 ? n : unknown, forced };
      })
      .sort((a, b) => a.unknown - b.unknown || b.votes - a.votes || a.cell - b.cell)
      .slice(0, countTop);
    let pick: { cell: number; unknown: number; result: Count } | null = null as { cell: number; unknown: number; result: Count } | null;
    for (const { cell, unknown, forced } of ranked) {
      flip(grid, cell);
      const r = unknown === 0 ? { count: 1, complete: true, solutions: [cloneGrid(grid)] } : count(grid, forced);
      flip(grid, cell);
      const better = !pick || r.count < pick.result.count || (r.count === pick.result.count && ((r.complete && !pick.result.complete) || (r.complete === pick.result.complete && unknown < pick.unknown)));
      if (better) pick = { cell, unknown, result: r };
      if (r.count === 1 && r.complete) break;
    }
    if (!pick) return finish(best.grid, best.count, best.complete, false, 'no cell left to change');
    flip(grid, pick.cell);
    touched.add(pick.cell);
    current = pick.result;
    if (current.count < best.count || (current.count === best.count && (current.complete && !best.complete || pick.unknown < best.unknown))) best = { grid: cloneGrid(grid), count: current.count, complete: current.complete, unknown: pick.unknown };
    options.onChange?.({ row: Math.floor(pick.cell / width), col: pick.cell % width, changes: touched.size, solutions: current.count, unknown: pick.unknown });
  }
  if (maxLevel === undefined) return finish(grid, 1, true, true);

  // Phase 2: down to level maxLevel, staying unique.
  let level: number = difficulty(cluesOf(grid), { forcedCells: false }).level;
  const reasoning = Math.max(2, Math.min(3, maxLevel));
  while (level > maxLevel) {
    if (touched.size >= maxChanges) return finish(grid, 1, true, false, `unique, but level ${level} > --max-level ${maxLevel} after --max-changes ${maxChanges}`);
    const left = unknownAfterLevel(cluesOf(grid), reasoning, lineResults);
    const candidates = left.cells.filter((i) => !touched.has(i)).slice(0, candidateCap);
    // Level 1 needs every cell from the overlap rule; complete line solving already knows them all then.
    if (candidates.length === 0 && maxLevel === 1) {
      for (let i = 0; i < n && candidates.length < candidateCap; i++) if (!touched.has(i)) candidates.push(i);
    }
    let pick: { cell: number; unknown: number; level: number } | null = null as { cell: number; unknown: number; level: number } | null;
    for (const cell of candidates) {
      flip(grid, cell);
      const clues = cluesOf(grid);
      const r = solvePuzzle(clues, { limit: 2, knownSolution: grid, conflictBudget });
      if (r.complete && r.count === 1) {
        const lv = difficulty(clues, { forcedCells: false }).level;
        const unknown = maxLevel === 1 ? unknownAfterLevel(clues, 1).unknown : unknownAfterLevel(clues, reasoning, lineResults).unknown;
        if (!pick || unknown < pick.unknown || (unknown === pick.unknown && lv < pick.level)) pick = { cell, unknown, level: lv };
      }
      flip(grid, cell);
      if (pick && pick.level <= maxLevel) break;
    }
    if (!pick) return finish(grid, 1, true, false, `unique, but no single change keeps it unique and lowers level ${level} toward --max-level ${maxLevel}`);
    flip(grid, pick.cell);
    touched.add(pick.cell);
    level = pick.level;
    options.onChange?.({ row: Math.floor(pick.cell / width), col: pick.cell % width, changes: touched.size, solutions: 1, level });
  }
  return finish(grid, 1, true, true);
}

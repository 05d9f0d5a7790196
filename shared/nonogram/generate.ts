// The seeded generator: random solution grids, kept only if their clues have exactly one solution.
//
// Following the paper ("random uniquely solvable 10x10 Nonograms with 50% filled cells") and the
// puzzle site (generate from a known answer, check uniqueness), each candidate is a random grid with
// exactly round(density·R·C) filled cells placed uniformly (a partial Fisher-Yates shuffle of the
// cell indices), or with each cell filled independently with probability `density` (`bernoulli`).
// Its clues are graded by `difficulty`, which also decides uniqueness (line solving, probing, then
// a counting search with limit 2); non-unique candidates are dropped, as are repeats of an id.
// On boards above 225 cells uniqueness is decided by `solvePuzzle` with the candidate's grid as the
// known solution (one question: is there a solution other than the image? line logic, then CDCL
// with the image blocked and the solver's phases at the image; no search for a first solution),
// and the look-ahead search only grades the unique ones: non-unique candidates are dropped long
// before a search would finish, and a unique board whose grading search runs out of nodes is kept
// (flagged `search_incomplete`) instead of being taken for non-unique. The accepted puzzles and
// their metrics are the same as the search alone gives whenever it finishes.
//
// Determinism: candidate i of run seed S draws from createRng(candidateSeed(S, i)), so the whole
// run, and every single puzzle (from its recorded `seed`), is reproducible. Rejection sampling is
// uniform over uniquely solvable grids with that many filled cells, which is what the paper did; it
// is not uniform over difficulty (most random 10x10 puzzles are easy), and at low densities
// uniqueness gets rare, so a run can take many candidates per puzzle.
import { z } from 'zod';
import { Puzzle } from '../schema/puzzle.ts';
import { FILLED, EMPTY, cluesOf, createGrid, gridToRows } from './grid.ts';
import type { Grid } from './grid.ts';
import { hash53, puzzleId } from './id.ts';
import { difficulty } from './metrics.ts';
import { makeUnique } from './fromPicture.ts';
import { createRng } from '../random.ts';

export const GenerateOptions = z.object({
  width: z.number().int().min(1).max(100),
  height: z.number().int().min(1).max(100),
  density: z.number().min(0).max(1),
  count: z.number().int().min(0),
  seed: z.number().int(),
  bernoulli: z.boolean().optional(),
  /** Give up after this many candidates (default: unlimited). */
  max_candidates: z.number().int().positive().optional(),
  /**
   * Skip (and count) a candidate whose uniqueness check takes longer than this, in the units of
   * the `now` hook (the CLI: milliseconds). Needs `hooks.now`. Which candidates are skipped then
   * depends on the machine's speed, so a run with it is reproducible only without skips.
   */
  timeout_per_candidate: z.number().positive().optional(),
  /**
   * 'reject' (default): keep a random grid only if its clues are unique (the paper's distribution).
   * 'perturb': make each random grid unique by the fewest cell changes the greedy search of
   * `makeUnique` (fromPicture.ts) finds, and keep it (the number of changes is recorded as
   * `metrics.perturb.changes`); a grid it cannot make unique within its change budget is dropped.
   */
  method: z.enum(['reject', 'perturb']).optional(),
});
export type GenerateOptions = z.infer<typeof GenerateOptions>;

export interface GenerateProgress {
  accepted: number;
  /** Candidates tried, including rejected and skipped ones. */
  candidates: number;
  /** Candidates skipped because their check ran past `timeout_per_candidate`. */
  skipped: number;
  target: number;
}

export interface GenerateHooks {
  /** Called after every candidate (cheap; the CLI throttles its drawing). */
  onProgress?: (p: GenerateProgress) => void;
  /** The clock for `timeout_per_candidate` (shared code never reads the time itself). */
  now?: () => number;
  /** Extra metrics merged into `metrics` (e.g. `{ sat: ... }` from the SAT module). */
  extraMetrics?: (puzzle: Puzzle) => Record<string, unknown>;
}

/** The RNG seed of candidate `index` in a run seeded `seed` (an unsigned 32-bit integer). */
export function candidateSeed(seed: number, index: number): number {
  return hash53(`${seed}:${index}`)[1];
}

let order = new Int32Array(0);

/** A random solution grid from a candidate seed: exact count of filled cells, or Bernoulli. */
export function randomSolution(width: number, height: number, density: number, seed: number, bernoulli = false): Grid {
  const rng = createRng(seed);
  const total = width * height;
  const grid = createGrid(width, height, EMPTY);
  if (bernoulli) {
    for (let i = 0; i < total; i++) if (rng.next() < density) grid.cells[i] = FILLED;
    return grid;
  }
  const filled = Math.round(density * total);
  if (order.length < total) order = new Int32Array(total);
  for (let i = 0; i < total; i++) order[i] = i;
  for (let i = 0; i < filled; i++) {
    const j = i + rng.int(total - i);
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
    grid.cells[order[i]] = FILLED;
  }
  return grid;
}

/** Boards above this many cells decide uniqueness by `solvePuzzle` with the known solution. */
const PRECHECK_CELLS = 225;

export type CandidateOutcome = { puzzle: Puzzle } | { rejected: true } | { skipped: true };

/**
 * One candidate: its Puzzle record if its clues are uniquely solvable, else rejected; skipped if a
 * `deadline` (on `now`'s clock) passed first. On big boards `difficulty` decides uniqueness with
 * the candidate's own grid as the known solution (exact, see above) before it grades.
 */
export function candidateFromSeed(width: number, height: number, density: number, seed: number, bernoulli = false, hooks: GenerateHooks = {}, deadline?: number, method: 'reject' | 'perturb' = 'reject'): CandidateOutcome {
  let solution = randomSolution(width, height, density, seed, bernoulli);
  let changes = -1;
  if (method === 'perturb') {
    // The random grid made unique by few changes (exact counts with the grid as known solution).
    // Not from-image's settings: 6 candidate cells per change (not 60), each count only asks
    // "unique or not?" (sample 2, not 8) with the cells line solving and probing set as units, and
    // no grading inside (it is done below): about as few changes, several times faster (docs/solve.md).
    const made = makeUnique(solution, { candidates: 6, sample: 2, probedUnits: true, grade: false });
    if (!made.saved) return { rejected: true };
    solution = made.grid;
    changes = made.changed.length;
  }
  const clues = cluesOf(solution);
  const now = hooks.now;
  const expired = deadline !== undefined && now ? () => now() >= deadline : undefined;
  // Big boards: uniqueness by the exact known-solution question (solvePuzzle), the look-ahead search only grades.
  const knownSolution = width * height > PRECHECK_CELLS ? { knownSolution: solution } : {};
  const human = difficulty(clues, { forcedCells: false, ...knownSolution, ...(expired ? { shouldStop: expired } : {}) });
  if (!human.unique) return expired && human.search_incomplete && expired() ? { skipped: true } : { rejected: true };
  const puzzle: Puzzle = {
    id: puzzleId(clues),
    width,
    height,
    rows: clues.rows,
    cols: clues.cols,
    solution: gridToRows(solution),
    seed,
    metrics: changes >= 0 ? { human, perturb: { changes } } : { human },
  };
  if (hooks.extraMetrics) puzzle.metrics = { ...puzzle.metrics, ...hooks.extraMetrics(puzzle) };
  return { puzzle };
}

/** The Puzzle record of a candidate if its clues are uniquely solvable, else null. */
export function puzzleFromSeed(width: number, height: number, density: number, seed: number, bernoulli = false, hooks: GenerateHooks = {}): Puzzle | null {
  const outcome = candidateFromSeed(width, height, density, seed, bernoulli, hooks);
  return 'puzzle' in outcome ? outcome.puzzle : null;
}

/** Yield uniquely solvable puzzles one by one (lazily), deterministic per options. */
export function* iteratePuzzles(options: GenerateOptions, hooks: GenerateHooks = {}): Generator<Puzzle, GenerateProgress> {
  const opts = GenerateOptions.parse(options);
  const seen = new Set<string>();
  const progress: GenerateProgress = { accepted: 0, candidates: 0, skipped: 0, target: opts.count };
  const maxCandidates = opts.max_candidates ?? Infinity;
  const timeout = opts.timeout_per_candidate;
  if (timeout !== undefined && !hooks.now) throw new RangeError('timeout_per_candidate needs a clock (hooks.now)');
  while (progress.accepted < opts.count && progress.candidates < maxCandidates) {
    const seed = candidateSeed(opts.seed, progress.candidates);
    progress.candidates++;
    const deadline = timeout !== undefined && hooks.now ? hooks.now() + timeout : undefined;
    const outcome = candidateFromSeed(opts.width, opts.height, opts.density, seed, opts.bernoulli ?? false, hooks, deadline, opts.method ?? 'reject');
    if ('skipped' in outcome) progress.skipped++;
    if ('puzzle' in outcome && !seen.has(outcome.puzzle.id)) {
      seen.add(outcome.puzzle.id);
      progress.accepted++;
      hooks.onProgress?.(progress);
      yield outcome.puzzle;
    } else hooks.onProgress?.(progress);
  }
  return progress;
}

/** Generate `count` uniquely solvable puzzles (see `iteratePuzzles`). */
export function generatePuzzles(options: GenerateOptions, hooksOrProgress?: GenerateHooks | ((p: GenerateProgress) => void)): Puzzle[] {
  const hooks = typeof hooksOrProgress === 'function' ? { onProgress: hooksOrProgress } : (hooksOrProgress ?? {});
  return [...iteratePuzzles(options, hooks)];
}

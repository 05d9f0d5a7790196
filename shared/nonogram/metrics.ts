// Human-style difficulty of a puzzle: the weakest reasoning that solves it, and how much of it.
//
// Levels follow the puzzle site's (and pbnsolve's) idea of grading by the weakest propagation that
// solves the puzzle without guessing:
//   1  the overlap rule alone (each block's leftmost/rightmost valid placements), line by line;
//   2  complete line solving (every cell forced by one line's clue and knowledge);
//   3  complete line solving plus single-cell probing (assume a value, a contradiction forces the other);
//   4  needs search (guessing), or the clues have no / several solutions.
// Each level's reasoning includes the previous one's, so the level is well defined. The counts come
// from fixed, deterministic schedules (sweep rows then columns), so they measure the puzzle, not
// a particular human: `line_passes` is the number of row-then-column sweeps of complete line solving
// from a blank grid until its fixpoint, `line_steps` the line applications that set a cell.
// Footholds are lines fully determined by their clue alone (an empty clue, or runs that fill the
// line exactly); `initial_overlap_cells` counts the cells the clues alone force before any crossing.
//
// What it cannot do: model a human's order of attention or the cost of noticing a deduction; the
// levels are coarse (most random 10x10 puzzles are levels 1-2).
import { EMPTY, FILLED, UNKNOWN, cloneGrid, createGrid } from './grid.ts';
import type { Clues, Grid } from './grid.ts';
import { clueSpan, LineCache, solveLineInPlace } from './lineSolver.ts';
import { countSolutions, forcedCells, newStats, probeInPlace, propagateInPlace, unknownCount } from './solver.ts';
import type { ProbeStats } from './solver.ts';
import { solvePuzzle } from './solvePuzzle.ts';

/** The keys of HumanMetrics (shared/schema/puzzle.ts) plus extras, all snake_case. */
export interface HumanDifficulty {
  [key: string]: unknown;
  level: 1 | 2 | 3 | 4;
  line_passes: number;
  line_steps: number;
  footholds: number;
  foothold_cells: number;
  initial_overlap_cells: number;
  overlap_passes: number;
  /** Cells known at the complete line-solving fixpoint (all of them for levels 1-2). */
  line_solved_cells: number;
  probes: number;
  probe_hits: number;
  search_nodes: number;
  /** Number of solutions, capped at 2. */
  solutions: number;
  unique: boolean;
  /** Cells with one value in every solution (only computed when not unique and solvable). */
  forced_cells?: number;
  forced_filled?: number;
  forced_empty?: number;
}

export interface DifficultyOptions {
  /** Compute forced cells when the puzzle is not unique (exact, can be slow). Default true. */
  forcedCells?: boolean;
  /** Search node budget for levels 4 (default 200,000). */
  maxNodes?: number;
  /** Polled during the searches; true stops them (the puzzle is then reported with search_incomplete). */
  shouldStop?: () => boolean;
  /**
   * A grid known to solve the clues (the generator's image). Checked (a `KnownSolutionError` when it
   * does not match them); uniqueness is then decided by `solvePuzzle` with it, exactly and fast on
   * big boards, and the look-ahead search only grades: when it runs out of `maxNodes` the verdict
   * stands (with `search_incomplete`). The metrics are the same as without it whenever the
   * searches finish, except `search_nodes` of a non-unique board with `forcedCells: false`
   * (0: no search ran).
   */
  knownSolution?: Grid;
}

/** Footholds: lines determined by their clue alone; and how many distinct cells they cover. */
export function footholds(clues: Clues): { lines: number; cells: number } {
  const width = clues.cols.length;
  const height = clues.rows.length;
  const marked = new Uint8Array(width * height);
  let lines = 0;
  clues.rows.forEach((clue, r) => {
    if (clue.length === 0 || clueSpan(clue) === width) {
      lines++;
      marked.fill(1, r * width, r * width + width);
    }
  });
  clues.cols.forEach((clue, c) => {
    if (clue.length === 0 || clueSpan(clue) === height) {
      lines++;
      for (let r = 0; r < height; r++) marked[r * width + c] = 1;
    }
  });
  let cells = 0;
  for (let i = 0; i < marked.length; i++) cells += marked[i];
  return { lines, cells };
}

/** Cells forced by the clues alone, each line solved on a blank board (rows and columns united). */
export function initialOverlapCells(clues: Clues): number {
  const width = clues.cols.length;
  const height = clues.rows.length;
  const rowsOnly = createGrid(width, height);
  const colsOnly = createGrid(width, height);
  for (let r = 0; r < height; r++) solveLineInPlace(clues.rows[r], rowsOnly.cells, r * width, width, 1);
  for (let c = 0; c < width; c++) solveLineInPlace(clues.cols[c], colsOnly.cells, c, height, width);
  let n = 0;
  for (let i = 0; i < width * height; i++) if (rowsOnly.cells[i] !== UNKNOWN || colsOnly.cells[i] !== UNKNOWN) n++;
  return n;
}

/** Grade a puzzle by the weakest reasoning that solves it and measure the reasoning it takes. */
export function difficulty(clues: Clues, options: DifficultyOptions = {}): HumanDifficulty {
  const width = clues.cols.length;
  const height = clues.rows.length;
  const total = width * height;
  const foot = footholds(clues);
  const lineStats = newStats();
  const g = createGrid(width, height);
  const consistent = propagateInPlace(clues, g, 'complete', lineStats);
  const m: HumanDifficulty = {
    level: 4,
    line_passes: lineStats.passes,
    line_steps: lineStats.steps,
    footholds: foot.lines,
    foothold_cells: foot.cells,
    initial_overlap_cells: initialOverlapCells(clues),
    overlap_passes: 0,
    line_solved_cells: consistent ? total - unknownCount(g) : 0,
    probes: 0,
    probe_hits: 0,
    search_nodes: 0,
    solutions: 0,
    unique: false,
  };
  if (!consistent) return m;
  if (unknownCount(g) === 0) {
    m.solutions = 1;
    m.unique = true;
    const overlapStats = newStats();
    const o = createGrid(width, height);
    const overlapOk = propagateInPlace(clues, o, 'overlap', overlapStats);
    m.overlap_passes = overlapStats.passes;
    m.level = overlapOk && unknownCount(o) === 0 ? 1 : 2;
    return m;
  }
  // Decide uniqueness first (cheap for most non-unique puzzles), then probe only if it is worth it.
  const maxNodes = options.maxNodes ?? 200_000;
  let search: { count: number; complete: boolean; nodes: number };
  if (options.knownSolution) {
    // Exact and fast on big boards: "is there a solution other than the known one?"
    const exact = solvePuzzle(clues, { limit: 2, knownSolution: options.knownSolution, shouldStop: options.shouldStop });
    if (!exact.complete) {
      m.search_incomplete = true;
      return m;
    }
    search = { count: exact.count, complete: true, nodes: 0 };
    if (exact.count === 2 && options.forcedCells !== false) search = countSolutions(clues, 2, { grid: g, maxNodes, shouldStop: options.shouldStop });
  } else search = countSolutions(clues, 2, { grid: g, maxNodes, shouldStop: options.shouldStop });
  m.search_nodes = search.nodes;
  m.solutions = search.count;
  m.unique = search.complete && search.count === 1;
  if (!search.complete) m.search_incomplete = true;
  if (search.count === 0 && search.complete) return m;
  if (!m.unique && options.forcedCells === false) return m;
  const probeStats: ProbeStats = { probes: 0, probeHits: 0 };
  const probed = cloneGrid(g);
  // Probing and the grading search meet the same lines in the same states again and again: a line
  // cache answers them (the same probes, hits and nodes, step for step; only cheaper).
  const cache = new LineCache();
  const probeOk = probeInPlace(clues, probed, undefined, probeStats, cache);
  m.probes = probeStats.probes;
  m.probe_hits = probeStats.probeHits;
  if (!probeOk) return m;
  if (m.unique) {
    if (unknownCount(probed) === 0) {
      m.level = 3;
      m.search_nodes = 0;
    } else {
      const again = countSolutions(clues, 2, { grid: probed, maxNodes, shouldStop: options.shouldStop, cache });
      m.search_nodes = again.nodes;
      if (!again.complete && options.knownSolution && !options.shouldStop?.()) m.search_incomplete = true; // out of maxNodes: graded as far as it went; unique stands
      else if (!again.complete && options.shouldStop?.()) {
        // Stopped by the caller (not by maxNodes): the grading is unfinished.
        m.unique = false;
        m.search_incomplete = true;
      }
    }
    return m;
  }
  if (search.count === 2) {
    const forced = forcedCells(clues, { grid: probed, maxNodes });
    if (forced) {
      let filled = 0;
      let empty = 0;
      for (let i = 0; i < total; i++) {
        if (forced.cells[i] === FILLED) filled++;
        else if (forced.cells[i] === EMPTY) empty++;
      }
      m.forced_cells = filled + empty;
      m.forced_filled = filled;
      m.forced_empty = empty;
    }
  }
  return m;
}

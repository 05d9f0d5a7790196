// Whole-puzzle reasoning: line propagation to a fixpoint, single-cell probing, and search that counts solutions.
//
// Propagation sweeps the rows, then the columns, re-solving only lines whose cells changed since they
// were last solved, until nothing changes (a fixpoint) or a line has no placement (a contradiction).
// Each line step only ever adds knowledge that holds in every solution extending the current grid,
// so propagation is sound; it is not complete (some puzzles stall with unknown cells left).
//
// Probing: for an unknown cell, assume one value and propagate; a contradiction proves the other
// value. Repeated to a fixpoint it solves more than propagation alone, still without guessing.
//
// Search (countSolutions): propagate, pick an unknown cell in the most-determined row, branch on
// filled then empty, and count leaves that are fully solved, stopping at `limit`. With limit 2 this
// proves uniqueness (count 1) or finds a second solution. The worst case is exponential (Nonogram
// solving is NP-complete), so a node budget can stop it; `complete: false` then says the count is a
// lower bound.
import { cloneGrid, createGrid } from './grid.ts';
import type { Clues, Grid } from './grid.ts';
import { changedPositions, LineCache, overlapSolveLineInPlace, solveLineInPlace } from './lineSolver.ts';

// Cell states, as in grid.ts; local constants because imported bindings can compile to getters in hot loops.
const UNKNOWN = 0;
const FILLED = 1;
const EMPTY = 2;

export type LineRule = 'complete' | 'overlap';

export interface PropagationStats {
  /** Sweeps (rows then columns) in which at least one line step set a cell. */
  passes: number;
  /** Line solver applications that set at least one cell. */
  steps: number;
  /** Line solver applications in total. */
  lineSolves: number;
}

export function newStats(): PropagationStats {
  return { passes: 0, steps: 0, lineSolves: 0 };
}

let dirtyRows = new Uint8Array(0);
let dirtyCols = new Uint8Array(0);

/**
 * Propagate line reasoning on `grid` in place until the fixpoint. Returns false on contradiction
 * (the grid is then partially updated and meaningless). `stats`, if given, is incremented.
 * `changedCell` >= 0 says the grid was at a fixpoint before that one cell was set, so only its row
 * and column need solving at first (incremental propagation, as in search and probing).
 * `cache` (complete rule only) answers repeated line states from a `LineCache` built for these
 * clues: the same fixpoint, step for step, with fewer line solves.
 */
export function propagateInPlace(clues: Clues, grid: Grid, rule: LineRule = 'complete', stats?: PropagationStats, changedCell = -1, cache?: LineCache): boolean {
  const { width, height, cells } = grid;
  if (dirtyRows.length < height) dirtyRows = new Uint8Array(Math.max(height, 64));
  if (dirtyCols.length < width) dirtyCols = new Uint8Array(Math.max(width, 64));
  const dr = dirtyRows;
  const dc = dirtyCols;
  if (changedCell < 0) {
    dr.fill(1, 0, height);
    dc.fill(1, 0, width);
  } else {
    dr.fill(0, 0, height);
    dc.fill(0, 0, width);
    dr[Math.floor(changedCell / width)] = 1;
    dc[changedCell % width] = 1;
  }
  const solveLine = rule === 'complete' ? solveLineInPlace : overlapSolveLineInPlace;
  const cached = rule === 'complete' ? cache : undefined;
  let any = true;
  while (any) {
    any = false;
    let changedThisPass = false;
    for (let r = 0; r < height; r++) {
      if (dr[r] === 0) continue;
      dr[r] = 0;
      const n = cached ? cached.solve(r, clues.rows[r], cells, r * width, width, 1) : solveLine(clues.rows[r], cells, r * width, width, 1);
      if (stats) stats.lineSolves++;
      if (n < 0) return false;
      if (n > 0) {
        changedThisPass = true;
        if (stats) stats.steps++;
        const pos = changedPositions();
        for (let i = 0; i < n; i++) dc[pos[i]] = 1;
      }
    }
    for (let c = 0; c < width; c++) {
      if (dc[c] === 0) continue;
      dc[c] = 0;
      const n = cached ? cached.solve(height + c, clues.cols[c], cells, c, height, width) : solveLine(clues.cols[c], cells, c, height, width);
      if (stats) stats.lineSolves++;
      if (n < 0) return false;
      if (n > 0) {
        changedThisPass = true;
        if (stats) stats.steps++;
        const pos = changedPositions();
        for (let i = 0; i < n; i++) dr[pos[i]] = 1;
      }
    }
    if (changedThisPass && stats) stats.passes++;
    for (let r = 0; r < height && !any; r++) if (dr[r]) any = true;
  }
  return true;
}

export function unknownCount(grid: Grid): number {
  let n = 0;
  const cells = grid.cells;
  for (let i = 0; i < cells.length; i++) if (cells[i] === UNKNOWN) n++;
  return n;
}

export type PropagateStatus = 'contradiction' | 'solved' | 'stalled';

export interface PropagateResult extends PropagationStats {
  status: PropagateStatus;
  grid: Grid;
}

/** Line propagation to a fixpoint from `grid` (default: blank). The input grid is not modified. */
export function propagate(clues: Clues, grid?: Grid, rule: LineRule = 'complete'): PropagateResult {
  const g = grid ? cloneGrid(grid) : createGrid(clues.cols.length, clues.rows.length);
  const stats = newStats();
  const ok = propagateInPlace(clues, g, rule, stats);
  const status: PropagateStatus = !ok ? 'contradiction' : unknownCount(g) === 0 ? 'solved' : 'stalled';
  return { status, grid: g, ...stats };
}

export interface ProbeStats {
  /** Probes tried (cell, value) pairs. */
  probes: number;
  /** Probes that ended in contradiction and so forced the opposite value. */
  probeHits: number;
}

/**
 * Single-cell probing with complete line propagation, in place, to a fixpoint. Returns false on
 * contradiction. Pre: `grid` is already at the line-propagation fixpoint. `cache` (a `LineCache` for
 * these clues) makes the repeated line solves of the probes cheaper; the result is the same.
 */
export function probeInPlace(clues: Clues, grid: Grid, stats?: PropagationStats, probeStats?: ProbeStats, cache?: LineCache): boolean {
  return probeUntil(clues, grid, undefined, stats, probeStats, cache) !== 'contradiction';
}

/**
 * The probing loop, optionally under a budget: for each unknown cell and value, propagate; a failure forces the other
 * value. `stop`, asked before each probe, ends it early ('budget'); otherwise 'contradiction' or 'done' (fixpoint).
 * Pre: `grid` is already at the line-propagation fixpoint.
 */
export function probeUntil(clues: Clues, grid: Grid, stop: (() => boolean) | undefined, stats?: PropagationStats, probeStats?: ProbeStats, cache?: LineCache): 'contradiction' | 'done' | 'budget' {
  const test = cloneGrid(grid);
  const cells = grid.cells;
  let progress = true;
  while (progress) {
    progress = false;
    for (let i = 0; i < cells.length; i++) {
      if (cells[i] !== UNKNOWN) continue;
      for (const value of [FILLED, EMPTY]) {
        if (stop?.()) return 'budget';
        test.cells.set(cells);
        test.cells[i] = value;
        if (probeStats) probeStats.probes++;
        if (!propagateInPlace(clues, test, 'complete', undefined, i, cache)) {
          if (probeStats) probeStats.probeHits++;
          cells[i] = value === FILLED ? EMPTY : FILLED;
          if (!propagateInPlace(clues, grid, 'complete', stats, i, cache)) return 'contradiction';
          progress = true;
          break;
        }
      }
    }
  }
  return 'done';
}

/**
 * Probing on a budget, where it is cheap to be right (the first stage of `solvePuzzle`'s `auto`, as
 * in pbnsolve): only unknown cells with a known 4-neighbour are probed (a probe next to known cells
 * meets them in its row or column at once; a probe in an unknown region rarely fails), each value
 * in turn, through `cache`, and at most `budget` probes in all. A failed probe forces the other
 * value, propagated on `grid` in place. `stall` ends it after that many probes in a row without a
 * failure (the region is not yielding). Returns 'contradiction', 'budget' (stopped by the budget or
 * `stop`) or 'done' (no candidate cell's probe fails any more). Pre: `grid` is at the line fixpoint.
 */
export function probeNear(clues: Clues, grid: Grid, budget: number, cache?: LineCache, probeStats?: ProbeStats, stop?: () => boolean, stall = Infinity): 'contradiction' | 'done' | 'budget' {
  const { width, height, cells } = grid;
  const test = cloneGrid(grid);
  let probes = 0;
  let sinceHit = 0;
  let progress = true;
  while (progress) {
    progress = false;
    for (let i = 0; i < cells.length; i++) {
      if (cells[i] !== UNKNOWN) continue;
      const r = Math.floor(i / width);
      const c = i - r * width;
      const near = (c > 0 && cells[i - 1] !== UNKNOWN) || (c < width - 1 && cells[i + 1] !== UNKNOWN) || (r > 0 && cells[i - width] !== UNKNOWN) || (r < height - 1 && cells[i + width] !== UNKNOWN);
      if (!near) continue;
      for (let value = FILLED; value <= EMPTY; value++) {
        if (probes >= budget || sinceHit >= stall || ((probes & 63) === 63 && stop?.())) return 'budget';
        probes++;
        sinceHit++;
        test.cells.set(cells);
        test.cells[i] = value;
        if (probeStats) probeStats.probes++;
        if (!propagateInPlace(clues, test, 'complete', undefined, i, cache)) {
          if (probeStats) probeStats.probeHits++;
          sinceHit = 0;
          cells[i] = value === FILLED ? EMPTY : FILLED;
          if (!propagateInPlace(clues, grid, 'complete', undefined, i, cache)) return 'contradiction';
          progress = true;
          break;
        }
      }
    }
  }
  return 'done';
}

export interface CountOptions {
  /** Start from this partial grid instead of a blank one (not modified). */
  grid?: Grid;
  /** Stop after this many search nodes; the result then says complete: false. */
  maxNodes?: number;
  /** Probe every unknown cell at each node to force cells and pick the branch (default: on above 225 cells). */
  lookahead?: boolean;
  /** Called with each solution found, in order (the grid is the caller's to keep). */
  onSolution?: (solution: Grid) => void;
  /** Polled once per search node; true stops the search (the result then says complete: false). */
  shouldStop?: () => boolean;
  /** Line solves through this cache (built for these clues): the same search, cheaper. */
  cache?: LineCache;
}

export interface CountResult {
  /** Solutions found, at most `limit`. */
  count: number;
  /** The first solution found. */
  solution?: Grid;
  /** Search nodes (propagations) visited. */
  nodes: number;
  /** False if the node budget stopped the search before it could decide. */
  complete: boolean;
}

/** Pick the branching cell: first unknown cell of the row with the fewest (but some) unknowns. */
function branchCell(grid: Grid): number {
  const { width, height, cells } = grid;
  let best = -1;
  let bestUnknown = width + 1;
  for (let r = 0; r < height; r++) {
    let u = 0;
    let first = -1;
    for (let c = 0, p = r * width; c < width; c++, p++) {
      if (cells[p] === UNKNOWN) {
        if (first < 0) first = p;
        u++;
      }
    }
    if (u > 0 && u < bestUnknown) {
      bestUnknown = u;
      best = first;
      if (u === 1) break;
    }
  }
  return best;
}

/**
 * Look-ahead at a search node (failed-literal probing plus branching choice): every unknown cell is
 * tried both ways with incremental propagation; a value that fails forces the other one. Returns -2
 * if the node is contradictory, -1 if it is solved, else the cell whose two branches both determine
 * the most cells (max of min(filled gain, empty gain)), the classic look-ahead heuristic.
 * (Skipping probes implied by earlier successful probes, as SAT look-ahead solvers do, made it faster
 * per node but chose worse branches near density 0.4, so every unknown cell is probed.)
 */
function lookahead(clues: Clues, g: Grid, test: Grid, cache?: LineCache): number {
  const cells = g.cells;
  const tcells = test.cells;
  const total = cells.length;
  /** Probe (i, value): -1 if it fails, else the number of cells it determines. */
  const probe = (i: number, value: number, unknown: number): number => {
    tcells.set(cells);
    tcells[i] = value;
    if (!propagateInPlace(clues, test, 'complete', undefined, i, cache)) return -1;
    return unknown - unknownCount(test);
  };
  for (;;) {
    let best = -1;
    let bestScore = -1;
    let forced = false;
    let unknown = unknownCount(g);
    if (unknown === 0) return -1;
    for (let i = 0; i < total; i++) {
      if (cells[i] !== UNKNOWN) continue;
      const gainF = probe(i, FILLED, unknown);
      const gainE = gainF < 0 ? 0 : probe(i, EMPTY, unknown);
      if (gainF < 0 || gainE < 0) {
        cells[i] = gainF < 0 ? EMPTY : FILLED;
        if (!propagateInPlace(clues, g, 'complete', undefined, i, cache)) return -2;
        forced = true;
        unknown = unknownCount(g);
        if (unknown === 0) return -1;
        continue;
      }
      const score = Math.min(gainF, gainE) * 1024 + Math.max(gainF, gainE);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    if (!forced) return best >= 0 ? best : branchCell(g);
  }
}

/** Count solutions of the clues up to `limit` (limit 2 decides uniqueness) and return the first. */
export function countSolutions(clues: Clues, limit = 2, options: CountOptions = {}): CountResult {
  const maxNodes = options.maxNodes ?? Infinity;
  const root = options.grid ? cloneGrid(options.grid) : createGrid(clues.cols.length, clues.rows.length);
  const result: CountResult = { count: 0, nodes: 0, complete: true };
  const useLookahead = options.lookahead ?? root.cells.length > 225;
  const test = cloneGrid(root);
  // Each stack entry is a grid at a fixpoint except for one just-set cell (-1 at the root).
  const stack: Grid[] = [root];
  const setCell: number[] = [-1];
  while (stack.length > 0) {
    if (result.nodes >= maxNodes || (options.shouldStop && options.shouldStop())) {
      result.complete = false;
      break;
    }
    const g = stack.pop() as Grid;
    const changed = setCell.pop() as number;
    result.nodes++;
    if (!propagateInPlace(clues, g, 'complete', undefined, changed, options.cache)) continue;
    let cell = branchCell(g);
    if (cell >= 0 && useLookahead) {
      cell = lookahead(clues, g, test, options.cache);
      if (cell === -2) continue;
    }
    if (cell < 0) {
      result.count++;
      if (!result.solution) result.solution = g;
      options.onSolution?.(g);
      if (result.count >= limit) break;
      continue;
    }
    const other = cloneGrid(g);
    other.cells[cell] = EMPTY;
    g.cells[cell] = FILLED;
    stack.push(other, g); // filled is popped first
    setCell.push(cell, cell);
  }
  return result;
}

/** The solution if the clues have exactly one, else null (none, several, or budget exhausted). */
export function solve(clues: Clues, options: CountOptions = {}): Grid | null {
  const r = countSolutions(clues, 2, options);
  return r.complete && r.count === 1 && r.solution ? r.solution : null;
}

/**
 * Cells with the same value in every solution (Foote & Krizanc's "inferable" cells), as a grid:
 * FILLED/EMPTY where forced, UNKNOWN where solutions disagree. Null if there is no solution or the
 * node budget ran out. Exact; each undecided cell after probing costs up to two searches.
 */
export function forcedCells(clues: Clues, options: CountOptions = {}): Grid | null {
  const g = options.grid ? cloneGrid(options.grid) : createGrid(clues.cols.length, clues.rows.length);
  if (!propagateInPlace(clues, g, 'complete')) return null;
  if (!probeInPlace(clues, g)) return null;
  const first = countSolutions(clues, 1, { grid: g, maxNodes: options.maxNodes });
  if (!first.complete) return null;
  if (first.count === 0 || !first.solution) return null;
  const sol = first.solution.cells;
  const test = cloneGrid(g);
  for (let i = 0; i < g.cells.length; i++) {
    if (g.cells[i] !== UNKNOWN) continue;
    test.cells.set(g.cells);
    test.cells[i] = sol[i] === FILLED ? EMPTY : FILLED;
    const other = countSolutions(clues, 1, { grid: test, maxNodes: options.maxNodes });
    if (!other.complete) return null;
    if (other.count === 0) g.cells[i] = sol[i];
  }
  // Cells still UNKNOWN in g have both values in some solution; everything else is forced.
  return g;
}

// Exact solution counting for boards of any size: line logic, then CDCL on a CNF whose unit propagation is the complete line solver.
/*
 * The question is "how many solutions, up to `limit` (2 decides uniqueness), and which?". Three
 * engines answer it, each exactly:
 *
 *   line  line propagation to the fixpoint, probing every cell to its fixpoint, then the
 *         look-ahead search of `countSolutions` (solver.ts). Strong per node, but it never learns:
 *         on big boards near density 0.3-0.45 it thrashes in subtrees that are dead for a global
 *         reason no single line sees.
 *   sat   the embedded MiniSat (shared/sat/solver.ts, unchanged) on the line-GAC encoding
 *         (shared/sat/lineGac.ts: each line is a layered automaton graph, and unit propagation on
 *         it derives exactly what the complete line solver derives). So the CDCL search does line
 *         logic at every node, like the `line` engine, and also learns: every conflict is
 *         explained by the cells (and automaton states) behind it, and the learnt clause prunes
 *         that reason everywhere. Decisions are on cells only (once the cells are set,
 *         propagation sets every state). A model gives a solution; the clause "some cell differs
 *         from it" (over the cells not already known) is added and the solver asked again,
 *         `limit` times at most. UNSAT after k solutions proves there are exactly k. Learnt
 *         clauses carry over between the calls, and MiniSat's saved phases start the next call at
 *         the last solution, so a second solution near the first is found in a few conflicts.
 *   auto  (default) the cheap certain steps first, like pbnsolve and nonogrid: line propagation
 *         (settles most boards above density 0.55 alone: contradiction = 0, all cells known = 1).
 *         If it set at least one cell, a short chronological search (32 nodes: it finds two
 *         solutions at once on the many boards near density 0.5 whose freedom is a handful of
 *         local swaps); if it set none (the hard band: random boards at 0.30-0.45), that almost
 *         never settles anything, so it is skipped, and so is probing. Then cheap probing (issue
 *         41: "assume a value, propagate"; a failure forces the other value), only on cells next to
 *         known ones, at most a quarter of the cells (`probeBudget`), stopping after 8 probes in a
 *         row that force nothing, on a copy; if it forced cells, the short search again. Full
 *         probing (2 probes per cell) used to run here and cost more than it saved (20x20 at 0.45:
 *         median 49-55 ms with it, 12-17 ms without), since the SAT stage's propagation is line
 *         logic at every node anyway. The short search and probing solve lines through a
 *         `LineCache`. Then the `sat` engine, on the CNF restricted to the known cells (the probed
 *         ones only when probing fixed at least half of what line logic left; else CDCL's input is
 *         what it was without probing: on the hard band extra units reshuffle the search and cost
 *         as often as they save): they are units, and each line's automaton keeps
 *         only the states that agree with them, so the CNF describes the unknown part only.
 *
 * Before, the SAT stage used the paper's block-start encoding (He et al., Appendix A), on which
 * unit propagation cannot even see a block's overlap cells; it needed 10-100x the conflicts (on
 * random 20x20 boards at 0.30-0.40, medians of about 5,000 conflicts against 30-300 now).
 *
 * Why both sides are exact. Every step before the SAT call only sets cells that hold in every
 * solution (sound inference), so restricting the CNF to them loses no solution; the encoding's
 * models projected on the cells are exactly the boards matching the clues (brute force in
 * shared/sat/lineGac.test.ts, with and without known cells), so SAT gives a real solution and
 * UNSAT after the blocking clauses proves none other exists. Every solution reported is also
 * re-checked against the clues (`cluesOf`) before it leaves this file.
 *
 * A known solution. The generator (and from-image) knows the grid its clues came from, and then
 * the hard part, finding a first solution, is not needed at all: `knownSolution` (checked first;
 * a grid that does not match the clues is refused with a `KnownSolutionError`) is the first
 * solution, and the one question left is "is there a solution other than it?": line logic, then
 * the SAT stage with the known grid's blocking clause and the solver's saved phases set to the
 * known grid. The search then starts at the known solution; a second solution that differs in a
 * few cells is found within a few conflicts, and "none other" is refuted by conflicts near it.
 * Probing and the short search are skipped (they cost more than the question). The phases only
 * order the search, so the answer is as exact as without them (tests: brute force, with and
 * without the known solution). Tests: brute force on small boards,
 * the look-ahead search on 400 seeded boards with 0, 1 and 2+ solutions, and native MiniSat on
 * the block-start CNF for 20x20 and 30x30 verdicts.
 *
 * What it cannot do. Nonogram solving is NP-complete: random 30x30 boards near density 0.40 and
 * 50x50 boards at 0.5 can take this CDCL search 10^4-10^5 conflicts to find the first solution.
 * The `deadline` (with an injected clock; nothing here reads the time itself), `conflictBudget`
 * and `maxNodes` stop the work, and the result then says `complete: false` with the count so far.
 */
import { cloneGrid, cluesOf, createGrid, EMPTY, FILLED, UNKNOWN } from './grid.ts';
import type { Clues, Grid } from './grid.ts';
import { countSolutions, probeNear, probeUntil, propagateInPlace, unknownCount } from './solver.ts';
import { LineCache } from './lineSolver.ts';

/** Cheap probing in `auto` stops after this many probes in a row that force nothing (see `probeNear`). */
const PROBE_STALL = 8;
import { cellMarginals } from './marginals.ts';
import { emitLineGac } from '../sat/lineGac.ts';
import { L_FALSE, L_TRUE, Solver, fromDimacs } from '../sat/solver.ts';
import { CnfBuilder } from '../sat/flatCnf.ts';

/** The SAT stage's CNF, written here first (reused between calls; JS is single-threaded). */
const gacBuffer = new CnfBuilder();

export type SolveEngine = 'line' | 'sat' | 'auto';
export type SettledBy = 'line' | 'probe' | 'search' | 'sat';

export interface SolvePuzzleOptions {
  /** Count solutions up to this many (default 2: decides uniqueness). */
  limit?: number;
  engine?: SolveEngine;
  /**
   * A grid known to solve the clues (the generator's image, a picture being made unique). It is
   * checked first: a grid that does not match the clues throws a `KnownSolutionError` naming the
   * first line that differs. With it no first solution is searched for: it is the first solution,
   * and the question becomes "is there another?" (see the essay). `engine: 'line'` only checks it.
   */
  knownSolution?: Grid;
  /**
   * With `knownSolution` only: cells known to hold in every solution (a partial grid; what line
   * solving and probing of these clues set, as `makeUnique` has it at hand). They start the search
   * as units, so the SAT stage's CNF covers only the rest. Each must agree with `knownSolution`
   * (else a `KnownSolutionError`); a cell that does not hold in every solution would make the count wrong.
   */
  forced?: Grid;
  /** Stop when `now()` passes this (same units as `now`); needs `now`. */
  deadline?: number;
  now?: () => number;
  /** Polled between steps (every 64 probes, every slice of conflicts); true stops the work like a deadline. */
  shouldStop?: () => boolean;
  /**
   * Probes (one cell, one value, propagate) allowed in `auto` when line logic set a cell and the
   * short search did not settle the board: cells next to known ones only, and the probing stops
   * after 8 probes in a row that force nothing (default: a quarter of the cells; see the essay).
   */
  probeBudget?: number;
  /** Chronological search nodes tried in `auto` before the SAT call, when line logic set a cell (default 32). */
  searchNodes?: number;
  /** Search nodes for the `line` engine (default unlimited). */
  maxNodes?: number;
  /** Conflicts allowed to the SAT solver in total (default unlimited). */
  conflictBudget?: number;
  /**
   * The SAT stage's first phases when no solution is known: 'empty' (default) is MiniSat's own
   * start (every cell empty); 'marginals' points each unknown cell at its more likely value by
   * belief propagation (marginals.ts). Measured (docs/solve.md): fewer conflicts on some 20x20
   * boards, more on 30x30 in the hard band, so not the default. Only the search order changes,
   * never the answer.
   */
  phases?: 'marginals' | 'empty';
}

export interface SolvePuzzleStats {
  /** Cells known before any guessing (line logic and probing). */
  knownCells: number;
  probes: number;
  probeHits: number;
  searchNodes: number;
  satCalls: number;
  conflicts: number;
  decisions: number;
  propagations: number;
}

export interface SolvePuzzleResult {
  /** Solutions found, at most `limit`; exact when `complete`. */
  count: number;
  /** False when a deadline or budget stopped the work: `count` is then a lower bound. */
  complete: boolean;
  /** The step that decided the answer (or was running when the work stopped). */
  settledBy: SettledBy;
  /** The distinct solutions found, in order (`count` of them). */
  solutions: Grid[];
  stats: SolvePuzzleStats;
}

/** A `knownSolution` that is not a solution of the clues (wrong size, unknown cells, or a line whose runs differ). */
export class KnownSolutionError extends Error {
  constructor(message: string) {
    super(`knownSolution: ${message}`);
    this.name = 'KnownSolutionError';
  }
}

/** Throws a `KnownSolutionError` saying why `grid` does not solve `clues`; returns quietly when it does. */
export function checkKnownSolution(clues: Clues, grid: Grid): void {
  const why = solutionMismatch(clues, grid);
  if (why !== null) throw new KnownSolutionError(why);
}

/** True iff `grid` is fully known and its lines match the clues. */
export function satisfiesClues(clues: Clues, grid: Grid): boolean {
  return solutionMismatch(clues, grid) === null;
}

/** Why `grid` is not a solution of `clues` (its size, a cell neither filled nor empty, the first line that reads otherwise), or null when it is one. */
function solutionMismatch(clues: Clues, grid: Grid): string | null {
  const width = clues.cols.length;
  const height = clues.rows.length;
  if (grid.width !== width || grid.height !== height || grid.cells.length !== width * height) return `the grid is ${grid.width}x${grid.height}, the clues are for ${width}x${height}`;
  for (let i = 0; i < grid.cells.length; i++) {
    if (grid.cells[i] !== FILLED && grid.cells[i] !== EMPTY) return `cell (row ${Math.floor(i / width) + 1}, col ${(i % width) + 1}) is neither filled nor empty`;
  }
  const own = cluesOf(grid);
  for (let r = 0; r < height; r++) {
    if (own.rows[r].join() !== clues.rows[r].join()) return `row ${r + 1} reads [${own.rows[r].join(' ')}], its clue is [${clues.rows[r].join(' ')}]`;
  }
  for (let c = 0; c < width; c++) {
    if (own.cols[c].join() !== clues.cols[c].join()) return `column ${c + 1} reads [${own.cols[c].join(' ')}], its clue is [${clues.cols[c].join(' ')}]`;
  }
  return null;
}

class Budget {
  constructor(private readonly options: SolvePuzzleOptions) {}
  expired(): boolean {
    const { deadline, now, shouldStop } = this.options;
    return (deadline !== undefined && now !== undefined && now() >= deadline) || (shouldStop !== undefined && shouldStop());
  }
}

/** Count the solutions of `clues` up to `limit`, exactly, by the chosen engine (see the essay above). */
export function solvePuzzle(clues: Clues, options: SolvePuzzleOptions = {}): SolvePuzzleResult {
  const limit = options.limit ?? 2;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  const engine = options.engine ?? 'auto';
  const width = clues.cols.length;
  const height = clues.rows.length;
  const n = width * height;
  const budget = new Budget(options);
  const stats: SolvePuzzleStats = { knownCells: 0, probes: 0, probeHits: 0, searchNodes: 0, satCalls: 0, conflicts: 0, decisions: 0, propagations: 0 };
  const solutions: Grid[] = [];
  const done = (complete: boolean, settledBy: SettledBy): SolvePuzzleResult => {
    for (const s of solutions) if (!satisfiesClues(clues, s)) throw new Error('internal error: a reported solution does not match the clues');
    return { count: solutions.length, complete, settledBy, solutions, stats };
  };
  const known = options.knownSolution;
  if (known) checkKnownSolution(clues, known);

  const grid = createGrid(width, height);
  if (options.forced) {
    const forced = options.forced;
    if (!known) throw new RangeError('forced needs knownSolution');
    if (forced.width !== width || forced.height !== height) throw new KnownSolutionError(`forced is ${forced.width}x${forced.height}, the clues are for ${width}x${height}`);
    for (let i = 0; i < n; i++) {
      const v = forced.cells[i];
      if (v === UNKNOWN) continue;
      if (v !== known.cells[i]) throw new KnownSolutionError(`forced cell (row ${Math.floor(i / width) + 1}, col ${(i % width) + 1}) differs from the known solution`);
      grid.cells[i] = v;
    }
  }
  if (known && engine !== 'line') {
    // The generator's question: the image solves the clues; is there another solution? Line
    // logic first (cheap, and its cells become units), then one SAT question with the image
    // blocked and the solver's phases at the image (no search for a first solution at all).
    if (engine === 'auto') {
      propagateInPlace(clues, grid, 'complete'); // consistent: the image is a solution
      stats.knownCells = n - unknownCount(grid);
      if (stats.knownCells === n) {
        solutions.push(grid);
        return done(true, 'line');
      }
    }
    return satCount(clues, grid, limit, known, solutions, budget, options.conflictBudget ?? -1, stats, done);
  }
  if (engine !== 'sat') {
    // Line solves in the search and probing go through a cache (pbnsolve's): the same line in the
    // same state comes back after every backtrack and in every probe. Not in the first sweep, which
    // meets each line once (there the cache would only cost).
    const cache = new LineCache();
    if (!propagateInPlace(clues, grid, 'complete')) return done(true, 'line');
    stats.knownCells = n - unknownCount(grid);
    if (stats.knownCells === n) {
      solutions.push(grid);
      return done(true, 'line');
    }
    // In `auto`, the short search and probing only run when line logic found a foothold: on a
    // board where it sets no cell they almost never settle anything, and the SAT stage's
    // propagation already does line logic at every node. The `line` engine probes every cell to
    // its fixpoint, then searches with look-ahead to the end.
    const foothold = engine === 'line' || stats.knownCells > 0;
    if (engine === 'line') {
      const probed = probeUntil(clues, grid, () => (stats.probes & 63) === 0 && budget.expired(), undefined, stats, cache);
      if (probed === 'contradiction') return done(true, 'probe');
      stats.knownCells = n - unknownCount(grid);
      if (stats.knownCells === n) {
        solutions.push(grid);
        return done(true, 'probe');
      }
      if (probed === 'budget') return done(false, 'probe');
    }
    const seen = new Set<string>();
    const shortSearch = (maxNodes: number) => {
      const search = countSolutions(clues, limit, {
        grid,
        maxNodes,
        lookahead: engine === 'line' ? undefined : false,
        onSolution: (g) => {
          const key = g.cells.join('');
          if (seen.has(key) || solutions.length >= limit) return;
          seen.add(key);
          solutions.push(cloneGrid(g));
        },
        shouldStop: () => budget.expired(),
        cache,
      });
      stats.searchNodes += search.nodes;
      return search.complete || solutions.length >= limit;
    };
    if (shortSearch(engine === 'line' ? (options.maxNodes ?? Infinity) : foothold ? (options.searchNodes ?? 32) : 0)) return done(true, 'search');
    if (engine === 'line') return done(false, 'search');
    // The first stage's second half (auto, with a foothold): cheap probing (`probeNear`: cells next
    // to known ones, on a budget, stopping when it stops forcing cells), on a copy of the grid. If
    // it learnt anything, the short search gets a second go on the sharper grid. If neither settles
    // the board, the SAT stage takes the probed grid's cells as units only when probing fixed at
    // least half of what line logic left (then little is left for CDCL); otherwise it gets the line
    // fixpoint and the first search's solutions, exactly as without probing: on the hard band
    // (25x25 and 30x30 near 0.40, a cell or two known) a few more units reshuffle CDCL's search and
    // were measured to cost as often as they save. (Probing after the first short search, not
    // before, so a board that search settles is settled exactly as before.)
    if (foothold && !budget.expired()) {
      const before = unknownCount(grid);
      const probedGrid = cloneGrid(grid);
      const probed = probeNear(clues, probedGrid, options.probeBudget ?? Math.ceil(n / 4), cache, stats, () => budget.expired(), PROBE_STALL);
      if (probed === 'contradiction') {
        // Sound inference refuted every completion: only possible when no solution exists, and
        // then the short search found none (and had it finished, it would have said so).
        return done(true, 'probe');
      }
      const unknown = unknownCount(probedGrid);
      if (unknown === 0) {
        stats.knownCells = n;
        if (solutions.length === 0) solutions.push(probedGrid);
        return done(true, 'probe');
      }
      if (unknown < before) {
        const kept = solutions.length;
        const line = cloneGrid(grid);
        grid.cells.set(probedGrid.cells);
        if (shortSearch(options.searchNodes ?? 32)) {
          stats.knownCells = n - unknown;
          return done(true, 'search');
        }
        if (unknown * 2 <= before) stats.knownCells = n - unknown;
        else {
          grid.cells.set(line.cells);
          for (const s of solutions.splice(kept)) seen.delete(s.cells.join(''));
        }
      }
    }
    // The short search's solutions are kept: the SAT calls below block them first.
  }
  return satCount(clues, grid, limit, undefined, solutions, budget, options.conflictBudget ?? -1, stats, done, options.phases ?? 'empty');
}

/** The SAT stage: the line-GAC CNF (lineGac.ts) restricted to the known cells, then solve and block until UNSAT or `limit`. */
function satCount(
  clues: Clues,
  known: Grid,
  limit: number,
  knownSolution: Grid | undefined,
  solutions: Grid[],
  budget: Budget,
  conflictBudget: number,
  stats: SolvePuzzleStats,
  done: (complete: boolean, settledBy: SettledBy) => SolvePuzzleResult,
  phases: 'marginals' | 'empty' = 'empty',
): SolvePuzzleResult {
  const width = known.width;
  const n = known.cells.length;
  // The CNF is written to a reusable flat buffer first, so the solver is created with room for all
  // of it: one WebAssembly memory and one kernel instance instead of a dozen regrowths (capacity is
  // preallocation only: the search is the same).
  const cnf = gacBuffer.clear();
  const numVars = emitLineGac(clues, (clause, len) => {
    for (let i = 0; i < len; i++) cnf.lit(clause[i]);
    cnf.end();
  }, known.cells);
  const solver = new Solver({ capacity: { vars: Math.max(n, numVars), literals: cnf.nLits + 2 * cnf.nClauses, watches: 16 * Math.max(n, numVars) + 4 * cnf.nClauses } });
  const free: number[] = [];
  for (let i = 0; i < n; i++) if (known.cells[i] === UNKNOWN) free.push(i);
  while (solver.nVars() < n) solver.newVar();
  const finish = (complete: boolean) => {
    const s = solver.stats();
    stats.conflicts = s.conflicts;
    stats.decisions = s.decisions;
    stats.propagations = s.propagations;
    return done(complete, 'sat');
  };
  // The known cells come first as units, and each line's automaton graph keeps only the states
  // that agree with them (see lineGac.ts), so the CNF only describes the unknown part.
  {
    const { lits: flat, ends } = cnf;
    let lits = new Int32Array(64);
    let start = 0;
    for (let c = 0; c < cnf.nClauses && solver.ok; c++) {
      const end = ends[c];
      const len = end - start;
      if (lits.length < len) lits = new Int32Array(len * 2);
      let maxVar = 0;
      for (let i = 0; i < len; i++) {
        const l = flat[start + i];
        const v = l < 0 ? -l : l;
        if (v > maxVar) maxVar = v;
        lits[i] = l > 0 ? 2 * (l - 1) : 2 * (-l - 1) + 1;
      }
      start = end;
      while (solver.nVars() < maxVar) solver.newVar();
      solver.addClause(lits, len);
    }
  }
  if (!solver.ok) return finish(true);
  // Decisions on cells only: once every cell is set, propagation sets every state (lineGac.ts).
  for (let v = n; v < solver.nVars(); v++) solver.setDecisionVar(v, false);
  const block = (g: Grid): boolean => {
    const lits = free.map((i) => fromDimacs(g.cells[i] === FILLED ? -(i + 1) : i + 1));
    return solver.addClause(lits);
  };
  if (knownSolution) {
    // The known solution is the first; the saved phases point at it, so the search for a second
    // starts there and a solution differing in a few cells is found in a few conflicts, while
    // "none other" is refuted near it. Phases only order the search: both answers stay exact.
    solutions.push(cloneGrid(knownSolution));
    for (const i of free) solver.setPolarity(i, knownSolution.cells[i] !== FILLED);
  } else if (phases === 'marginals' && solutions.length === 0) {
    const p = cellMarginals(clues, known);
    for (const i of free) solver.setPolarity(i, p[i] < 0.5);
  }
  if (solutions.length >= limit) return finish(true);
  for (const s of solutions) if (!block(s)) return finish(true);
  // Conflict slices between deadline checks: short at first (a timeout is honoured promptly even
  // on big boards), then up to 2,000 (each call restarts MiniSat's Luby sequence; learnt clauses stay).
  let slice = 100;
  let spent = 0;
  while (solutions.length < limit) {
    if (budget.expired()) return finish(false);
    const allowance = conflictBudget < 0 ? slice : Math.min(slice, conflictBudget - spent);
    slice = Math.min(2000, slice * 2);
    if (allowance <= 0) return finish(false);
    stats.satCalls++;
    const before = solver.conflicts;
    const status = solver.solveLimited([], allowance);
    spent += solver.conflicts - before;
    if (status === L_FALSE) return finish(true);
    if (status !== L_TRUE) continue;
    const g = createGrid(width, known.height);
    for (let i = 0; i < n; i++) g.cells[i] = solver.modelValue(i) === L_TRUE ? FILLED : EMPTY;
    solutions.push(g);
    if (solutions.length < limit && !block(g)) return finish(true);
  }
  return finish(true);
}

// Inference by SAT under assumptions (Foote & Krizanc): the cells whose value is the same in every solution.
/*
 * A cell is forced (inferable) when the board's formula is unsatisfiable under the assumption of
 * the cell's other value. One incremental solver answers all questions (the encoding is loaded
 * once, learnt clauses carry over between calls, as in the paper's setting): solve once for a
 * model M; then for each cell c still open, solve assuming ¬M(c). UNSAT means c is forced to
 * M(c) and c's value is added as a unit clause (true in every solution, so sound; it makes later
 * questions easier). SAT gives another solution, and every open cell on which it differs from M
 * is free: it is never asked. Cells the caller already knows (`known`, e.g. from line solving)
 * are units from the start and never asked either.
 * Before each call the saved phase of every open cell is set to the value M does not have
 * (MiniSat's `setPolarity`), so a model found tends to differ from M on many open cells at once
 * and frees them all; the answers do not depend on it, only the number of calls.
 * Cells forced filled and cells forced empty are counted separately (the published experiment
 * counted only forced-filled ones). A puzzle has a unique solution iff every cell is forced.
 * Cost: at most one solve per cell plus one; each can be exponential in the worst case (the
 * problem is NP-hard), so a conflict budget per call can be given: a cell whose call runs out is
 * reported as undecided rather than guessed (a later model that differs from M on it still frees
 * it). A first call that runs out leaves every cell undecided, unless the caller knows a solution
 * (`solution`, e.g. the random board the clues were taken from): then that solution is M and the
 * loop goes on from it, so a budgeted run of a big board still settles what the budget allows.
 * Where the time goes (measured, docs/phase-transition.md): near the threshold the calls together
 * amount to a proof of the board's backbone, and its size, not the number of calls, is the cost;
 * starting from a known solution instead of the plain solve does not shrink it (the plain solve's
 * learnt clauses are what make the later UNSAT answers quick), which is why the known solution is
 * used only when the plain solve runs out of budget.
 * `forcedCellsReference` is the earlier, unsteered loop, kept for the tests and bench.
 */
import { EMPTY, FILLED, UNKNOWN, type Clues, type Grid } from '../nonogram/grid.ts';
import { encodeBlockStart } from './blockStart.ts';
import { encodeDfa } from './dfa.ts';
import { encodeLineGac } from './lineGac.ts';
import { L_FALSE, L_TRUE, L_UNDEF, fromDimacs, loadCnf, type SatResult, type SolverStats } from './solver.ts';

export type Encoding = 'block-start' | 'dfa' | 'line-gac';

export interface ForcedCellsOptions {
  encoding?: Encoding;
  /**
   * Cells the caller already knows to hold in every solution (FILLED or EMPTY; e.g. from line
   * solving): they are added as unit clauses and reported as forced without being asked.
   */
  known?: Grid;
  /** Conflict budget per solver call (default: none). */
  conflictBudget?: number;
  /**
   * A known solution of the clues (FILLED/EMPTY per cell), used as the first model when the plain
   * first call runs out of budget (then `firstSolve.result` is 'UNKNOWN' and the inference goes on).
   * A grid that does not satisfy the clues is refused with a RangeError.
   */
  solution?: Grid;
}

export interface ForcedCellsResult {
  /** False when the clues have no solution (then nothing is reported as forced). */
  solvable: boolean;
  /** Forced cells: FILLED or EMPTY; UNKNOWN where both values occur in solutions (or undecided). */
  grid: Grid;
  forcedFilled: number;
  forcedEmpty: number;
  /** Cells whose call ran out of budget (always 0 without a budget). */
  undecided: number;
  /** True iff every cell is forced (the puzzle has exactly one solution). */
  unique: boolean;
  /** Solver calls made and their summed statistics. */
  solves: number;
  stats: SolverStats;
  /** The first call alone: a plain solve of the CNF, so these equal `satMetrics` (same encoding, same budget). */
  firstSolve: SolverStats & { result: SatResult };
}

export function encode(clues: Clues, encoding: Encoding = 'block-start') {
  return encoding === 'dfa' ? encodeDfa(clues) : encoding === 'line-gac' ? encodeLineGac(clues) : encodeBlockStart(clues);
}

/** Per-cell state of the inference. */
const CANDIDATE = 0;
const FREE = 1;
const FORCED = 2;
const UNDECIDED = 3;

/** What both inference loops start from: the board's CNF loaded into one solver, an empty result and its grid. */
function startInference(clues: Clues, options: ForcedCellsOptions) {
  const height = clues.rows.length;
  const width = clues.cols.length;
  const cnf = encode(clues, options.encoding);
  const solver = loadCnf(cnf);
  while (solver.nVars() < cnf.numVars) solver.newVar();
  const budget = options.conflictBudget ?? -1;
  const grid: Grid = { width, height, cells: new Uint8Array(width * height) };
  const result: ForcedCellsResult = { solvable: false, grid, forcedFilled: 0, forcedEmpty: 0, undecided: 0, unique: false, solves: 0, stats: solver.stats(), firstSolve: { ...solver.stats(), result: 'UNKNOWN' } };
  const finish = () => {
    result.stats = solver.stats();
    return result;
  };
  return { height, width, solver, budget, grid, result, finish };
}

export function forcedCells(clues: Clues, options: ForcedCellsOptions = {}): ForcedCellsResult {
  const { height, width, solver, budget, grid, result, finish } = startInference(clues, options);
  const n = width * height;
  const state = new Uint8Array(n);
  if (options.known && (options.known.width !== width || options.known.height !== height)) throw new RangeError(`known grid is ${options.known.width}x${options.known.height}, the clues are ${width}x${height}`);
  // The first call is a plain solve of the board's CNF (its statistics are satMetrics'); the
  // known cells become units only after it.
  result.solves++;
  const first = solver.solveLimited([], budget);
  const firstStats = solver.stats();
  result.firstSolve = { ...firstStats, result: first === L_TRUE ? 'SAT' : first === L_FALSE ? 'UNSAT' : 'UNKNOWN' };
  let started = first;
  if (first !== L_FALSE && options.solution) {
    const sol = options.solution;
    if (sol.width !== width || sol.height !== height) throw new RangeError(`solution grid is ${sol.width}x${sol.height}, the clues are ${width}x${height}`);
    if (first === L_UNDEF) {
      // Check the known solution (every cell assumed: each line on its own, no budget needed) and take it as M.
      const assumptions = Array.from(sol.cells, (c, i) => fromDimacs(c === FILLED ? i + 1 : -(i + 1)));
      result.solves++;
      started = solver.solveLimited(assumptions);
      if (started !== L_TRUE) throw new RangeError('solution: the grid does not satisfy the clues');
    }
  }
  if (started === L_TRUE && options.known) {
    for (let i = 0; i < n; i++) {
      const k = options.known.cells[i];
      if (k === FILLED || k === EMPTY) {
        solver.addClause([fromDimacs(k === FILLED ? i + 1 : -(i + 1))]);
        state[i] = FORCED;
      }
    }
  }
  if (started !== L_TRUE) {
    result.undecided = started === L_FALSE ? 0 : width * height;
    return finish();
  }
  result.solvable = true;
  const model = new Uint8Array(n);
  for (let i = 0; i < n; i++) model[i] = solver.modelValue(i) === L_TRUE ? 1 : 0;
  // Every later model: each open or undecided cell on which it differs from the first is free.
  const harvest = () => {
    for (let k = 0; k < n; k++) if ((state[k] === CANDIDATE || state[k] === UNDECIDED) && (solver.modelValue(k) === L_TRUE ? 1 : 0) !== model[k]) state[k] = FREE;
  };
  for (let i = 0; i < n; i++) {
    if (state[i] !== CANDIDATE) continue;
    // Steer the search away from the first model on every open cell, so that a model found
    // frees as many cells as it can (the answer does not depend on it, only the time).
    for (let k = i; k < n; k++) if (state[k] === CANDIDATE) solver.setPolarity(k, model[k] === 1);
    const assume = fromDimacs(model[i] ? -(i + 1) : i + 1);
    result.solves++;
    const status = solver.solveLimited([assume], budget);
    if (status === L_FALSE) {
      solver.addClause([assume ^ 1]);
      state[i] = FORCED;
    } else if (status === L_TRUE) harvest();
    else state[i] = UNDECIDED;
  }
  for (let i = 0; i < n; i++) {
    if (state[i] === FORCED) {
      grid.cells[i] = model[i] ? FILLED : EMPTY;
      if (model[i]) result.forcedFilled++;
      else result.forcedEmpty++;
    } else if (state[i] === UNDECIDED) result.undecided++;
  }
  result.unique = result.forcedFilled + result.forcedEmpty === n;
  return finish();
}

/** The earlier implementation, kept as the reference the tests and the bench compare with: one assumption per cell in order, models used only for later cells, no steering. */
export function forcedCellsReference(clues: Clues, options: ForcedCellsOptions = {}): ForcedCellsResult {
  const { height, width, solver, budget, grid, result, finish } = startInference(clues, options);
  const n = width * height;
  if (options.known) {
    if (options.known.width !== width || options.known.height !== height) throw new RangeError(`known grid is ${options.known.width}x${options.known.height}, the clues are ${width}x${height}`);
    for (let i = 0; i < n; i++) {
      const k = options.known.cells[i];
      if (k === FILLED || k === EMPTY) solver.addClause([fromDimacs(k === FILLED ? i + 1 : -(i + 1))]);
    }
  }
  result.solves++;
  const first = solver.solveLimited([], budget);
  result.firstSolve = { ...solver.stats(), result: first === L_TRUE ? 'SAT' : first === L_FALSE ? 'UNSAT' : 'UNKNOWN' };
  if (first !== L_TRUE) {
    result.undecided = first === L_FALSE ? 0 : width * height;
    return finish();
  }
  result.solvable = true;
  const model = new Uint8Array(n);
  for (let i = 0; i < n; i++) model[i] = solver.modelValue(i) === L_TRUE ? 1 : 0;
  const free = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (free[i]) continue;
    if (options.known && options.known.cells[i] !== UNKNOWN) {
      if (model[i]) result.forcedFilled++;
      else result.forcedEmpty++;
      grid.cells[i] = model[i] ? FILLED : EMPTY;
      continue;
    }
    const assume = fromDimacs(model[i] ? -(i + 1) : i + 1);
    result.solves++;
    const status = solver.solveLimited([assume], budget);
    if (status === L_FALSE) {
      solver.addClause([assume ^ 1]);
      if (model[i]) {
        grid.cells[i] = FILLED;
        result.forcedFilled++;
      } else {
        grid.cells[i] = EMPTY;
        result.forcedEmpty++;
      }
    } else if (status === L_TRUE) {
      for (let k = i; k < n; k++) if ((solver.modelValue(k) === L_TRUE ? 1 : 0) !== model[k]) free[k] = 1;
    } else {
      grid.cells[i] = UNKNOWN;
      result.undecided++;
    }
  }
  result.unique = result.forcedFilled + result.forcedEmpty === n;
  return finish();
}

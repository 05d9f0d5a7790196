// The seeded Sudoku generator: a random full grid, then clues removed one at a time while the solution stays unique.
/*
 * How. The full grid is the first solution the counter finds on an empty board when it tries each
 * branching cell's digits in a seeded random order. Then every cell is visited once in a seeded
 * random order; its clue is removed if the board without it still has exactly one solution, else
 * kept (the check asks for a solution other than the full grid at that cell: see stillUnique).
 * One pass gives a minimal puzzle (no clue can be removed): a clue that was needed when it was
 * visited is still needed later, because removing other clues only adds solutions.
 *
 * `clues: N` stops the removal as soon as N clues are left; if the pass ends with more (the puzzle
 * became minimal first), it is an error naming the count reached. `symmetric: true` without a
 * grader removes partner pairs (cell i and its 180° rotation N²-1-i, the centre alone) instead of
 * single clues, so the puzzle is symmetric and pair-minimal.
 *
 * `symmetric: true` with a grader (`grade(givens) -> label`): the minimal puzzle is made first as
 * above (single clues) and graded; then it is made symmetric by adding each missing partner. If the
 * full symmetric board keeps the grade, that is the puzzle. Otherwise, where making the board
 * symmetric would move its grade, partner clues are added one at a time (in the seeded order of the
 * clues they mirror) and only those that keep the grade are kept: the result is as symmetric as the
 * grade allows, and `symmetric` in the result says whether it is fully so. With `clues: N` the
 * target applies to the removal; partners added afterwards are counted in `clues`.
 *
 * Deterministic: the same options give the same puzzle on every machine (createRng, no clock).
 */
import { createRng, shuffle } from '../random.ts';
import { type Grid, defaultBox, emptyGrid, gridRows, shapeOf } from './grid.ts';
import { puzzleId } from './formats.ts';
import type { SudokuPuzzle } from './schema.ts';
import { countSolutions } from './solver.ts';

export interface SudokuGenerateOptions {
  /** Side of the board (box from defaultBox) — or give `box`. */
  size?: number;
  /** Box shape [rows, cols]; the side is rows * cols. */
  box?: [number, number];
  seed: number;
  /** Give the board 180° rotational symmetry. */
  symmetric?: boolean;
  /** Stop removing at this many clues (error if the puzzle becomes minimal with more). */
  clues?: number;
  /** A grader, for grade-preserving symmetry (see the file's header). */
  grade?: (givens: Grid) => string;
}

export interface GeneratedSudoku {
  puzzle: SudokuPuzzle;
  givens: Grid;
  solution: Grid;
  clues: number;
  /** True when every clue's 180° partner is a clue. */
  symmetric: boolean;
  /** The grader's label of the givens, when a grader was passed. */
  grade?: string;
}

export class SudokuGenerateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SudokuGenerateError';
  }
}

/**
 * Whether the board, unique with all of `cells`' clues, stays unique without them: any new solution
 * must differ from the known one at a removed cell, so one search per removed cell, for a solution
 * with that cell anything but its digit, decides it (a cheaper question than counting to 2).
 */
function stillUnique(g: Grid, solution: Grid, removed: number[], cand: Int32Array, full: number): boolean {
  for (const i of removed) {
    cand[i] = full & ~(1 << (solution.cells[i] - 1));
    const other = countSolutions(g, 1, { candidates: cand }).solutions;
    cand[i] = full;
    if (other > 0) return false;
  }
  return true;
}
const clueCount = (g: Grid) => g.cells.reduce((a, v) => a + (v ? 1 : 0), 0);

/** True when every clue's 180° partner is a clue. */
export function isSymmetric(g: Grid): boolean {
  const nn = g.cells.length;
  for (let i = 0; i < nn; i++) if ((g.cells[i] === 0) !== (g.cells[nn - 1 - i] === 0)) return false;
  return true;
}

function shapeOfOptions(options: SudokuGenerateOptions) {
  if (options.box) return shapeOf(options.box[0], options.box[1]);
  if (options.size === undefined) throw new SudokuGenerateError('give a size or a box');
  const [r, c] = defaultBox(options.size);
  return shapeOf(r, c);
}

/** A random full grid of the shape, from the seed. */
export function randomFullGrid(shape: { boxRows: number; boxCols: number }, seed: number): Grid {
  const s = shapeOf(shape.boxRows, shape.boxCols);
  const r = countSolutions(emptyGrid(s), 1, { rng: createRng(seed) });
  if (!r.solution) throw new SudokuGenerateError(`no full grid of box ${s.boxRows}x${s.boxCols}`);
  return r.solution;
}

/** One puzzle from the options (deterministic in them). */
export function generateSudoku(options: SudokuGenerateOptions): GeneratedSudoku {
  const shape = shapeOfOptions(options);
  const nn = shape.size * shape.size;
  const target = options.clues;
  if (target !== undefined && (!Number.isInteger(target) || target < 0 || target > nn)) throw new SudokuGenerateError(`clues must be a whole number from 0 to ${nn}, got ${target}`);
  const rng = createRng(options.seed);
  const solution = randomFullGrid(shape, Math.floor(rng.next() * 2 ** 32));
  const givens: Grid = { ...shape, cells: solution.cells.slice() };
  const cells = givens.cells;
  const pairs = Boolean(options.symmetric) && !options.grade;
  let count = nn;
  const order = shuffle(
    Array.from({ length: nn }, (_, i) => i).filter((i) => !pairs || i <= nn - 1 - i),
    rng,
  );
  let skipped = false; // a pair passed over because it would go below the target
  const full = shape.size === 32 ? -1 : (1 << shape.size) - 1;
  const cand = new Int32Array(nn).fill(full);
  for (const i of order) {
    if (target !== undefined && count <= target) break;
    const j = nn - 1 - i;
    const both = pairs && j !== i;
    if (both && target !== undefined && count - 2 < target) {
      skipped = true;
      continue;
    }
    const vi = cells[i], vj = cells[j];
    cells[i] = 0;
    if (both) cells[j] = 0;
    if (stillUnique(givens, solution, both ? [i, j] : [i], cand, full)) count -= both ? 2 : 1;
    else {
      cells[i] = vi;
      if (both) cells[j] = vj;
    }
  }
  if (target !== undefined && count > target && skipped) {
    throw new SudokuGenerateError(`seed ${options.seed}: symmetric removal stopped at ${count} clues, ${target} asked: pairs go two at a time and the centre clue is needed`);
  }
  if (target !== undefined && count > target) {
    throw new SudokuGenerateError(`seed ${options.seed}: the ${shape.size}x${shape.size} puzzle became minimal at ${count} clues, above the ${target} asked${pairs ? ' (symmetric)' : ''}`);
  }
  let grade: string | undefined;
  if (options.grade) {
    grade = options.grade(givens);
    if (options.symmetric) symmetrifyKeepingGrade(givens, solution, order, grade, options.grade);
  }
  const result: GeneratedSudoku = {
    puzzle: {
      kind: 'sudoku',
      id: puzzleId(givens),
      size: shape.size,
      box: [shape.boxRows, shape.boxCols],
      givens: gridRows(givens),
      solution: gridRows(solution),
      seed: options.seed,
    },
    givens,
    solution,
    clues: clueCount(givens),
    symmetric: isSymmetric(givens),
  };
  if (grade !== undefined) result.grade = grade;
  return result;
}

/**
 * Adds the missing 180° partners of the clues: all at once if that keeps the grade, else one at a
 * time in `order`, keeping each that keeps the grade. In place.
 */
export function symmetrifyKeepingGrade(givens: Grid, solution: Grid, order: number[], grade: string, grader: (g: Grid) => string): void {
  const cells = givens.cells, nn = cells.length;
  const missing = order.filter((i) => cells[i] !== 0 && cells[nn - 1 - i] === 0).map((i) => nn - 1 - i);
  if (missing.length === 0) return;
  for (const j of missing) cells[j] = solution.cells[j];
  if (grader(givens) === grade) return;
  for (const j of missing) cells[j] = 0;
  for (const j of missing) {
    cells[j] = solution.cells[j];
    if (grader(givens) !== grade) cells[j] = 0;
  }
}

/** The seed of the index-th puzzle of a run (a splitmix-style mix, so neighbouring runs do not share puzzles). */
export function sudokuSeed(seed: number, index: number): number {
  let z = (Math.floor(seed) + Math.imul(index + 1, 0x9e3779b9)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/** `count` puzzles, the i-th from sudokuSeed(seed, i). */
export function* iterateSudokus(options: SudokuGenerateOptions & { count: number }): Generator<GeneratedSudoku> {
  for (let i = 0; i < options.count; i++) yield generateSudoku({ ...options, seed: sudokuSeed(options.seed, i) });
}

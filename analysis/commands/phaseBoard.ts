// One board of `nonolab phase`: draw it (seeded per (seed, size, density, board)), take its clues, count its forced cells.
// Its own module so that the worker threads of `phase --jobs` load only this (no CLI, CSV or plotting code).
import { cluesOf, createGrid, EMPTY, FILLED, hash53, probeInPlace, propagateInPlace } from '../../shared/nonogram/index.ts';
import { createRng } from '../../shared/random.ts';
import { forcedCells, type Encoding } from '../../shared/sat/infer.ts';

export interface BoardRow {
  size: number;
  density: number;
  board: number;
  filled: number;
  forced_filled: number;
  forced_empty: number;
  undecided: number;
  unique: boolean;
  /** The plain solve's answer: SAT, or UNKNOWN when it ran out of `--conflict-budget` (its statistics are then partial). */
  first_result: string;
  conflicts: number;
  decisions: number;
  propagations: number;
  inference_solves: number;
  inference_conflicts: number;
  /** Wall-clock seconds for the board (set by the command, not by runBoard). */
  seconds?: number;
}

/** Forced-filled cells over filled cells (1 on a board with no filled cell: nothing is left open). */
export const forcedFilledShare = (r: BoardRow): number => (r.filled === 0 ? 1 : r.forced_filled / r.filled);

export function runBoard(size: number, density: number, board: number, seed: number, encoding: Encoding, budget: number | undefined): BoardRow {
  const rng = createRng(hash53(`phase:${seed}:${size}:${density}:${board}`)[1]);
  const cells = new Uint8Array(size * size);
  let filled = 0;
  for (let i = 0; i < cells.length; i++) {
    cells[i] = rng.next() < density ? FILLED : EMPTY;
    if (cells[i] === FILLED) filled++;
  }
  const clues = cluesOf({ width: size, height: size, cells });
  const known = createGrid(size, size);
  propagateInPlace(clues, known, 'complete');
  probeInPlace(clues, known);
  // The board itself is a solution: if the plain solve runs out of budget the inference goes on from it.
  const inf = forcedCells(clues, { encoding, known, conflictBudget: budget, solution: { width: size, height: size, cells } });
  return {
    size,
    density,
    board,
    filled,
    forced_filled: inf.forcedFilled,
    forced_empty: inf.forcedEmpty,
    undecided: inf.undecided,
    unique: inf.unique,
    first_result: inf.firstSolve.result,
    conflicts: inf.firstSolve.conflicts,
    decisions: inf.firstSolve.decisions,
    propagations: inf.firstSolve.propagations,
    inference_solves: inf.solves,
    inference_conflicts: inf.stats.conflicts,
  };
}

/** runBoard with the board's wall-clock seconds set (what `phase` writes, on one thread or on its workers). */
export function timedBoard(size: number, density: number, board: number, seed: number, encoding: Encoding, budget: number | undefined): BoardRow {
  const t0 = performance.now();
  const row = runBoard(size, density, board, seed, encoding, budget);
  row.seconds = Math.round(performance.now() - t0) / 1000;
  return row;
}

// A clue-only puzzle's solution (a .non without `goal`, webpbn XML without a solution): found when it is the only one.
import { gridToRows, solvePuzzle } from '../shared/nonogram/index.ts';
import type { Puzzle } from '../shared/schema/puzzle.ts';

/** Why a puzzle has no one solution to record. */
export type NoUniqueSolution = 'none' | 'several' | 'undecided';

/**
 * The puzzle's only solution as rows of '#' and '.' (exact: `solvePuzzle` with limit 2), or why there is none to
 * record: no solution, more than one, or the search stopped before deciding (a `shouldStop` given).
 */
export function uniqueSolution(p: Pick<Puzzle, 'rows' | 'cols'>, shouldStop?: () => boolean): { solution: string[] } | { problem: NoUniqueSolution } {
  const result = solvePuzzle({ rows: p.rows, cols: p.cols }, { limit: 2, shouldStop });
  if (result.count >= 2) return { problem: 'several' };
  if (!result.complete) return { problem: 'undecided' };
  if (result.count === 0) return { problem: 'none' };
  return { solution: gridToRows(result.solutions[0]) };
}

/** The sentence for a `NoUniqueSolution`, for a message that names the puzzle. */
export function describeNoUniqueSolution(problem: NoUniqueSolution): string {
  if (problem === 'none') return 'its clues have no solution';
  if (problem === 'several') return 'its clues have more than one solution';
  return 'whether its clues have one solution was not decided';
}

/** `p` with its solution filled in when it has none recorded and exactly one exists (else `p` and why not). */
export function withSolution(p: Puzzle): { puzzle: Puzzle; problem?: NoUniqueSolution } {
  if (p.solution) return { puzzle: p };
  const found = uniqueSolution(p);
  if ('problem' in found) return { puzzle: p, problem: found.problem };
  const { id, width, height, rows, cols, ...rest } = p;
  return { puzzle: { id, width, height, rows, cols, solution: found.solution, ...rest } };
}

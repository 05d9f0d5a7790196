// Puzzle shapes: clues, solutions and metrics, as generated, measured, configured and sent to clients.
import { z } from 'zod';

export const Clue = z.array(z.number().int().positive());
export type Clue = z.infer<typeof Clue>;

const SolutionRows = z.array(z.string().regex(/^[#.]+$/, 'solution rows use only # (filled) and . (empty)'));

export const HumanMetrics = z
  .object({
    level: z.number().int().min(1).max(4),
    line_passes: z.number().int().nonnegative(),
    footholds: z.number().int().nonnegative(),
    foothold_cells: z.number().int().nonnegative(),
  })
  .catchall(z.unknown());
export type HumanMetrics = z.infer<typeof HumanMetrics>;

export const SatMetrics = z
  .object({
    decisions: z.number().int().nonnegative(),
    propagations: z.number().int().nonnegative(),
    conflicts: z.number().int().nonnegative(),
    restarts: z.number().int().nonnegative(),
  })
  .catchall(z.unknown());
export type SatMetrics = z.infer<typeof SatMetrics>;

export const PuzzleMetrics = z
  .object({ human: HumanMetrics.optional(), sat: SatMetrics.optional(), sat_dfa: SatMetrics.optional() })
  .catchall(z.unknown());
export type PuzzleMetrics = z.infer<typeof PuzzleMetrics>;

const ClueFields = {
  id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'ids use letters, digits, _ and -'),
  width: z.number().int().min(1).max(100),
  height: z.number().int().min(1).max(100),
  rows: z.array(Clue),
  cols: z.array(Clue),
};

/** Every line has a clue, and every clue fits its line (runs plus one gap between each). */
function checkClues(p: { width: number; height: number; rows: Clue[]; cols: Clue[] }, ctx: z.RefinementCtx): void {
  const axes = [
    { key: 'rows', name: 'row', clues: p.rows, count: p.height, length: p.width },
    { key: 'cols', name: 'column', clues: p.cols, count: p.width, length: p.height },
  ] as const;
  for (const axis of axes) {
    if (axis.clues.length !== axis.count) ctx.addIssue({ code: 'custom', path: [axis.key], message: `expected ${axis.count} ${axis.name} clues, got ${axis.clues.length}` });
    axis.clues.forEach((clue, i) => {
      const need = clue.reduce((a, b) => a + b, 0) + Math.max(0, clue.length - 1);
      if (need > axis.length) ctx.addIssue({ code: 'custom', path: [axis.key, i], message: `${axis.name} clue needs ${need} cells, the ${axis.name} has ${axis.length}` });
    });
  }
}

/** Clues only: what a participant's browser receives. */
export const PuzzleClues = z.object(ClueFields).superRefine(checkClues);
export type PuzzleClues = z.infer<typeof PuzzleClues>;

/** The fields of a full puzzle record. */
export const PuzzleFields = {
  /** The puzzle kind (shared/puzzles/); absent means a Nonogram, so every existing file reads unchanged. */
  kind: z.literal('nonogram').optional(),
  ...ClueFields,
  solution: SolutionRows.optional(),
  seed: z.union([z.number(), z.string()]).optional(),
  metrics: PuzzleMetrics.optional(),
};

/** Clues fit their lines, and a solution, when given, has the puzzle's size. */
export function checkPuzzle(p: { width: number; height: number; rows: Clue[]; cols: Clue[]; solution?: string[] }, ctx: z.RefinementCtx): void {
  checkClues(p, ctx);
  if (p.solution) {
    if (p.solution.length !== p.height) ctx.addIssue({ code: 'custom', path: ['solution'], message: `expected ${p.height} solution rows, got ${p.solution.length}` });
    p.solution.forEach((row, i) => {
      if (row.length !== p.width) ctx.addIssue({ code: 'custom', path: ['solution', i], message: `expected ${p.width} cells, got ${row.length}` });
    });
  }
}

/** The runs of '#' in a line of '#' and '.': the clue the line reads as. */
const runsOf = (line: string): number[] => line.split('.').filter(Boolean).map((run) => run.length);

/**
 * Why `solution` (rows of '#' and '.', of the puzzle's size) does not satisfy the puzzle's clues: the first row or
 * column that reads otherwise, with its path; null when every line reads as its clue.
 */
export function solutionContradiction(p: { rows: Clue[]; cols: Clue[]; solution: readonly string[] }): { path: (string | number)[]; message: string } | null {
  const { rows, cols, solution } = p;
  for (const [r, clue] of rows.entries()) {
    const reads = runsOf(solution[r] ?? '');
    if (reads.join() !== clue.join()) return { path: ['solution', r], message: `the solution's row ${r + 1} reads [${reads.join(' ')}], its clue is [${clue.join(' ')}]` };
  }
  for (const [c, clue] of cols.entries()) {
    const reads = runsOf(solution.map((row) => row[c] ?? '.').join(''));
    if (reads.join() !== clue.join()) return { path: ['solution'], message: `the solution's column ${c + 1} reads [${reads.join(' ')}], its clue is [${clue.join(' ')}]` };
  }
  return null;
}

/** A full puzzle record (generator output, study config): clues plus, usually, the solution. */
export const Puzzle = z.object(PuzzleFields).superRefine(checkPuzzle);
export type Puzzle = z.infer<typeof Puzzle>;

/** One line of `nonolab solve`: a puzzle's solution count (exact when `complete`) and how it was settled. */
export const SolveLine = z.object({
  id: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Solutions found, up to the asked count; with `complete: false` (the time ran out) a lower bound. */
  solutions: z.number().int().nonnegative(),
  complete: z.boolean(),
  time_ms: z.number().nonnegative(),
  /** What settled the count: line logic alone, probing, the node search, or the CDCL solver. */
  settled_by: z.enum(['line', 'probe', 'search', 'sat']),
  /** The first solution as rows of '#' and '.', or null when there is none (yet). */
  solution: z.array(z.string()).nullable(),
  /** A different solution, when there is one. */
  second: z.array(z.string()).optional(),
});
export type SolveLine = z.infer<typeof SolveLine>;

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

/** Clues only: what a participant's browser receives. */
export const PuzzleClues = z
  .object({
    id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'ids use letters, digits, _ and -'),
    width: z.number().int().min(1).max(100),
    height: z.number().int().min(1).max(100),
    rows: z.array(Clue),
    cols: z.array(Clue),
  })
  .superRefine((p, ctx) => {
    if (p.rows.length !== p.height) ctx.addIssue({ code: 'custom', path: ['rows'], message: `expected ${p.height} row clues, got ${p.rows.length}` });
    if (p.cols.length !== p.width) ctx.addIssue({ code: 'custom', path: ['cols'], message: `expected ${p.width} column clues, got ${p.cols.length}` });
    p.rows.forEach((clue, i) => {
      const need = clue.reduce((a, b) => a + b, 0) + Math.max(0, clue.length - 1);
      if (need > p.width) ctx.addIssue({ code: 'custom', path: ['rows', i], message: `row clue needs ${need} cells, the row has ${p.width}` });
    });
    p.cols.forEach((clue, i) => {
      const need = clue.reduce((a, b) => a + b, 0) + Math.max(0, clue.length - 1);
      if (need > p.height) ctx.addIssue({ code: 'custom', path: ['cols', i], message: `column clue needs ${need} cells, the column has ${p.height}` });
    });
  });
export type PuzzleClues = z.infer<typeof PuzzleClues>;

/** A full puzzle record (generator output, study config): clues plus, usually, the solution. */
export const Puzzle = z
  .object({
    id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'ids use letters, digits, _ and -'),
    width: z.number().int().min(1).max(100),
    height: z.number().int().min(1).max(100),
    rows: z.array(Clue),
    cols: z.array(Clue),
    solution: SolutionRows.optional(),
    seed: z.union([z.number(), z.string()]).optional(),
    metrics: PuzzleMetrics.optional(),
  })
  .superRefine((p, ctx) => {
    const clues = PuzzleClues.safeParse({ id: p.id, width: p.width, height: p.height, rows: p.rows, cols: p.cols });
    if (!clues.success) for (const issue of clues.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    if (p.solution) {
      if (p.solution.length !== p.height) ctx.addIssue({ code: 'custom', path: ['solution'], message: `expected ${p.height} solution rows, got ${p.solution.length}` });
      p.solution.forEach((row, i) => {
        if (row.length !== p.width) ctx.addIssue({ code: 'custom', path: ['solution', i], message: `expected ${p.width} cells, got ${row.length}` });
      });
    }
  });
export type Puzzle = z.infer<typeof Puzzle>;

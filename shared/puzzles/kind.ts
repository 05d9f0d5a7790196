// A puzzle kind as one module, the way a phase kind is one (shared/study/phases/<kind>.ts): everything that is true
// of a kind of puzzle, asked wherever it is needed. Pure (no I/O, no clock); each kind's engine lives in its own
// folder (shared/nonogram/, shared/sudoku/) and its module here is the one door to it.
import type { z } from 'zod';
import type { SolverStats } from '../sat/solver.ts';

export type KindId = 'nonogram' | 'sudoku';

/** One line of `nonolab solve`: the same fields for every kind (a kind adds its own board fields). */
export interface KindSolveLine {
  id: string;
  solutions: number;
  complete: boolean;
  time_ms: number;
  settled_by: string;
  solution: string[] | null;
  second?: string[];
  [field: string]: unknown;
}

/** What a hint says of a board, whatever the kind: the cell, what the participant reads, and why (a claim a test checks). */
export interface KindHint {
  kind: string;
  row: number;
  col: number;
  heading: string;
  explanation: string;
  reasoning: string;
}

export interface PuzzleKind<R extends { id: string } = { id: string }> {
  readonly id: KindId;
  /** The kind's name in text a person reads ("Nonogram", "Sudoku"). */
  readonly name: string;
  /** The zod schema of one puzzle record (clues or givens, solution, metrics): the one source of truth. */
  readonly schema: z.ZodType<R>;
  /** Whether a file's text is in one of this kind's formats (for inferring the kind of a file). */
  recognizes(text: string, file: string): boolean;
  /** Every puzzle of a file in any of the kind's formats; errors name the file and line. */
  parseFile(text: string, file: string): R[];
  /** One record as a JSON line (what generate, measure and pack write). */
  writeRecord(record: R): string;
  /** Board size as a person reads it ("10x10", "9x9"). */
  sizeOf(record: R): string;
  /** The solution as rows, or null when the record has none. */
  solutionOf(record: R): string[] | null;
  /** Count solutions up to `limit`, exactly; an inconsistent board is named, never guessed (thrown as an Error). */
  solve(record: R, options: { limit: number; deadline?: number; now?: () => number }): KindSolveLine;
  /** The record's exact unique solution filled in (clue-only records), or an Error naming why not. */
  withSolution(record: R): R;
  /** CNF encodings. */
  readonly encodings: readonly string[];
  /** The encoding `cnf` and `infer` use when none is asked for. */
  readonly defaultEncoding: string;
  /** The metric `select` and `plot-metrics` use when none is asked for (`<source>_<key>`, analysis/metric.ts). */
  readonly defaultMetric: string;
  /** Board text of a solution for a terminal (`solve --pretty`). */
  draw(rows: readonly string[], second?: readonly string[]): string;
  /** The DIMACS text of one encoding. */
  dimacs(record: R, encoding: string): string;
  /** MiniSat 2.2's statistics on each encoding, as the record's metric blocks (`sat`, `sat_dfa`; `sat_minimal`, `sat_extended`). */
  satMetrics(record: R): Record<string, SolverStats>;
  /** The human-style measures (`metrics.human`). */
  humanMetrics(record: R): Record<string, unknown>;
  /** The cells every solution shares, as rows (unknown cells as '?'), and how many of the open cells are forced. */
  forced(record: R): { rows: string[]; forced: number; complete: boolean };
  /** The hint a participant would read on `board` (rows in the kind's board text), or null when there is nothing to say. */
  hint(record: R & { solution?: unknown }, board: readonly string[]): KindHint | null;
  /** Whether a board (rows in the kind's board text) is the record's solution, and how many cells are wrong. */
  check(record: R, board: readonly string[]): { solved: boolean; wrong: number };
}

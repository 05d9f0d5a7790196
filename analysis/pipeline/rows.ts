// A puzzle's row of puzzles.csv and a row of correlations.csv: the types analyze.ts makes and the strategy stage reads
// (strategyAnalysis.ts), in a module of their own so neither imports the other.

export interface PuzzleRow extends Record<string, unknown> {
  puzzle_id: string;
}

export interface CorrelationRow {
  table: string;
  level: 'puzzle' | 'participant';
  x: string;
  y: string;
  n: number;
  rho: number;
  p: number;
  p_exact: number | null;
}

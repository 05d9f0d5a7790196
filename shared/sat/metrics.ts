// SAT metrics of a Nonogram: MiniSat 2.2.0's statistics on the puzzle's CNF, as the paper measured them.
import type { Clues } from '../nonogram/grid.ts';
import { encode, type Encoding } from './infer.ts';
import { solveCnf, type SatResult, type SolverStats } from './solver.ts';

export interface SatMetricsResult extends SolverStats {
  result: SatResult;
}

/**
 * Decisions, propagations, conflicts and restarts of one solve of the puzzle's CNF (block-start by
 * default, the paper's; or dfa), used as PySAT's minisat22 is: clauses added in order, then solve.
 */
export function satMetrics(clues: Clues, encoding: Encoding = 'block-start', options: { conflictBudget?: number } = {}): SatMetricsResult {
  const r = solveCnf(encode(clues, encoding), { conflictBudget: options.conflictBudget });
  return { decisions: r.stats.decisions, propagations: r.stats.propagations, conflicts: r.stats.conflicts, restarts: r.stats.restarts, result: r.result };
}

/**
 * The `metrics.sat` (block-start, the paper's) and `metrics.sat_dfa` entries of a puzzle record:
 * the shape `generate`'s `extraMetrics` hook and `nonolab measure` add.
 */
export function satMetricsRecord(clues: Clues): { sat: SolverStats; sat_dfa: SolverStats } {
  const strip = ({ decisions, propagations, conflicts, restarts }: SatMetricsResult): SolverStats => ({ decisions, propagations, conflicts, restarts });
  return { sat: strip(satMetrics(clues, 'block-start')), sat_dfa: strip(satMetrics(clues, 'dfa')) };
}

// A Sudoku's measures as a puzzle record stores them: both grades (the propagation ladder of Simonis 2005 and the
// human technique ladder), and MiniSat's statistics on both encodings of Lynce & Ouaknine 2006.
import type { Grid } from './grid.ts';
import { gradePropagation, PROPAGATION_LEVELS, type PropagationGrade } from './propagation.ts';
import { gradeHuman, TECHNIQUES, type TechniqueId } from './techniques.ts';
import { sudokuSatMetricsRecord } from './cnf.ts';

/** `metrics.human` of a Sudoku record: the human ladder's grade, with how often each technique was needed. */
export interface SudokuHumanMetrics {
  /**
   * The hardest technique needed, as its rank on the ladder: 1 naked single, 2 hidden single, 3 pointing, 4 claiming,
   * 5 naked pair, 6 hidden pair, 7 naked triple, 8 hidden triple, 9 X-wing, 10 swordfish, 11 XY-wing, 12 beyond the
   * ladder (search); 0 when nothing was needed (a full board).
   */
  level: number;
  hardest: TechniqueId | 'search' | null;
  /** Technique applications in all (placements and eliminations). */
  steps: number;
  /** Empty cells of the board. */
  empty_cells: number;
  /** Clues of the board. */
  clues: number;
  /** The propagation grade (value, bounds, domain, bounds-shaving, domain-shaving, search) and its rank 1..6. */
  propagation: PropagationGrade;
  propagation_level: number;
  /** How often each technique was needed, by its name with '_' (naked_single, x_wing, ...). */
  [technique: string]: unknown;
}

export const HUMAN_LEVELS: readonly (TechniqueId | 'search')[] = [...TECHNIQUES, 'search'];

export function sudokuHumanMetrics(givens: Grid): SudokuHumanMetrics {
  const human = gradeHuman(givens);
  const propagation = gradePropagation(givens).grade;
  let clues = 0;
  for (const v of givens.cells) if (v !== 0) clues++;
  const counts = Object.fromEntries(TECHNIQUES.map((t) => [t.replaceAll('-', '_'), human.counts[t]]));
  return {
    level: human.hardest === null ? 0 : HUMAN_LEVELS.indexOf(human.hardest) + 1,
    hardest: human.hardest,
    steps: human.steps,
    empty_cells: givens.cells.length - clues,
    clues,
    propagation,
    propagation_level: propagation === 'search' || propagation === 'inconsistent' ? PROPAGATION_LEVELS.length + 1 : PROPAGATION_LEVELS.indexOf(propagation) + 1,
    ...counts,
  };
}

/** Every metric of a Sudoku record: `human` always, `sat_minimal` and `sat_extended` when `sat`. */
export function sudokuMetrics(givens: Grid, options: { sat?: boolean } = {}): Record<string, unknown> {
  return { human: sudokuHumanMetrics(givens), ...(options.sat ? sudokuSatMetricsRecord(givens) : {}) };
}

/** The grade symmetric generation keeps: the human ladder's hardest technique. */
export const humanGrade = (givens: Grid): string => gradeHuman(givens).hardest ?? 'none';

// The puzzle kinds of an analysis: which metrics each kind's tables name by default, and a study's kinds.
/*
 * A Nonogram study's tables name MiniSat's counters on the block-start encoding (sat_decisions, sat_propagations,
 * sat_conflicts) and, where every puzzle has them, the DFA encoding's conflicts and the human solver's measures; a
 * Sudoku study's name MiniSat's counters on both of Lynce & Ouaknine's encodings (minimal_<key>, extended_<key>) and
 * both grade ladders (human_level: the technique ladder; human_propagation_level: the propagation ladder), with the
 * ladder's step count. The counters are the robustness check's x (per encoding) and the mixed models' metrics.
 */
import type { KindId } from '../../shared/puzzles/kind.ts';

export interface KindProfile {
  kind: KindId;
  /** The metrics every table and model uses unless --metrics says otherwise. */
  defaultMetrics: readonly string[];
  /** Added to the tables (not the models) when every puzzle carries them. */
  extraMetrics: readonly string[];
  /** The MiniSat metric sources whose counters the robustness check correlates (sat; minimal and extended). */
  counterSources: readonly string[];
  /** The metric Figure 2 (the candidate pool) shows. */
  poolMetric: string;
  /** The metric `simulate` plants the ratings' effect on when none is named. */
  plantMetric: string;
}

export const KIND_PROFILES: Record<KindId, KindProfile> = {
  nonogram: {
    kind: 'nonogram',
    defaultMetrics: ['sat_decisions', 'sat_propagations', 'sat_conflicts'],
    extraMetrics: ['dfa_conflicts', 'human_level', 'human_line_passes', 'human_footholds', 'human_foothold_cells'],
    counterSources: ['sat'],
    poolMetric: 'sat_conflicts',
    plantMetric: 'sat_conflicts',
  },
  sudoku: {
    kind: 'sudoku',
    defaultMetrics: ['minimal_decisions', 'minimal_propagations', 'minimal_conflicts', 'extended_decisions', 'extended_propagations', 'extended_conflicts'],
    extraMetrics: ['human_level', 'human_propagation_level', 'human_steps'],
    counterSources: ['minimal', 'extended'],
    poolMetric: 'extended_conflicts',
    plantMetric: 'minimal_conflicts',
  },
};

/** A puzzle record's kind: 'sudoku' when it says so, else a Nonogram (a record without `kind`). */
export const kindOfPuzzle = (p: { kind?: string }): KindId => (p.kind === 'sudoku' ? 'sudoku' : 'nonogram');

/** The kinds of a puzzle list, in the order they first appear. */
export function kindsOf(puzzles: readonly { kind?: string }[]): KindId[] {
  return [...new Set(puzzles.map(kindOfPuzzle))];
}

/** The profile of a one-kind puzzle list (a Nonogram's when empty). */
export function profileOf(puzzles: readonly { kind?: string }[]): KindProfile {
  return KIND_PROFILES[puzzles.length ? kindOfPuzzle(puzzles[0]) : 'nonogram'];
}

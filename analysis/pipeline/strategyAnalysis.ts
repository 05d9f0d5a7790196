// Strategy, measured: the per-attempt strategy rows (strategy.csv) summarised by puzzle and by expertise, correlated with the solver's measures, and the attempts the report draws.
/*
 * The rows come from the trajectories (shared/signals/strategy.ts), one per analysed attempt. Five measures of each
 * attempt are carried up: share_guess (changes forced by nothing), share_easy (a Nonogram's line family, a Sudoku's
 * singles), mean_rung (the mean ladder rung of the forced changes), backtracks (changes that set a cell back to a
 * value it held) and first_on_foothold (0/1: the paper's Figure 6 rule). By puzzle: the mean over its attempts (an
 * attempt without a labelled change has no shares and is left out of those means). The solver's measures against
 * them: Spearman over the puzzles of each metric the analysis uses (attempts.csv's metric columns) with each
 * measure's puzzle mean, with the exact permutation p for small n, as the paper's Table 1 (rows `strategy_metric`);
 * expertise against the participant's means, as Table 3 (rows `strategy_expertise`). By expertise: the same means
 * in the participants below and at or above the median expertise. The small multiples: for each puzzle, its fastest,
 * median and slowest attempt by time_s among the solved attempts (all attempts when none was solved; the lower
 * median of an even count; ties broken by participant id), drawn with the order of their first marks.
 */
import type { StrategyRow } from '../../shared/signals/index.ts';
import type { CorrelationRow, PuzzleRow } from './rows.ts';
import type { AttemptMarks } from './extract.ts';

/** The attempt measures carried up to puzzles and participants. */
export const STRATEGY_MEASURES = ['share_guess', 'share_easy', 'mean_rung', 'backtracks', 'first_on_foothold'] as const;
export type StrategyMeasure = (typeof STRATEGY_MEASURES)[number];

export type Correlate = (table: string, level: CorrelationRow['level'], x: string, y: string, xs: number[], ys: number[]) => CorrelationRow | null;

/** One attempt picked for the small multiples. */
export interface StrategyPick {
  puzzle_id: string;
  kind: 'nonogram' | 'sudoku';
  which: 'fastest' | 'median' | 'slowest';
  participant_id: string;
  time_s: number;
  outcome: string;
  width: number;
  height: number;
  /** Cells holding a given (Sudoku), reading order. */
  givens: number[];
  marks: AttemptMarks;
}

export interface StrategyResult {
  /** strategy.csv: one row per attempt, attempts.csv's order. */
  rows: StrategyRow[];
  /** The measures' means per puzzle (with the line orders counted and the mean seconds per level). */
  puzzles: Record<string, unknown>[];
  /** The measures' means below and at or above the median expertise. */
  expertise: Record<string, unknown>[];
  correlations: CorrelationRow[];
  picks: StrategyPick[];
  /** The pick rule, in words (the report states it). */
  rule: string;
  /** Why some correlations are missing or undefined (a measure constant over the puzzles, too few pairs). */
  notes: string[];
}

export const PICK_RULE =
  "for each puzzle, its fastest, median and slowest attempt by time to solve among its solved attempts (all its attempts when none was solved; the lower median of an even count; ties broken by participant id)";

/** The value of one measure on an attempt's strategy row, or NaN when it has none. */
export function measureOf(r: StrategyRow, m: StrategyMeasure): number {
  const v = m === 'share_easy' ? (r.kind === 'sudoku' ? r.share_singles : r.share_line_family) : m === 'first_on_foothold' ? (r.first_on_foothold === null ? null : r.first_on_foothold ? 1 : 0) : r[m];
  return typeof v === 'number' ? v : NaN;
}

const meanOf = (xs: readonly number[]) => {
  const f = xs.filter(Number.isFinite);
  return f.length ? f.reduce((a, b) => a + b, 0) / f.length : null;
};

function summary(rows: readonly StrategyRow[]): Record<string, unknown> {
  const out: Record<string, unknown> = { attempts: rows.length };
  for (const m of STRATEGY_MEASURES) out[m] = meanOf(rows.map((r) => measureOf(r, m)));
  for (const o of ['row-major', 'foothold-driven', 'scattered']) out[o.replace('-', '_')] = rows.filter((r) => r.line_order === o).length;
  return out;
}

interface AttemptInfo {
  participant_id: string;
  puzzle_id: string;
  time_s: number;
  outcome: string;
}

/**
 * The strategy analysis of one kind's attempts (`rows` and `marks` parallel to `attempts`). `metrics` are the puzzle
 * columns of the analysis (puzzles.csv's metric columns), `expertiseOf` each participant's composite.
 */
export function strategyStage(
  rows: readonly StrategyRow[],
  marks: readonly AttemptMarks[],
  attempts: readonly AttemptInfo[],
  puzzleRows: readonly PuzzleRow[],
  metrics: readonly string[],
  expertiseOf: ReadonlyMap<string, number>,
  shapes: ReadonlyMap<string, { width: number; height: number; givens: number[] }>,
  correlate: Correlate,
): StrategyResult {
  const byPuzzle = new Map<string, StrategyRow[]>();
  for (const r of rows) {
    let list = byPuzzle.get(r.puzzle_id);
    if (!list) byPuzzle.set(r.puzzle_id, (list = []));
    list.push(r);
  }
  const puzzles = puzzleRows
    .filter((p) => byPuzzle.has(p.puzzle_id as string))
    .map((p) => {
      const list = byPuzzle.get(p.puzzle_id as string)!;
      const row: Record<string, unknown> = { puzzle_id: p.puzzle_id, kind: list[0].kind, bt_score: p.bt_score ?? null, ...summary(list) };
      // mean seconds per level: the keys of this kind's time columns
      for (const k of Object.keys(list[0]).filter((c) => c.startsWith('time_') && c.endsWith('_s'))) row[`mean_${k}`] = meanOf(list.map((r) => r[k] as number));
      return row;
    });

  const correlations: (CorrelationRow | null)[] = [];
  for (const x of metrics)
    for (const y of STRATEGY_MEASURES) {
      correlations.push(correlate('strategy_metric', 'puzzle', x, y, puzzles.map((p) => (puzzleRows.find((q) => q.puzzle_id === p.puzzle_id)![x] as number | null) ?? NaN), puzzles.map((p) => (p[y] as number | null) ?? NaN)));
    }

  const byParticipant = new Map<string, StrategyRow[]>();
  for (const r of rows) {
    let list = byParticipant.get(r.participant_id);
    if (!list) byParticipant.set(r.participant_id, (list = []));
    list.push(r);
  }
  const people = [...byParticipant.keys()].filter((id) => Number.isFinite(expertiseOf.get(id)));
  for (const y of STRATEGY_MEASURES) {
    const means = people.map((id) => meanOf(byParticipant.get(id)!.map((r) => measureOf(r, y))) ?? NaN);
    correlations.push(correlate('strategy_expertise', 'participant', 'expertise', `mean_${y}`, people.map((id) => expertiseOf.get(id)!), means));
  }

  const sorted = people.map((id) => expertiseOf.get(id)!).sort((a, b) => a - b);
  const median = sorted.length ? (sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2) : NaN;
  const expertise = sorted.length
    ? (['below median', 'median or above'] as const).map((group) => {
        const ids = new Set(people.filter((id) => (expertiseOf.get(id)! < median) === (group === 'below median')));
        return { expertise: group, participants: ids.size, ...summary(rows.filter((r) => ids.has(r.participant_id))) };
      })
    : [];

  const picks: StrategyPick[] = [];
  const index = new Map<string, number[]>();
  attempts.forEach((a, i) => {
    let list = index.get(a.puzzle_id);
    if (!list) index.set(a.puzzle_id, (list = []));
    list.push(i);
  });
  for (const p of puzzles) {
    const all = index.get(p.puzzle_id as string) ?? [];
    const solved = all.filter((i) => attempts[i].outcome === 'solved');
    const pool = (solved.length ? solved : all).slice().sort((i, j) => attempts[i].time_s - attempts[j].time_s || (attempts[i].participant_id < attempts[j].participant_id ? -1 : attempts[i].participant_id > attempts[j].participant_id ? 1 : 0));
    if (pool.length === 0 || marks.length !== attempts.length) continue;
    const shape = shapes.get(p.puzzle_id as string)!;
    const at: [StrategyPick['which'], number][] = [['fastest', pool[0]], ['median', pool[Math.floor((pool.length - 1) / 2)]], ['slowest', pool[pool.length - 1]]];
    for (const [which, i] of at) {
      const a = attempts[i];
      picks.push({ puzzle_id: a.puzzle_id, kind: rows[i].kind, which, participant_id: a.participant_id, time_s: a.time_s, outcome: a.outcome, width: shape.width, height: shape.height, givens: shape.givens, marks: marks[i] });
    }
  }
  return { rows: [...rows], puzzles, expertise, correlations: correlations.filter((c): c is CorrelationRow => c !== null), picks, rule: PICK_RULE, notes: [] };
}

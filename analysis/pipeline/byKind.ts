// The analysis of a study of one or several puzzle kinds: each kind analysed on its own, its rows named by kind.
/*
 * A study of one kind is analysed as it always was (analyzeExtracted). Its rows are tagged with the kind unless it is
 * a Nonogram study, whose tables keep their bytes. A study that mixes kinds (three Nonograms and three Sudokus,
 * counterbalanced together or in separate puzzle phases) is analysed once per kind, on that kind's attempts and
 * puzzles: its own pause threshold (the same mixture rule on that kind's gaps), Bradley-Terry scores from the pairs
 * of ratings within the kind, its own metrics standardised over its puzzles, correlations and mixed models; every
 * row then names its kind, and nothing compares a puzzle of one kind with one of another. The participants' table
 * has one row per participant and kind (their means over that kind's attempts; expertise is the same in each).
 * Themes are correlated within a kind (the codes of a puzzle of that kind; strategy codes, which name no puzzle, in
 * each). What it cannot do: a between-kind comparison (which kind felt harder) is not a table here.
 */
import type { AttemptRow } from '../../shared/signals/index.ts';
import type { KindId } from '../../shared/puzzles/kind.ts';
import { analyzeExtracted, outcomeSummary, type AnalysisResult, type AnalyzeOptions } from './analyze.ts';
import type { Extracted, GapColumns } from './extract.ts';
import { kindOfPuzzle, kindsOf } from './kinds.ts';
import type { PuzzleSet } from './puzzles.ts';

/** Name the kind on every row of a result (themes: `puzzle_kind`, since a theme's `kind` is difficulty or strategy). */
function tag(result: AnalysisResult, kind: KindId): AnalysisResult {
  const put = <T extends object>(rows: readonly T[] | null): T[] | null => (rows ? rows.map((r) => ({ ...r, kind })) : null);
  return {
    ...result,
    attempts: put(result.attempts)!,
    participants: put(result.participants)!,
    puzzles: put(result.puzzles)!,
    correlations: put(result.correlations)!,
    lmm: put(result.lmm)!,
    robustness: put(result.robustness)!,
    survival: put(result.survival),
    themes: result.themes ? result.themes.map((t) => ({ ...t, puzzle_kind: kind })) : null,
    // (strategy rows name their kind already; the correlations and summaries get it here)
    strategy: result.strategy
      ? { ...result.strategy, correlations: put(result.strategy.correlations)!, puzzles: result.strategy.puzzles, expertise: put(result.strategy.expertise)! }
      : null,
  };
}

/** The extract restricted to the attempts of some puzzles (the gap columns' attempt indices renumbered). */
export function extractOf(ex: Extracted, ids: ReadonlySet<string>): Extracted {
  const keep: number[] = [];
  const newIndex = new Int32Array(ex.attempts.length).fill(-1);
  ex.attempts.forEach((a, i) => {
    if (ids.has(a.puzzle_id)) {
      newIndex[i] = keep.length;
      keep.push(i);
    }
  });
  const g = ex.gaps;
  let n = 0;
  for (let k = 0; k < g.length; k++) if (newIndex[g.attempt[k]] >= 0) n++;
  const gaps: GapColumns = { length: n, attempt: new Int32Array(n), index: new Int32Array(n), gap: new Float64Array(n), action: new Uint8Array(n), cell: new Int16Array(n) };
  let j = 0;
  for (let k = 0; k < g.length; k++) {
    const a = newIndex[g.attempt[k]];
    if (a < 0) continue;
    gaps.attempt[j] = a;
    gaps.index[j] = g.index[k];
    gaps.gap[j] = g.gap[k];
    gaps.action[j] = g.action[k];
    gaps.cell[j] = g.cell[k];
    j++;
  }
  const attempts: AttemptRow[] = keep.map((i) => ex.attempts[i]);
  const strategies = ex.strategies.length === ex.attempts.length ? keep.map((i) => ex.strategies[i]) : [];
  const marks = ex.marks.length === ex.attempts.length ? keep.map((i) => ex.marks[i]) : [];
  return { ...ex, attempts, gaps, strategies, marks, participants: ex.participants.map((p) => ({ ...p, attempts: attempts.filter((a) => a.participant_id === p.participant_id).length })) };
}

function concatGaps(parts: readonly { gaps: GapColumns; attempts: number }[]): GapColumns {
  const n = parts.reduce((s, p) => s + p.gaps.length, 0);
  const out: GapColumns = { length: n, attempt: new Int32Array(n), index: new Int32Array(n), gap: new Float64Array(n), action: new Uint8Array(n), cell: new Int16Array(n) };
  let at = 0, offset = 0;
  for (const { gaps, attempts } of parts) {
    for (let k = 0; k < gaps.length; k++) out.attempt[at + k] = gaps.attempt[k] + offset;
    out.index.set(gaps.index, at);
    out.gap.set(gaps.gap, at);
    out.action.set(gaps.action, at);
    out.cell.set(gaps.cell, at);
    at += gaps.length;
    offset += attempts;
  }
  return out;
}

/** The analysis of a study, within each of its puzzle kinds (see the essay above). */
export async function analyzeByKind(ex: Extracted, set: PuzzleSet, options: AnalyzeOptions): Promise<AnalysisResult> {
  const kinds = kindsOf(set.puzzles);
  if (kinds.length <= 1) {
    const result = await analyzeExtracted(ex, set, options);
    return kinds[0] === 'sudoku' ? tag(result, 'sudoku') : result;
  }
  const parts: AnalysisResult[] = [];
  for (const kind of kinds) {
    const puzzles = set.puzzles.filter((p) => kindOfPuzzle(p) === kind);
    const ids = new Set(puzzles.map((p) => p.id));
    const codes = options.codes?.filter((c) => c.puzzle_id === null || ids.has(c.puzzle_id));
    // One thread here: the mixture worker (large studies) and gaps.csv's early writer serve a one-kind analysis.
    const result = await analyzeExtracted(extractOf(ex, ids), { ...set, puzzles }, { ...options, codes, fitGmms: undefined, onPauses: undefined, measuresOn: undefined, candidates: kind === kindOfPuzzle(options.candidates?.puzzles[0] ?? {}) ? options.candidates : undefined });
    parts.push(tag(result, kind));
  }
  const first = parts[0];
  const attempts = parts.flatMap((p) => p.attempts);
  const timings: Record<string, number> = {};
  for (const p of parts) for (const [k, v] of Object.entries(p.timings)) timings[k] = (timings[k] ?? 0) + v;
  return {
    ...first,
    attempts,
    participants: parts.flatMap((p) => p.participants),
    puzzles: parts.flatMap((p) => p.puzzles),
    gaps: concatGaps(parts.map((p) => ({ gaps: p.gaps, attempts: p.attempts.length }))),
    pauses: { ...first.pauses, by_kind: Object.fromEntries(parts.map((p, i) => [kinds[i], p.pauses])) },
    correlations: parts.flatMap((p) => p.correlations),
    lmm: parts.flatMap((p) => p.lmm),
    robustness: parts.flatMap((p) => p.robustness),
    survival: first.survival ? parts.flatMap((p) => p.survival ?? []) : null,
    themes: first.themes ? parts.flatMap((p) => p.themes ?? []) : null,
    strategy: first.strategy
      ? {
          ...first.strategy,
          rows: parts.flatMap((p) => p.strategy?.rows ?? []),
          puzzles: parts.flatMap((p) => p.strategy?.puzzles ?? []),
          expertise: parts.flatMap((p) => p.strategy?.expertise ?? []),
          correlations: parts.flatMap((p) => p.strategy?.correlations ?? []),
          picks: parts.flatMap((p) => p.strategy?.picks ?? []),
        }
      : null,
    candidates: parts.find((p) => p.candidates)?.candidates ?? null,
    outcomes: outcomeSummary(attempts as unknown as AttemptRow[], options),
    solvers: [...new Set(parts.flatMap((p) => p.solvers))],
    metrics: [...new Set(parts.flatMap((p) => p.metrics))],
    kinds,
    warnings: parts.flatMap((p, i) => p.warnings.map((w) => `${kinds[i]}: ${w}`)),
    timings,
  };
}

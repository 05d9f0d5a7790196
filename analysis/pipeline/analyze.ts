// The analysis pipeline: session logs + puzzle set -> the paper's tables (attempts, participants, puzzles, gaps, pauses, correlations, LMMs, themes).
/*
 * Order of work. (1) Each session's log becomes attempt rows, gaps, a participant row and free-text answers
 * (shared/signals, the same functions the server's exports call). Sessions marked pilot/test are left out
 * unless includePilot; sessions marked excluded always are; only complete sessions are analysed (the others
 * stay in participants.csv with included = false). (2) The pause threshold: a Gaussian mixture on the log
 * gaps of the analysed study attempts (1..4 components, BIC), the threshold from the three-component fit
 * (equal weighted densities of components 2 and 3), or the number given. Pauses are then counted per
 * attempt. (3) Expertise: the six items z-scored across the analysed participants and averaged (z-mean,
 * sample SD, n - 1), and PC1 of their correlation matrix (sign chosen so the loadings sum positive; missing
 * items imputed by the item mean for PCA only). (4) Bradley-Terry scores from within-participant pairs of
 * final difficulty ratings (a tie is half a win each). (5) Spearman correlations: BT score (higher = harder)
 * against each puzzle metric (Table 1), expertise against mean difficulty and behavioural means (Table 3).
 * (6) Linear mixed models with crossed random intercepts: difficulty ~ metric * expertise (Table 2) and
 * signal ~ metric (Figure 4), each metric standardised over the puzzle set. (7) Themes: rank-biserial
 * correlation of each coded theme with the rated difficulty, when a coding file exists.
 */
import tDist from '@stdlib/stats-base-dists-t';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import { expertiseItems, EXPERTISE_ITEMS, sudokuSignalPuzzle, type AttemptRow, type AnswerRow, type SignalPuzzle } from '../../shared/signals/index.ts';
import { kindsOf, profileOf } from './kinds.ts';
import type { KindId } from '../../shared/puzzles/kind.ts';
import type { Extracted, ExtractContext, ExtractedParticipant, GapColumns } from './extract.ts';
import { pauseStage, type PauseOptions, type PausesSummary } from './pauses.ts';
import { compareMeasures, type MeasureComparison, type MeasuresOffThread } from './measures.ts';
import { strategyStage, type StrategyResult } from './strategyAnalysis.ts';
import { bradleyTerry, pairsFromRatings, spearman, pca, zMeanComposite, fitLmm, LmmData, rankBiserial, fitCox, spearmanUndefinedReason, pearson, type BtResult, type LmmResult, type LmmFixed, type DataRow, type CoxTerm } from '../stats/index.ts';
import type { PuzzleSet } from './puzzles.ts';
import { metricOf, metricValueOf, OTHER_SOLVERS } from '../metric.ts';

export const DIFFICULTY_THEMES = ['FOOT', 'CLUE', 'PROP', 'AMBIG', 'GUESS', 'HINT', 'ERR', 'LEARN', 'LOAD', 'VIS', 'TIME', 'UI', 'AFF'] as const;
export const STRATEGY_THEMES = ['S_FORCED', 'S_CONSTR', 'S_OVERLAP', 'S_EDGE', 'S_CROSS', 'S_NEG', 'S_TRIAL', 'S_HINT'] as const;

/** One coded answer: the themes a coder found in a participant's answer about a puzzle (puzzle null: strategies). */
export interface CodedAnswer {
  participant_id: string;
  puzzle_id: string | null;
  codes: string[];
}

/** The analysis options (the pause stage's among them: pauseThreshold, gapLevel, seed, fitGmms). */
export interface AnalyzeOptions extends PauseOptions {
  includePilot?: boolean;
  /** The candidate pool (Figure 2): the puzzles the study's were selected from, with their metrics. */
  candidates?: { file: string; puzzles: readonly Puzzle[] };
  /** Sensitivity: a skipped attempt without a rating counts as rated harder than any rating (Bradley-Terry again, beside the main one). */
  skipsHardest?: boolean;
  /** Sensitivity: solve time as right-censored at the skip, the time-out or the session's end (Cox model per metric, beside the LMM). */
  survival?: boolean;
  codes?: readonly CodedAnswer[];
  /** Metrics for the correlations and models: keys of metrics.sat (as sat_<key>), metrics.sat_dfa (dfa_<key>) or metrics.human (human_<key>). */
  metrics?: readonly string[];
  onStage?: (stage: string) => void;
  /**
   * Called once the pause threshold is known, with the attempts in the order of the attempt table (the gaps' `attempt`
   * indices point into it): runAnalysis lets the mixture worker build gaps.csv then, while this thread goes on.
   */
  onPauses?: (thresholdS: number, attempts: readonly AttemptRow[], gaps: GapColumns) => void;
  /** Called after each session's signals (for a progress bar). */
  onSession?: (done: number) => void;
  /** The comparison of every measure the puzzles carry (measures.csv; default true). */
  compareMeasures?: boolean;
  /** Bootstrap replicates of the comparison's intervals (default 1000). */
  bootstrapReps?: number;
  /**
   * Runs the measure comparison on another thread (runAnalysis's worker, which has the puzzles): it starts as soon as
   * the pauses are counted, and the result's `measuresPending` settles it (see settleMeasures).
   */
  measuresOn?: MeasuresOffThread;
}

export const DEFAULT_METRICS = ['sat_decisions', 'sat_propagations', 'sat_conflicts'] as const;

export type { CorrelationRow, PuzzleRow } from './rows.ts';
import type { CorrelationRow, PuzzleRow } from './rows.ts';

/** One fixed effect of one fitted model (lmm.csv): the fit's term with its model, CI and variance components. */
export interface LmmRow extends LmmFixed {
  model: string;
  formula: string;
  response: string;
  metric: string;
  ci_low: number;
  ci_high: number;
  var_participant: number;
  var_puzzle: number;
  var_residual: number;
  /** lme4's isSingular: a random-effect standard deviation (relative to the residual's, theta) below 1e-4, i.e. a variance component on the boundary at 0. */
  singular: boolean;
  reml_criterion: number;
  n: number;
  fit_ms: number;
}

export interface ThemeRow {
  theme: string;
  kind: 'difficulty' | 'strategy' | 'other';
  level: 'attempt' | 'participant';
  n_present: number;
  n_absent: number;
  mean_difficulty_present: number | null;
  mean_difficulty_absent: number | null;
  r_rb: number | null;
}

/** One covariate of a Cox model of solve time (survival.csv): hazard of solving per SD of the metric. */
export interface SurvivalRow extends CoxTerm {
  model: string;
  metric: string;
  n: number;
  events: number;
  censored: number;
  clusters: number;
}

/** How the attempts ended, and how the skips and time-outs enter each analysis (stated in the report). */
export interface OutcomeSummary {
  attempts: number;
  solved: number;
  skipped: number;
  timeout: number;
  incomplete: number;
  /** Attempts with a final difficulty rating (the ones Bradley-Terry and Table 2 use). */
  rated: number;
  /** Skipped attempts without a rating (N/A): out of Bradley-Terry and Table 2 unless skipsHardest. */
  unrated_skips: number;
  /** Other attempts without a rating (time-outs, incomplete). */
  unrated_other: number;
  /** One sentence per analysis: how the skips and time-outs enter it. */
  statements: string[];
}

export interface AnalysisResult {
  attempts: Record<string, unknown>[];
  participants: Record<string, unknown>[];
  puzzles: PuzzleRow[];
  /** Gap columns; gaps.attempt indexes `attempts`. */
  gaps: GapColumns;
  /** trajectories.csv's rows as CSV text (no header), one piece per analysed session, in order (extract.ts). */
  trajectories: string[];
  /** Strategy, measured (strategy.csv, strategy_correlations.csv, the report's section); null without trajectories. */
  strategy: StrategyResult | null;
  pauses: PausesSummary;
  correlations: CorrelationRow[];
  lmm: LmmRow[];
  themes: ThemeRow[] | null;
  answers: AnswerRow[];
  pca: {
    explained: number[];
    loadings: Record<string, number>;
    /** Agreement of PC1 scores with the z-mean composite over the analysed participants (the paper: they agree closely). */
    agreement: { n: number; pearson_r: number; spearman_rho: number } | null;
  } | null;
  /** The candidate pool of the selection (--candidates) for the paper's Figure 2, or null. */
  candidates: CandidatePool | null;
  bt: BtResult | null;
  /** Bradley-Terry with unrated skips counted as hardest (skipsHardest), else null. */
  btSkipsHardest: BtResult | null;
  survival: SurvivalRow[] | null;
  outcomes: OutcomeSummary;
  /** Each solver's counters (minisat, then the solvers `measure --solvers` stored) against the human measures, per puzzle. */
  robustness: CorrelationRow[];
  /** The solvers besides MiniSat that measured every puzzle. */
  solvers: string[];
  /** Every measure side by side (measures.csv, issue 36), or null when not asked for or fewer than two measures. */
  measures: MeasureComparison | null;
  /**
   * The measure comparison still running on another thread (options.measuresOn): `measures` is null until
   * settleMeasures(result) has awaited it (which also puts a failure's warning in its place among the warnings).
   */
  measuresPending?: Promise<MeasureComparison | null>;
  metrics: string[];
  /** The study's puzzle kinds; every table carries a `kind` column unless it is ['nonogram'] (a Nonogram study's tables are as they always were). */
  kinds: KindId[];
  warnings: string[];
  timings: Record<string, number>;
  sessions: { total: number; analysed: number; excluded_marked: number; incomplete: number };
  /** Session files left out by --skip-bad-sessions, with the reason. */
  skipped_sessions: { file: string; error: string }[];
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const finite = (xs: readonly (number | null | undefined)[]) => xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
const now = () => performance.now();

/** A metric's value on a puzzle by its name (sat_x: metrics.sat.x, dfa_x: metrics.sat_dfa.x, human_x: metrics.human.x, <solver>_x: metrics.sat_<solver>.x; see analysis/metric.ts), or null. */
export function puzzleMetric(p: Puzzle, name: string): number | null {
  return metricValueOf(p, metricOf(name));
}

function tQuantile975(df: number): number {
  if (!Number.isFinite(df) || df <= 0) return 1.959963984540054;
  return tDist.quantile(0.975, df);
}

/** A study puzzle as the signals read it, whatever its kind. */
export function signalPuzzleOf(p: Puzzle): SignalPuzzle {
  const q = p as unknown as { kind?: string };
  if (q.kind === 'sudoku') return sudokuSignalPuzzle(q as unknown as { id: string; size: number; givens: string[]; solution: string[]; box?: [number, number] });
  return { id: p.id, width: p.width, height: p.height, solution: p.solution! };
}

/** The context extraction needs, from the puzzle set. */
export function extractContext(set: PuzzleSet, includePilot?: boolean, validate?: boolean, gapLevel?: 'cell' | 'action', skipBadSessions?: boolean, trajectories = true): ExtractContext {
  const puzzlesPhase = set.config?.phases.find((p) => p.kind === 'puzzles');
  return {
    puzzles: set.puzzles.map((p) => signalPuzzleOf(p)),
    items: expertiseItems(set.config ?? undefined),
    allItems: set.config ? set.config.phases.flatMap((p) => (p.kind === 'survey' || p.kind === 'post_survey' ? p.items : [])) : [],
    guessingOptions: puzzlesPhase?.kind === 'puzzles' ? puzzlesPhase.rating.guessing_options : undefined,
    includePilot,
    validate,
    gapLevel,
    skipBadSessions,
    trajectories,
  };
}

/**
 * The analysis proper, from extracted rows: each stage in turn (the numbers are those of the essay at the top). With a
 * mixture worker (options.fitGmms, large studies) the pause threshold is fitted while this thread computes what does
 * not depend on it (metrics, expertise, and the mixed models whose response is not the pause count); the results and
 * the order of the warnings are the same either way.
 */
export async function analyzeExtracted(ex: Extracted, set: PuzzleSet, options: AnalyzeOptions): Promise<AnalysisResult> {
  const warnings: string[] = [];
  const timings: Record<string, number> = {};
  const stage = (s: string) => options.onStage?.(s);
  const analysed = checkSessions(ex, set, warnings);

  stage('pause threshold');
  const pauseWarnings: string[] = [];
  const pausing = pauseStage(ex.gaps, ex.attempts, options, pauseWarnings);
  const overlap = options.fitGmms !== undefined;
  if (!overlap) await pausing;

  const laterWarnings: string[] = [];
  const metrics = puzzleMetrics(set, options.metrics, laterWarnings);
  stage('expertise');
  const expertise = expertiseStage(analysed, laterWarnings);
  const lmmMetrics = metrics.usable.filter((m) => profileOf(set.puzzles).defaultMetrics.includes(m) || (options.metrics ?? []).includes(m));
  const jobs = lmmJobs(lmmMetrics);
  const fits = new Array<LmmFit>(jobs.length);
  let lmmMs = 0;
  const fitJobs = (attempts: readonly AttemptRow[], which: (job: LmmJob) => boolean) => {
    const t = now();
    const data = new LmmData(modelData(attempts, metrics, expertise.of));
    jobs.forEach((job, i) => {
      if (which(job)) fits[i] = fitJob(data, job);
    });
    lmmMs += now() - t;
  };
  // As soon as the threshold is in, the other thread is given the pauses (gaps.csv) and the measure comparison (it needs
  // the pauses and the expertise only), even while this thread is still fitting models below.
  const compare = options.compareMeasures ?? true;
  const paused = pausing.then(({ pauses, attempts }) => {
    options.onPauses?.(pauses.threshold_s, attempts, ex.gaps);
    const measuring = compare && options.measuresOn ? options.measuresOn(attempts, { expertiseOf: expertise.of, seed: options.seed, reps: options.bootstrapReps }) : null;
    // (a failure is a warning, below; until then it must not count as unhandled)
    measuring?.catch(() => {});
    return { pauses, attempts, measuring };
  });
  // (its error, if any, is thrown by the await below; until then it must not count as unhandled)
  paused.catch(() => {});
  // The models that do not read the pause count, while the mixture worker fits the threshold: one at a time, letting
  // the worker's answer in between (the then above hands it its next work without waiting for the last model).
  if (overlap) {
    const t = now();
    const data = new LmmData(modelData(ex.attempts, metrics, expertise.of));
    lmmMs += now() - t;
    for (const [i, job] of jobs.entries()) {
      if (job.response === 'pauses') continue;
      const fitStart = now();
      fits[i] = fitJob(data, job);
      lmmMs += now() - fitStart;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  const { pauses, attempts, measuring } = await paused;
  timings.gmm_ms = pauses.fit_ms;
  warnings.push(...pauseWarnings, ...laterWarnings);
  const attemptRows = attemptTable(attempts, set, metrics.usable, expertise.of);
  const participantRows = participantTable(ex.participants, attempts, expertise);

  stage('bradley-terry');
  const { bt, btSkips } = bradleyTerryStage(attempts, options.skipsHardest, warnings);
  const puzzleRows = puzzleTable(set, attempts, metrics.usable, bt, options.skipsHardest ? btSkips : undefined);

  stage('correlations');
  const correlate = correlator(warnings);
  const correlations = correlationStage(correlate, metrics.usable, puzzleRows, participantRows, bt !== null, btSkips !== null);
  const pool = options.candidates ? candidateStage(options.candidates, set, warnings) : null;

  let strategy: StrategyResult | null = null;
  if (ex.trajectories.length > 0 && ex.strategies.length === attempts.length) {
    stage('strategy');
    const shapes = new Map(set.puzzles.map((p) => {
      const q = signalPuzzleOf(p);
      const givens: number[] = [];
      q.givens?.forEach((row, r) => [...row].forEach((ch, c) => ch !== '.' && ch !== '0' && givens.push(r * q.width + c)));
      return [p.id, { width: q.width, height: q.height, givens }];
    }));
    // (its undefined correlations, e.g. a measure constant over the puzzles, are listed in its section, not among the study's warnings)
    const notes: string[] = [];
    strategy = strategyStage(ex.strategies, ex.marks, attempts, puzzleRows, metrics.usable, expertise.of, shapes, correlator(notes));
    strategy.notes = notes;
  }

  stage('robustness');
  const { robustness, solvers } = robustnessStage(correlate, set, puzzleRows, warnings);

  let measures: MeasureComparison | null = null;
  let measuresPending: Promise<MeasureComparison | null> | undefined;
  const kept = (c: MeasureComparison): MeasureComparison | null => {
    if (c.measures.length < 2) return null;
    if (set.config?.selection) c.selection = set.config.selection;
    return c;
  };
  if (compare) {
    stage('measures');
    if (measuring) {
      // a failure's warning goes where it would have been pushed here, before the warnings of the stages below
      const at = warnings.length;
      measuresPending = measuring.then(kept, (err: Error) => {
        warnings.splice(at, 0, `measure comparison: ${err.message}`);
        return null;
      });
    } else {
      try {
        measures = kept(compareMeasures(set.puzzles, attempts, { expertiseOf: expertise.of, seed: options.seed, reps: options.bootstrapReps }));
      } catch (err) {
        warnings.push(`measure comparison: ${(err as Error).message}`);
      }
    }
  }

  stage('mixed models');
  fitJobs(attempts, (job) => !overlap || job.response === 'pauses');
  const lmm = lmmRows(jobs, fits, warnings);
  timings.lmm_ms = lmmMs;

  let survival: SurvivalRow[] | null = null;
  if (options.survival) {
    stage('survival');
    survival = survivalStage(attempts, metrics.z, lmmMetrics, warnings);
  }

  let themes: ThemeRow[] | null = null;
  if (options.codes && options.codes.length) {
    stage('themes');
    themes = themeCorrelations(options.codes, attempts, participantRows);
  }

  return {
    attempts: attemptRows,
    participants: participantRows,
    puzzles: puzzleRows,
    gaps: ex.gaps,
    trajectories: ex.trajectories,
    strategy,
    pauses,
    correlations,
    lmm,
    themes,
    answers: ex.answers,
    pca: expertise.pca,
    bt,
    btSkipsHardest: btSkips,
    robustness,
    solvers,
    measures,
    ...(measuresPending ? { measuresPending } : {}),
    candidates: pool,
    survival,
    outcomes: outcomeSummary(attempts, options),
    metrics: metrics.usable,
    kinds: kindsOf(set.puzzles),
    warnings,
    timings,
    sessions: { total: ex.total, analysed: analysed.length, excluded_marked: ex.excludedMarked, incomplete: ex.incomplete },
    skipped_sessions: ex.skipped,
  };
}

/** Await the measure comparison still running on another thread (result.measuresPending), if any: result.measures is then set. */
export async function settleMeasures(result: AnalysisResult): Promise<void> {
  if (!result.measuresPending) return;
  result.measures = await result.measuresPending;
  delete result.measuresPending;
}

/** (1) The sessions: skipped ones and other configs become warnings; the analysed participants, or an error when there are none. */
function checkSessions(ex: Extracted, set: PuzzleSet, warnings: string[]): ExtractedParticipant[] {
  for (const s of ex.skipped) warnings.push(`skipped a bad session (--skip-bad-sessions): ${s.file}: ${s.error}`);
  const analysed = ex.participants.filter((p) => p.included);
  if (set.config_hash) {
    const other = ex.participants.filter((p) => p.config_hash !== null && p.config_hash !== set.config_hash);
    if (other.length) warnings.push(`${other.length} session(s) ran another config than ${set.config_hash} (e.g. ${other[0].participant_id}: ${other[0].config_hash})`);
  }
  if (analysed.length === 0) throw new Error(`no complete sessions to analyse among ${ex.total} (${ex.excludedMarked} marked pilot/test/excluded, ${ex.incomplete} incomplete)`);
  return analysed;
}

/** The metrics every puzzle has (the asked-for ones, or the defaults plus the extras every puzzle carries), each standardised over the puzzle set. */
interface PuzzleMetrics {
  usable: string[];
  /** metric -> puzzle id -> z-score over the puzzle set. */
  z: Map<string, Map<string, number>>;
}

function puzzleMetrics(set: PuzzleSet, asked: readonly string[] | undefined, warnings: string[]): PuzzleMetrics {
  const profile = profileOf(set.puzzles);
  const metricNames = [...new Set((asked ?? profile.defaultMetrics).map((m) => metricOf(m).name))];
  for (const extra of profile.extraMetrics) if (!metricNames.includes(extra) && set.puzzles.every((p) => puzzleMetric(p, extra) !== null)) metricNames.push(extra);
  const usable = metricNames.filter((m) => set.puzzles.every((p) => puzzleMetric(p, m) !== null));
  for (const m of metricNames) if (!usable.includes(m)) warnings.push(`metric ${m} is missing for some puzzles: left out`);
  const z = new Map<string, Map<string, number>>();
  for (const m of usable) {
    const vals = set.puzzles.map((p) => puzzleMetric(p, m)!);
    const mu = mean(vals);
    const sd = Math.sqrt(vals.reduce((s, v) => s + (v - mu) ** 2, 0) / Math.max(1, vals.length - 1));
    z.set(m, new Map(set.puzzles.map((p, i) => [p.id, sd > 0 ? (vals[i] - mu) / sd : 0])));
  }
  return { usable, z };
}

/** Expertise of the analysed participants (in their order): item z-scores, the z-mean composite, PC1, and the composite by participant id. */
interface Expertise {
  analysed: ExtractedParticipant[];
  zs: number[][];
  composite: number[];
  pc1: number[];
  pca: AnalysisResult['pca'];
  of: Map<string, number>;
}

/** (3) Expertise: the z-mean composite of the six items and PC1 of their correlation matrix. */
function expertiseStage(analysed: ExtractedParticipant[], warnings: string[]): Expertise {
  const matrix = analysed.map((p) => EXPERTISE_ITEMS.map((k) => (p[k] === null ? NaN : (p[k] as number))));
  let composite: number[] = analysed.map(() => NaN);
  let zs: number[][] = analysed.map(() => EXPERTISE_ITEMS.map(() => NaN));
  try {
    const zc = zMeanComposite(matrix);
    composite = zc.composite;
    zs = zc.z;
  } catch (err) {
    warnings.push(`expertise composite: ${(err as Error).message}`);
  }
  let pc1: number[] = analysed.map(() => NaN);
  let pcaOut: AnalysisResult['pca'] = null;
  try {
    const colMeans = EXPERTISE_ITEMS.map((_, j) => mean(finite(matrix.map((r) => r[j]))));
    const imputed = matrix.map((r) => r.map((v, j) => (Number.isFinite(v) ? v : colMeans[j])));
    const res = pca(imputed);
    const sign = res.loadings.reduce((s, l) => s + l[0], 0) >= 0 ? 1 : -1;
    pc1 = res.scores.map((s) => sign * s[0]);
    const both = pc1.map((v, i) => [v, composite[i]]).filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
    let agreement: NonNullable<AnalysisResult['pca']>['agreement'] = null;
    if (both.length >= 3) {
      const a = both.map((q) => q[0]), b = both.map((q) => q[1]);
      agreement = { n: both.length, pearson_r: pearson(a, b), spearman_rho: spearman(a, b).rho };
    }
    pcaOut = { explained: res.explained, loadings: Object.fromEntries(EXPERTISE_ITEMS.map((k, j) => [k, sign * res.loadings[j][0]])), agreement };
  } catch (err) {
    warnings.push(`PCA: ${(err as Error).message}`);
  }
  return { analysed, zs, composite, pc1, pca: pcaOut, of: new Map(analysed.map((p, i) => [p.participant_id, composite[i]])) };
}

/** attempts.csv: each attempt with its puzzle's metrics and its participant's expertise. */
function attemptTable(attempts: readonly AttemptRow[], set: PuzzleSet, usable: readonly string[], expertiseOf: Map<string, number>): Record<string, unknown>[] {
  const puzzleById = new Map(set.puzzles.map((p) => [p.id, p]));
  return attempts.map((a) => {
    const p = puzzleById.get(a.puzzle_id)!;
    const row: Record<string, unknown> = { ...a, expertise: expertiseOf.get(a.participant_id) ?? null };
    for (const m of usable) row[m] = puzzleMetric(p, m);
    return row;
  });
}

/** participants.csv: each participant with item z-scores, expertise, PC1 and the means over their attempts. */
function participantTable(participants: readonly ExtractedParticipant[], attempts: readonly AttemptRow[], expertise: Expertise): Record<string, unknown>[] {
  const byParticipant = new Map<string, AttemptRow[]>();
  for (const a of attempts) {
    let l = byParticipant.get(a.participant_id);
    if (!l) byParticipant.set(a.participant_id, (l = []));
    l.push(a);
  }
  const { zs, composite, pc1 } = expertise;
  const analysedIndex = new Map(expertise.analysed.map((p, i) => [p.participant_id, i]));
  return participants.map((p) => {
    const i = analysedIndex.get(p.participant_id);
    const list = byParticipant.get(p.participant_id) ?? [];
    const row: Record<string, unknown> = { ...p };
    EXPERTISE_ITEMS.forEach((k, j) => (row[`z_${k}`] = i === undefined ? null : zs[i][j]));
    row.expertise = i === undefined ? null : composite[i];
    row.pc1 = i === undefined ? null : pc1[i];
    row.mean_difficulty = mean(finite(list.map((a) => a.difficulty)));
    row.mean_time_s = mean(list.map((a) => a.time_s));
    row.mean_pauses = mean(finite(list.map((a) => a.pauses)));
    row.mean_errors = mean(list.map((a) => a.errors));
    row.mean_hints = mean(list.map((a) => a.hints));
    row.mean_undos = mean(list.map((a) => a.undos));
    row.solved = list.filter((a) => a.solved).length;
    row.skipped = list.filter((a) => a.skipped).length;
    return row;
  });
}

/** (4) Bradley-Terry scores from within-participant pairs of ratings (and, with skipsHardest, again with unrated skips as the hardest). */
function bradleyTerryStage(attempts: readonly AttemptRow[], skipsHardest: boolean | undefined, warnings: string[]): { bt: BtResult | null; btSkips: BtResult | null } {
  let bt: BtResult | null = null;
  const ratingRows = attempts.filter((a) => a.difficulty !== null).map((a) => ({ participant: a.participant_id, item: a.puzzle_id, rating: a.difficulty! }));
  try {
    bt = bradleyTerry(pairsFromRatings(ratingRows));
    const tied = tiedRanks(bt);
    if (tied) warnings.push(`Bradley-Terry: ${tied}`);
  } catch (err) {
    warnings.push(`Bradley-Terry: ${(err as Error).message}`);
  }
  let btSkips: BtResult | null = null;
  if (skipsHardest) {
    // A skip without a rating is harder than anything rated: one above the scale's top (two skips tie).
    const skipRows = attempts.filter((a) => a.difficulty === null && a.skipped).map((a) => ({ participant: a.participant_id, item: a.puzzle_id, rating: SKIP_RATING }));
    try {
      btSkips = bradleyTerry(pairsFromRatings([...ratingRows, ...skipRows]));
    } catch (err) {
      warnings.push(`Bradley-Terry with skips as hardest: ${(err as Error).message}`);
    }
  }
  return { bt, btSkips };
}

/** puzzles.csv: each puzzle's Bradley-Terry score and rank, outcome rates, behavioural means and metrics. */
/** btSkips: undefined without skipsHardest (no bt_skips columns), null when that fit failed (empty columns). */
function puzzleTable(set: PuzzleSet, attempts: readonly AttemptRow[], usable: readonly string[], bt: BtResult | null, btSkips: BtResult | null | undefined): PuzzleRow[] {
  const btSkipsOf = new Map((btSkips?.items ?? []).map((i) => [i.item, i]));
  const btOf = new Map((bt?.items ?? []).map((i) => [i.item, i]));
  return set.puzzles.map((p) => {
    const list = attempts.filter((a) => a.puzzle_id === p.id);
    const b = btOf.get(p.id);
    const row: PuzzleRow = {
      puzzle_id: p.id,
      bt_score: b?.log_ability ?? null,
      bt_se: b?.se ?? null,
      bt_rank: b?.rank ?? null,
      attempts: list.length,
      solve_rate: list.length ? list.filter((a) => a.solved).length / list.length : null,
      skip_rate: list.length ? list.filter((a) => a.skipped).length / list.length : null,
      mean_difficulty: mean(finite(list.map((a) => a.difficulty))),
      mean_time_s: mean(list.map((a) => a.time_s)),
      mean_pauses: mean(finite(list.map((a) => a.pauses))),
      mean_errors: mean(list.map((a) => a.errors)),
      mean_hints: mean(list.map((a) => a.hints)),
      mean_undos: mean(list.map((a) => a.undos)),
    };
    if (btSkips !== undefined) {
      row.bt_skips_score = btSkipsOf.get(p.id)?.log_ability ?? null;
      row.bt_skips_rank = btSkipsOf.get(p.id)?.rank ?? null;
    }
    for (const m of usable) row[m] = puzzleMetric(p, m);
    return row;
  });
}

/** Spearman's rho of x against y over the complete pairs, as a row (or a warning when undefined or too few pairs). */
type Correlate = (table: string, level: CorrelationRow['level'], x: string, y: string, xs: number[], ys: number[]) => CorrelationRow | null;

export function correlator(warnings: string[]): Correlate {
  return (table, level, x, y, xs, ys) => {
    const pairs = xs.map((v, i) => [v, ys[i]]).filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
    if (pairs.length < 3) {
      warnings.push(`correlation ${x} ~ ${y}: only ${pairs.length} complete pairs`);
      return null;
    }
    try {
      const xs2 = pairs.map((q) => q[0]), ys2 = pairs.map((q) => q[1]);
      const r = spearman(xs2, ys2);
      const reason = spearmanUndefinedReason(r, x, y, xs2, ys2);
      if (reason) warnings.push(`correlation ${x} ~ ${y} (${table}): ${reason}`);
      return { table, level, x, y, n: r.n, rho: r.rho, p: r.p, p_exact: r.p_exact };
    } catch (err) {
      warnings.push(`correlation ${x} ~ ${y}: ${(err as Error).message}`);
      return null;
    }
  };
}

/** (5) Table 1 (each metric against the Bradley-Terry score, per puzzle) and Table 3 (expertise against the participant means). */
function correlationStage(correlate: Correlate, usable: readonly string[], puzzleRows: readonly PuzzleRow[], participantRows: readonly Record<string, unknown>[], withBt: boolean, withBtSkips: boolean): CorrelationRow[] {
  const rows: (CorrelationRow | null)[] = [];
  if (withBt) for (const m of usable) rows.push(correlate('table1', 'puzzle', m, 'bt_score', puzzleRows.map((r) => r[m] as number), puzzleRows.map((r) => (r.bt_score as number | null) ?? NaN)));
  if (withBtSkips) for (const m of usable) rows.push(correlate('table1_skips_hardest', 'puzzle', m, 'bt_skips_score', puzzleRows.map((r) => r[m] as number), puzzleRows.map((r) => (r.bt_skips_score as number | null) ?? NaN)));
  const pr = participantRows.filter((r) => r.included);
  rows.push(correlate('expertise_difficulty', 'participant', 'expertise', 'mean_difficulty', pr.map((r) => r.expertise as number), pr.map((r) => r.mean_difficulty as number)));
  for (const y of ['mean_time_s', 'mean_pauses', 'mean_errors', 'mean_hints']) rows.push(correlate('table3', 'participant', 'expertise', y, pr.map((r) => r.expertise as number), pr.map((r) => r[y] as number)));
  return rows.filter((r): r is CorrelationRow => r !== null);
}

/** The candidate pool of the selection (Figure 2), or null (with a warning) when no candidate has the metric. */
function candidateStage(candidates: NonNullable<AnalyzeOptions['candidates']>, set: PuzzleSet, warnings: string[]): CandidatePool | null {
  const pool = candidatePool(candidates.file, candidates.puzzles, set, profileOf(set.puzzles).poolMetric);
  if (pool.values.length === 0) {
    warnings.push(`--candidates ${pool.file}: no candidate has metrics.sat.conflicts (run \`nonolab measure\` on it): no Figure 2`);
    return null;
  }
  if (pool.missing) warnings.push(`--candidates ${pool.file}: ${pool.missing} candidate(s) without metrics.sat.conflicts left out of Figure 2`);
  if (pool.not_found.length) warnings.push(`--candidates ${pool.file}: study puzzle(s) not among the candidates: ${pool.not_found.join(', ')}`);
  return pool;
}

/** (5b) Robustness across solvers: each solver's counters against the human measures, per puzzle. */
function robustnessStage(correlate: Correlate, set: PuzzleSet, puzzleRows: readonly PuzzleRow[], warnings: string[]): { robustness: CorrelationRow[]; solvers: string[] } {
  const solvers = otherSolvers(set.puzzles);
  const robustness: CorrelationRow[] = [];
  const ys = ['bt_score', 'mean_difficulty', 'mean_time_s', 'mean_pauses', 'mean_errors', 'mean_hints'];
  for (const solver of [...profileOf(set.puzzles).counterSources, ...solvers])
    for (const stat of SOLVER_STATS) {
      const x = `${solver}_${stat}`;
      const xs = set.puzzles.map((p) => puzzleMetric(p, x) ?? NaN);
      if (xs.some((v) => !Number.isFinite(v))) continue;
      if (xs.every((v) => v === xs[0])) {
        // one warning for the counter, not one per human measure; the rows stay, with rho undefined
        warnings.push(`robustness: ${x} is constant (${xs[0]} in all ${xs.length} puzzles): its Spearman rho is undefined against every human measure`);
        for (const y of ys) robustness.push({ table: 'robustness', level: 'puzzle', x, y, n: xs.length, rho: NaN, p: NaN, p_exact: null });
        continue;
      }
      for (const y of ys) {
        const row = correlate('robustness', 'puzzle', x, y, xs, puzzleRows.map((r) => (r[y] as number | null) ?? NaN));
        if (row) robustness.push(row);
      }
    }
  if (solvers.length === 0) warnings.push('robustness: only MiniSat measured the puzzles; run `nonolab measure --solvers cadical,cryptominisat,picosat` for the second-solver check the paper made');
  return { robustness, solvers };
}

/** One mixed model to fit: Table 2 (difficulty ~ metric * expertise) or Figure 4 (signal ~ metric), crossed random intercepts. */
interface LmmJob {
  model: string;
  response: string;
  metric: string;
  formula: string;
}
type LmmFit = { result: LmmResult; ms: number } | { error: string };

/** (6) The mixed models, in lmm.csv's order: Table 2 for each metric, then Figure 4 for each metric and signal. */
function lmmJobs(lmmMetrics: readonly string[]): LmmJob[] {
  const jobs: LmmJob[] = [];
  for (const m of lmmMetrics) jobs.push({ model: 'table2', response: 'difficulty', metric: m, formula: `difficulty ~ ${m} * expertise + (1|participant) + (1|puzzle)` });
  for (const m of lmmMetrics) for (const y of ['time_s', 'pauses', 'errors', 'hints']) jobs.push({ model: 'figure4', response: y, metric: m, formula: `${y} ~ ${m} + (1|participant) + (1|puzzle)` });
  return jobs;
}

/** The models' data: one row per attempt with its signals, the participant's expertise and each metric standardised. */
function modelData(attempts: readonly AttemptRow[], metrics: PuzzleMetrics, expertiseOf: Map<string, number>): DataRow[] {
  return attempts.map((a) => {
    const row: DataRow = {
      participant: a.participant_id,
      puzzle: a.puzzle_id,
      difficulty: a.difficulty,
      time_s: a.time_s,
      pauses: a.pauses,
      errors: a.errors,
      hints: a.hints,
      expertise: expertiseOf.get(a.participant_id) ?? null,
    };
    for (const m of metrics.usable) row[m] = metrics.z.get(m)!.get(a.puzzle_id)!;
    return row;
  });
}

function fitJob(data: LmmData, job: LmmJob): LmmFit {
  const t = now();
  try {
    return { result: fitLmm(data, job.formula), ms: now() - t };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** lmm.csv's rows: each fitted model's fixed effects with 95% CIs (t quantiles) and variance components; a failed fit is a warning. */
function lmmRows(jobs: readonly LmmJob[], fits: readonly LmmFit[], warnings: string[]): LmmRow[] {
  const lmm: LmmRow[] = [];
  jobs.forEach((job, i) => {
    const fit = fits[i];
    if ('error' in fit) {
      warnings.push(`LMM ${job.formula}: ${fit.error}`);
      return;
    }
    const res = fit.result;
    for (const f of res.fixed) {
      const q = tQuantile975(f.df);
      lmm.push({
        ...job,
        term: f.term,
        estimate: f.estimate,
        se: f.se,
        df: f.df,
        t: f.t,
        p: f.p,
        ci_low: f.estimate - q * f.se,
        ci_high: f.estimate + q * f.se,
        var_participant: res.variances.participant ?? NaN,
        var_puzzle: res.variances.puzzle ?? NaN,
        var_residual: res.variances.residual ?? NaN,
        singular: res.theta.some((t) => Math.abs(t) < SINGULAR_TOL),
        reml_criterion: res.criterion,
        n: res.n,
        fit_ms: fit.ms,
      });
    }
  });
  return lmm;
}

/** (6b) Survival: solve time right-censored at the skip, the time-out or the end of the session (a Cox model per metric). */
function survivalStage(attempts: readonly AttemptRow[], metricZ: PuzzleMetrics['z'], lmmMetrics: readonly string[], warnings: string[]): SurvivalRow[] {
  const survival: SurvivalRow[] = [];
  const timed = attempts.filter((a) => a.time_s > 0);
  if (timed.length < attempts.length) warnings.push(`survival: ${attempts.length - timed.length} attempt(s) with time 0 left out`);
  for (const m of lmmMetrics) {
    try {
      const fit = fitCox(timed.map((a) => ({ time: a.time_s, event: a.solved, x: [metricZ.get(m)!.get(a.puzzle_id)!], cluster: a.participant_id })), [m]);
      for (const t of fit.terms) survival.push({ model: 'cox_solve_time', metric: m, ...t, n: fit.n, events: fit.events, censored: fit.n - fit.events, clusters: fit.clusters });
    } catch (err) {
      warnings.push(`survival (Cox) solve time ~ ${m}: ${(err as Error).message}`);
    }
  }
  return survival;
}

/** lme4's default tolerance of isSingular (on theta, the random-effect SD over the residual SD). */
export const SINGULAR_TOL = 1e-4;

/** The generated pool the study puzzles were selected from: each candidate's metric, and the study puzzles found in it. */
export interface CandidatePool {
  file: string;
  metric: string;
  /** The metric of every candidate that has it. */
  values: number[];
  /** Candidates without the metric (left out of the figure). */
  missing: number;
  /** The study puzzles found among the candidates (by id), with their metric. */
  selected: { id: string; value: number }[];
  /** Study puzzles not found among the candidates. */
  not_found: string[];
}

/** The pool for Figure 2 from candidate puzzles (as `generate --sat` or `measure` wrote them) and the study set. */
export function candidatePool(file: string, candidates: readonly Puzzle[], set: PuzzleSet, metric = 'sat_conflicts'): CandidatePool {
  const byId = new Map(candidates.map((p) => [p.id, p]));
  const values: number[] = [];
  let missing = 0;
  for (const p of candidates) {
    const v = puzzleMetric(p, metric);
    if (v === null) missing++;
    else values.push(v);
  }
  const selected: CandidatePool['selected'] = [];
  const notFound: string[] = [];
  for (const p of set.puzzles) {
    const c = byId.get(p.id);
    const v = c ? puzzleMetric(c, metric) ?? puzzleMetric(p, metric) : null;
    if (c && v !== null) selected.push({ id: p.id, value: v });
    else notFound.push(p.id);
  }
  return { file, metric, values, missing, selected, not_found: notFound };
}

export const SOLVER_STATS = ['decisions', 'propagations', 'conflicts'] as const;

/** Solvers besides MiniSat whose counters (metrics.sat_<name>, as `measure --solvers` stores them) every puzzle has. */
export function otherSolvers(puzzles: readonly Puzzle[]): string[] {
  const names = new Set<string>();
  for (const p of puzzles) for (const k of Object.keys(p.metrics ?? {})) if (/^sat_[a-z0-9]+$/.test(k) && OTHER_SOLVERS.includes(k.slice(4))) names.add(k.slice(4));
  return [...names].filter((n) => puzzles.every((p) => SOLVER_STATS.every((s) => puzzleMetric(p, `${n}_${s}`) !== null))).sort();
}

/** A sentence naming the items that share a Bradley-Terry rank (equal scores), or null when every rank is distinct. */
export function tiedRanks(bt: BtResult): string | null {
  const byRank = new Map<number, string[]>();
  for (const i of bt.items) byRank.set(i.rank, [...(byRank.get(i.rank) ?? []), i.item]);
  const groups = [...byRank.entries()].filter(([, items]) => items.length > 1).sort((a, b) => a[0] - b[0]);
  if (groups.length === 0) return null;
  const all = groups.length === 1 && groups[0][1].length === bt.items.length;
  return (
    (all ? `all ${bt.items.length} puzzles have the same score (every comparison a tie or balanced): no ranking; ` : 'tied scores: ') +
    groups.map(([rank, items]) => `${items.join(', ')} share rank ${rank}`).join('; ')
  );
}

/** The rating given to an unrated skip when skips count as hardest: above the 1..5 scale. */
export const SKIP_RATING = 6;

/** Outcome counts and how skips and time-outs enter each analysis, as sentences for the report. */
export function outcomeSummary(attempts: readonly AttemptRow[], options: Pick<AnalyzeOptions, 'skipsHardest' | 'survival'>): OutcomeSummary {
  const count = (f: (a: AttemptRow) => boolean) => attempts.filter(f).length;
  const o = {
    attempts: attempts.length,
    solved: count((a) => a.outcome === 'solved'),
    skipped: count((a) => a.outcome === 'skipped'),
    timeout: count((a) => a.outcome === 'timeout'),
    incomplete: count((a) => a.outcome === 'incomplete'),
    rated: count((a) => a.difficulty !== null),
    unrated_skips: count((a) => a.difficulty === null && a.skipped),
    unrated_other: count((a) => a.difficulty === null && !a.skipped),
  };
  const statements = [
    `Bradley-Terry and Table 2 use the ${o.rated} rated attempts: ${o.unrated_skips} skipped attempt(s) rated N/A and ${o.unrated_other} other unrated attempt(s) (time-outs, sessions stopped) drop out; a skipped or timed-out attempt that was rated enters with its rating.` +
      (options.skipsHardest ? ` Sensitivity (--skips-hardest): the unrated skips count as rated harder than every rated puzzle of the same participant (two skips tie): bt_skips_score, bt_skips_rank and the table1_skips_hardest correlations.` : ' Rerun with --skips-hardest to count unrated skips as the hardest.'),
    `Figure 4 models and the participant means (Table 3): time_s of a skipped attempt is the time until the skip (${o.skipped}), of a timed-out one the time until the cap (${o.timeout}), of an incomplete one the time until its last event (${o.incomplete}), each entered as if it were a solve time; pauses, errors and hints count up to that point.` +
      (options.survival ? ' Sensitivity (--survival): a Cox model treats those times as right-censored (survival.csv).' : ' Rerun with --survival for a Cox model that treats them as right-censored.'),
  ];
  return { ...o, statements };
}

/**
 * Rank-biserial correlation of each theme with difficulty. Per-puzzle codes are compared with that attempt's
 * final rating; codes without a puzzle (strategies) with the participant's mean difficulty. Positive r: answers
 * carrying the theme come with higher difficulty.
 */
export function themeCorrelations(codes: readonly CodedAnswer[], attempts: readonly AttemptRow[], participants: readonly Record<string, unknown>[]): ThemeRow[] {
  const rating = new Map(attempts.map((a) => [`${a.participant_id}\u0000${a.puzzle_id}`, a.difficulty]));
  const meanDiff = new Map(participants.map((p) => [p.participant_id as string, p.mean_difficulty as number]));
  const attemptCoded: { score: number; codes: Set<string> }[] = [];
  const participantCoded = new Map<string, Set<string>>();
  for (const c of codes) {
    if (c.puzzle_id) {
      const d = rating.get(`${c.participant_id}\u0000${c.puzzle_id}`);
      if (typeof d === 'number') attemptCoded.push({ score: d, codes: new Set(c.codes) });
    } else {
      let s = participantCoded.get(c.participant_id);
      if (!s) participantCoded.set(c.participant_id, (s = new Set()));
      c.codes.forEach((x) => s!.add(x));
    }
  }
  const participantList = [...participantCoded.entries()].filter(([id]) => Number.isFinite(meanDiff.get(id))).map(([id, set]) => ({ score: meanDiff.get(id)!, codes: set }));
  const seen = new Set(codes.flatMap((c) => c.codes));
  const kindOf = (t: string): ThemeRow['kind'] =>
    (DIFFICULTY_THEMES as readonly string[]).includes(t) ? 'difficulty' : (STRATEGY_THEMES as readonly string[]).includes(t) ? 'strategy' : 'other';
  const order = [...DIFFICULTY_THEMES, ...STRATEGY_THEMES, ...[...seen].filter((t) => kindOf(t) === 'other').sort()];
  const rows: ThemeRow[] = [];
  for (const theme of order) {
    for (const [level, list] of [['attempt', attemptCoded], ['participant', participantList]] as const) {
      if (list.length === 0) continue;
      if (level === 'participant' && !list.some((x) => x.codes.has(theme))) continue;
      if (level === 'attempt' && kindOf(theme) === 'strategy' && !list.some((x) => x.codes.has(theme))) continue;
      const g1 = list.filter((x) => x.codes.has(theme)).map((x) => x.score);
      const g0 = list.filter((x) => !x.codes.has(theme)).map((x) => x.score);
      const r = g1.length && g0.length ? rankBiserial(g1, g0).r : null;
      rows.push({
        theme,
        kind: kindOf(theme),
        level,
        n_present: g1.length,
        n_absent: g0.length,
        mean_difficulty_present: g1.length ? mean(g1) : null,
        mean_difficulty_absent: g0.length ? mean(g0) : null,
        r_rb: r,
      });
    }
  }
  return rows;
}

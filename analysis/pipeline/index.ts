// The analysis pipeline: from a logs directory and a puzzle set to every table and report.html.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { kindOfText, nonogram } from '../../shared/puzzles/index.ts';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import { readPuzzleFile } from '../puzzleFile.ts';
import { join } from 'node:path';
import { analyzeExtracted, extractContext, settleMeasures, type AnalysisResult, type AnalyzeOptions, type CodedAnswer } from './analyze.ts';
import { gapRowKeys, readCodes, sessionFiles, writeTables } from './io.ts';
import { extractFiles, startGmmWorker } from './workers.ts';
import { redactUrl } from '../../store/databaseUrl.ts';
import { analyzeByKind } from './byKind.ts';
import { kindsOf } from './kinds.ts';
import { loadPuzzleSet, type PuzzleSet } from './puzzles.ts';
import { renderReport } from './report.ts';

export * from './analyze.ts';
export * from './pauses.ts';
export { analyzeByKind, extractOf } from './byKind.ts';
export { KIND_PROFILES, kindsOf, kindOfPuzzle, type KindProfile } from './kinds.ts';
export { loadPuzzleSet, withSatMetrics, PuzzleSetError, type PuzzleSet } from './puzzles.ts';
export { sessionFiles, readSessions, readCodes, writeTables, gapRowKeys, gapsCsvBytes } from './io.ts';
export { renderReport, renderSvg, figureSpecs } from './report.ts';
export { toCsv, parseCsv } from '../csv.ts';
export { extractLogs, extractFilesInline, mergeExtracts, ACTIONS, type Extracted, type GapColumns, type ExtractContext } from './extract.ts';
export { extractFiles, startGmmWorker, startWorker } from './workers.ts';

/** Fewer sessions than this are analysed on one thread (a worker's start-up would cost more than it saves). */
export const STATS_WORKER_MIN_SESSIONS = 40;

export interface RunOptions {
  /** The logs directory; or, instead, `database`: the PostgreSQL store's URL (events read from it directly). */
  logs?: string;
  database?: string;
  /** With `database`: the study read, by its slug (its schema: store/studies.ts); default the first study's tables. */
  study?: string;
  puzzles: string;
  out: string;
  pauseThreshold: 'auto' | number;
  /** Gaps per cell of a timed stroke (default) or per action. */
  gapLevel?: 'cell' | 'action';
  includePilot?: boolean;
  /** Bradley-Terry again with unrated skips as the hardest (sensitivity). */
  skipsHardest?: boolean;
  /** Candidate puzzles the study's were selected from (NDJSON from generate --sat / measure): Figure 2 in the report. */
  candidates?: string;
  /** A session file that cannot be read or analysed is skipped and listed (summary, warnings, report) instead of stopping the run. */
  skipBadSessions?: boolean;
  /** Cox model of solve time, right-censored at skips, time-outs and session ends (sensitivity). */
  survival?: boolean;
  /** Coding file; default: <logs>/codes.csv when it exists. */
  codes?: string;
  seed?: number;
  /** Write trajectories.csv (default true; false saves its time and memory on huge studies). */
  trajectories?: boolean;
  /** Validate every record with zod (default true). */
  validate?: boolean;
  report?: boolean;
  /** The comparison of every measure (measures.csv and the report's section; default true). */
  compareMeasures?: boolean;
  /** Bootstrap replicates of the comparison's intervals (default 1000). */
  bootstrapReps?: number;
  /** Worker threads for reading and extracting the logs (default: one per core; 1 = inline). */
  parallel?: number;
  onFiles?: (count: number) => void;
  onSession?: (done: number) => void;
  onStage?: (stage: string) => void;
}

export interface RunSummary {
  out: string;
  files: string[];
  figures: string[];
  sessions: AnalysisResult['sessions'];
  skipped_sessions: AnalysisResult['skipped_sessions'];
  attempts: number;
  threshold_s: number;
  threshold_source: string;
  warnings: string[];
  timings: Record<string, number>;
  puzzle_metrics_computed: string[];
}

export async function runAnalysis(opts: RunOptions): Promise<{ result: AnalysisResult; summary: RunSummary; set: PuzzleSet }> {
  const t0 = performance.now();
  const set = loadPuzzleSet(opts.puzzles);
  if (!opts.logs === !opts.database) throw new Error('give the logs directory or the database, one of them');
  if (opts.study !== undefined && !opts.database) throw new Error('a study is chosen by its slug in a database only (the logs directory of a study is its own folder)');
  const files = opts.logs ? sessionFiles(opts.logs) : [];
  if (opts.logs) opts.onFiles?.(files.length);
  const codesFile = opts.codes ?? (opts.logs && existsSync(join(opts.logs, 'codes.csv')) ? join(opts.logs, 'codes.csv') : undefined);
  const codes: CodedAnswer[] | undefined = codesFile ? readCodes(codesFile) : undefined;
  let candidates: AnalyzeOptions['candidates'];
  if (opts.candidates) {
    try {
      // (a candidate pool of another kind, e.g. `generate --kind sudoku --sat`, is read by its kind's module)
      const text = readFileSync(opts.candidates, 'utf8');
      const kind = kindOfText(text, opts.candidates);
      candidates = { file: opts.candidates, puzzles: kind === nonogram ? readPuzzleFile(opts.candidates).puzzles : (kind.parseFile(text, opts.candidates) as unknown as Puzzle[]) };
    } catch (err) {
      throw new Error(`--candidates: ${(err as Error).message}`);
    }
  }
  const options: AnalyzeOptions = {
    candidates,
    pauseThreshold: opts.pauseThreshold,
    gapLevel: opts.gapLevel,
    skipsHardest: opts.skipsHardest,
    survival: opts.survival,
    includePilot: opts.includePilot,
    codes,
    seed: opts.seed,
    compareMeasures: opts.compareMeasures,
    bootstrapReps: opts.bootstrapReps,
    onSession: opts.onSession,
    onStage: opts.onStage,
  };
  const te = performance.now();
  // A worker started now (its start-up overlaps the extraction) computes the puzzles' missing encodings (sat_gac) while
  // this thread reads the logs, fits the three-component mixture while this thread fits the others and the mixed
  // models that do not need the threshold (analyzeExtracted), runs the measure comparison while this thread finishes
  // the statistics and draws the report's figures, and writes gaps.csv (1.7 M rows for 10,000 participants) while this
  // thread writes the other tables. Two cores: an analysis takes the longer of the two threads' work, not their sum.
  // Not for a handful of sessions (its start-up would cost more than it saves), nor with parallel: 1.
  // (a Nonogram study's: a study of other kinds is analysed within each kind, byKind.ts, on this thread)
  const sessions = opts.logs ? files.length : STATS_WORKER_MIN_SESSIONS;
  const gmmWorker = (opts.parallel ?? 2) > 1 && sessions >= STATS_WORKER_MIN_SESSIONS && kindsOf(set.puzzles).every((k) => k === 'nonogram') ? startGmmWorker() : null;
  // (set once the worker is building gaps.csv)
  let gapsPrepared = false;
  if (gmmWorker) {
    if (opts.compareMeasures ?? true) {
      gmmWorker.encode(set.puzzles);
      options.measuresOn = gmmWorker.compareMeasures;
    }
    options.fitGmms = gmmWorker.fit;
    options.onPauses = (threshold, attempts, gaps) => {
      mkdirSync(opts.out, { recursive: true });
      gmmWorker.prepareGaps(join(opts.out, `.gaps.csv.partial-${process.pid}`), gapRowKeys(attempts), gaps, threshold);
      gapsPrepared = true;
    };
  }
  let result: AnalysisResult;
  let written: string[];
  let figures: string[] = [];
  try {
    const ctx = extractContext(set, opts.includePilot, opts.validate ?? true, opts.gapLevel, opts.skipBadSessions, opts.trajectories ?? true);
    const extracted = opts.database
      ? // (loaded on demand: the PostgreSQL driver is no part of analysing a logs directory)
        await (await import('./database.ts')).extractDatabase(opts.database, ctx, { onSessions: opts.onFiles, onSession: opts.onSession, study: opts.study })
      : await extractFiles(files, ctx, { parallel: opts.parallel, onSession: opts.onSession });
    const extractMs = performance.now() - te;
    const ta = performance.now();
    result = await analyzeByKind(extracted, set, options);
    result.timings.analysis_ms = performance.now() - ta;
    result.timings.signals_ms = extractMs;
    const report = async () => {
      opts.onStage?.('report');
      const tr = performance.now();
      // (the figures first: the measure comparison, if still on the worker, is awaited for its own section)
      const page = await renderReport(result, { title: `nonolab analysis${set.config ? `: ${set.config.title}` : ''}`, logs: opts.logs ?? redactUrl(opts.database!), puzzles: opts.puzzles, generated: new Date().toISOString() }, () => settleMeasures(result));
      mkdirSync(opts.out, { recursive: true });
      writeFileSync(join(opts.out, 'report.html'), page.html);
      figures = page.figures;
      result.timings.report_ms = performance.now() - tr;
    };
    // With the measure comparison on the worker, the report's figures are drawn while it runs; then the tables.
    // (a report that fails then still leaves the tables written, as when it is drawn after them; its error is thrown after)
    const reportFirst = (opts.report ?? true) && result.measuresPending !== undefined;
    let reportFailed: { error: unknown } | null = null;
    if (reportFirst) await report().catch((error: unknown) => (reportFailed = { error }));
    await settleMeasures(result);
    opts.onStage?.('writing tables');
    const tw = performance.now();
    let gapsWritten: Promise<void> | null = null;
    if (gmmWorker && gapsPrepared) {
      mkdirSync(opts.out, { recursive: true });
      gapsWritten = gmmWorker.writeGaps(join(opts.out, 'gaps.csv'));
      // a failure is reported by the await below; until then it must not count as unhandled
      gapsWritten.catch(() => {});
    }
    written = writeTables(result, opts.out, { gapsWrittenElsewhere: gapsWritten !== null, trajectories: opts.trajectories ?? true });
    result.timings.write_ms = performance.now() - tw;
    if (reportFailed) throw (reportFailed as { error: unknown }).error;
    if ((opts.report ?? true) && !reportFirst) await report();
    if (opts.report ?? true) written.push('report.html');
    await gapsWritten;
  } finally {
    await gmmWorker?.close();
  }
  result.timings.total_ms = performance.now() - t0;
  const summary: RunSummary = {
    out: opts.out,
    files: written,
    figures,
    sessions: result.sessions,
    skipped_sessions: result.skipped_sessions,
    attempts: result.attempts.length,
    threshold_s: result.pauses.threshold_s,
    threshold_source: result.pauses.threshold_source,
    warnings: result.warnings,
    timings: Object.fromEntries(Object.entries(result.timings).map(([k, v]) => [k, Math.round(v)])),
    puzzle_metrics_computed: set.computed,
  };
  return { result, summary, set };
}

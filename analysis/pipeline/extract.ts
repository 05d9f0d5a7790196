// Extraction: session logs -> participant rows, attempt rows, columnar gaps and answers, inline or across worker threads.
/*
 * The per-session work (read, JSON.parse, zod validation, replaying the boards) is independent between
 * sessions, so a large study is split into chunks of files handled by worker threads (one per core). Gaps are
 * kept in columns (typed arrays, transferred without copying) because a 10,000-participant study has over a
 * million of them; everything else comes back as plain rows. Small studies (or parallel: 1) run inline, in
 * the same order, so the output is identical either way.
 */
import { readFileSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { startWorker } from './startWorker.ts';
import type { SurveyItem } from '../../shared/schema/config.ts';
import {
  sessionSignals,
  participantRow,
  answerRows,
  parseSessionNdjson,
  type AttemptRow,
  type AnswerRow,
  type ParticipantRow,
  type SessionLog,
  type SignalPuzzle,
  type GapLevel,
} from '../../shared/signals/index.ts';
import type { DataRow, GmmFit } from '../stats/index.ts';
import { fitManyInline, fitGmmsInline, type FitOutcome, type FitGmms } from './analyze.ts';

/** Move types, coded as bytes in the gap columns. */
export const ACTIONS = ['fill', 'cross', 'clear', 'stroke', 'reveal', 'undo', 'reset', 'hint', 'submit', 'skip'] as const;
const ACTION_CODE = new Map<string, number>(ACTIONS.map((a, i) => [a, i]));

/**
 * Gaps in columns: gap k belongs to attempts[attempt[k]] and ends that attempt's action number index[k]; cell[k] is
 * the 0-based cell of the timed stroke that ends it (cell > 0: a gap inside a drag), -1 when it ends a whole action.
 */
export interface GapColumns {
  length: number;
  attempt: Int32Array;
  index: Int32Array;
  gap: Float64Array;
  action: Uint8Array;
  cell: Int16Array;
}

export interface ExtractContext {
  puzzles: SignalPuzzle[];
  items: SurveyItem[];
  allItems: SurveyItem[];
  guessingOptions?: readonly string[];
  includePilot?: boolean;
  validate?: boolean;
  /** Gaps at the cell level (default) or the action level (see sessionSignals). */
  gapLevel?: GapLevel;
  /** A session file that cannot be read or analysed is listed in `skipped` instead of stopping the run. */
  skipBadSessions?: boolean;
}

/** A session left out by skipBadSessions: its file (or session id) and why. */
export interface SkippedSession {
  file: string;
  error: string;
}

export type ExtractedParticipant = ParticipantRow & { included: boolean; marked: boolean };

export interface Extracted {
  participants: ExtractedParticipant[];
  /** Attempts of the included sessions. */
  attempts: AttemptRow[];
  gaps: GapColumns;
  answers: AnswerRow[];
  total: number;
  excludedMarked: number;
  incomplete: number;
  /** Sessions left out by skipBadSessions, in file order. */
  skipped: SkippedSession[];
}

class GapBuilder {
  attempt = new Int32Array(1024);
  index = new Int32Array(1024);
  gap = new Float64Array(1024);
  action = new Uint8Array(1024);
  cell = new Int16Array(1024);
  length = 0;
  push(attempt: number, index: number, gap: number, action: number, cell: number): void {
    if (this.length === this.gap.length) {
      const grow = <T extends Int32Array | Float64Array | Uint8Array | Int16Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.attempt = grow(this.attempt);
      this.index = grow(this.index);
      this.gap = grow(this.gap);
      this.action = grow(this.action);
      this.cell = grow(this.cell);
    }
    const k = this.length++;
    this.attempt[k] = attempt;
    this.index[k] = index;
    this.gap[k] = gap;
    this.action[k] = action;
    this.cell[k] = cell;
  }
  done(): GapColumns {
    const n = this.length;
    return { length: n, attempt: this.attempt.slice(0, n), index: this.index.slice(0, n), gap: this.gap.slice(0, n), action: this.action.slice(0, n), cell: this.cell.slice(0, n) };
  }
}

/** Extract a sequence of session logs inline. */
export function extractLogs(logs: Iterable<SessionLog>, ctx: ExtractContext, onSession?: (done: number) => void, skipped: SkippedSession[] = []): Extracted {
  const puzzles = new Map(ctx.puzzles.map((p) => [p.id, p]));
  const out: Omit<Extracted, 'gaps'> = { participants: [], attempts: [], answers: [], total: 0, excludedMarked: 0, incomplete: 0, skipped };
  const gaps = new GapBuilder();
  // The session's gaps, held until we know whether the session is analysed.
  const session = new GapBuilder();
  const onGap = (attempt: number, index: number, gap: number, action: string, cell: number) => session.push(attempt, index, gap, ACTION_CODE.get(action) ?? 255, cell);
  for (const log of logs) {
    out.total++;
    const pilot = log.marks.includes('pilot') || log.marks.includes('test');
    const marked = log.marks.includes('excluded') || (!ctx.includePilot && pilot);
    session.length = 0;
    let s: ReturnType<typeof sessionSignals>;
    try {
      s = sessionSignals(log, puzzles, { guessingOptions: ctx.guessingOptions, onGap, gapLevel: ctx.gapLevel });
    } catch (err) {
      if (!ctx.skipBadSessions) throw err;
      skipped.push({ file: `session ${log.session_id}`, error: (err as Error).message });
      out.total--;
      continue;
    }
    const row = participantRow(log, s.attempts.length, ctx.items);
    const included = !marked && row.status === 'complete';
    if (marked) out.excludedMarked++;
    else if (row.status !== 'complete') out.incomplete++;
    if (!log.marks.includes('excluded')) out.participants.push({ ...row, included, marked });
    if (included) {
      const base = out.attempts.length;
      for (const a of s.attempts) out.attempts.push(a);
      for (let k = 0; k < session.length; k++) gaps.push(base + session.attempt[k], session.index[k], session.gap[k], session.action[k], session.cell[k]);
      for (const a of answerRows(log, ctx.allItems)) out.answers.push(a);
    }
    onSession?.(out.total);
  }
  return { ...out, gaps: gaps.done() };
}

/** Read, validate and extract files inline. */
export function extractFilesInline(files: readonly string[], ctx: ExtractContext, onSession?: (done: number) => void): Extracted {
  const skipped: SkippedSession[] = [];
  function* logs() {
    for (const f of files) {
      let log: SessionLog;
      try {
        const text = readFileSync(f, 'utf8');
        if (text.trim() === '') continue;
        log = parseSessionNdjson(text, f, { validate: ctx.validate ?? true });
      } catch (err) {
        if (!ctx.skipBadSessions) throw err;
        skipped.push({ file: f, error: (err as Error).message });
        continue;
      }
      yield log;
    }
  }
  return extractLogs(logs(), ctx, onSession, skipped);
}

/** Concatenate extracts in order (attempt references in the gap columns are shifted). */
export function mergeExtracts(parts: readonly Extracted[]): Extracted {
  const n = parts.reduce((s, p) => s + p.gaps.length, 0);
  const gaps: GapColumns = { length: n, attempt: new Int32Array(n), index: new Int32Array(n), gap: new Float64Array(n), action: new Uint8Array(n), cell: new Int16Array(n) };
  const merged: Extracted = { participants: [], attempts: [], answers: [], gaps, total: 0, excludedMarked: 0, incomplete: 0, skipped: [] };
  let offset = 0;
  for (const p of parts) {
    const base = merged.attempts.length;
    for (let k = 0; k < p.gaps.length; k++) gaps.attempt[offset + k] = p.gaps.attempt[k] + base;
    gaps.index.set(p.gaps.index, offset);
    gaps.gap.set(p.gaps.gap, offset);
    gaps.action.set(p.gaps.action, offset);
    gaps.cell.set(p.gaps.cell, offset);
    offset += p.gaps.length;
    for (const x of p.participants) merged.participants.push(x);
    for (const x of p.attempts) merged.attempts.push(x);
    for (const x of p.answers) merged.answers.push(x);
    for (const x of p.skipped) merged.skipped.push(x);
    merged.total += p.total;
    merged.excludedMarked += p.excludedMarked;
    merged.incomplete += p.incomplete;
  }
  return merged;
}

export interface WorkerRequest {
  ctx: ExtractContext;
}
/** Main thread -> worker: extract chunk `index` (or stop). */
export type WorkerJob = { type: 'chunk'; index: number; files: string[] } | { type: 'stop' };
export type WorkerMessage =
  | { type: 'progress'; index: number; done: number }
  | { type: 'done'; index: number; result: Extracted }
  | { type: 'error'; message: string };

/**
 * Extract files with `parallel` worker threads (default: the number of cores). The files are cut into
 * small contiguous chunks that the workers take from a queue as they finish (so a worker slowed by other
 * processes on a shared machine does not hold the others up), and the chunks are merged in file order,
 * so the output equals the inline order. Falls back to inline for small studies or parallel <= 1.
 */
export async function extractFiles(files: readonly string[], ctx: ExtractContext, options: { parallel?: number; chunkSize?: number; onSession?: (done: number) => void } = {}): Promise<Extracted> {
  const parallel = Math.max(1, Math.min(options.parallel ?? Math.min(availableParallelism(), Math.ceil(files.length / 250)), 8, files.length));
  if (parallel <= 1) return extractFilesInline(files, ctx, options.onSession);
  const size = options.chunkSize ?? Math.max(50, Math.ceil(files.length / (parallel * 8)));
  const chunks = Array.from({ length: Math.ceil(files.length / size) }, (_, i) => files.slice(i * size, (i + 1) * size));
  const done = new Array<number>(chunks.length).fill(0);
  const parts = new Array<Extracted>(chunks.length);
  let next = 0;
  const workers: Worker[] = [];
  try {
    await Promise.all(
      Array.from(
        { length: Math.min(parallel, chunks.length) },
        () =>
          new Promise<void>((resolve, reject) => {
            const worker = startWorker('extractWorker', { workerData: { ctx } satisfies WorkerRequest });
            workers.push(worker);
            const give = () => {
              if (next < chunks.length) {
                const index = next++;
                worker.postMessage({ type: 'chunk', index, files: chunks[index] } satisfies WorkerJob);
              } else {
                worker.postMessage({ type: 'stop' } satisfies WorkerJob);
                resolve();
              }
            };
            worker.on('message', (m: WorkerMessage) => {
              if (m.type === 'progress') {
                done[m.index] = m.done;
                options.onSession?.(done.reduce((a, b) => a + b, 0));
              } else if (m.type === 'done') {
                parts[m.index] = m.result;
                done[m.index] = chunks[m.index].length;
                options.onSession?.(done.reduce((a, b) => a + b, 0));
                give();
              } else reject(new Error(m.message));
            });
            worker.on('error', reject);
            give();
          }),
      ),
    );
  } finally {
    for (const w of workers) void w.terminate();
  }
  return mergeExtracts(parts);
}

/** Fit mixed models across `parallel` worker threads (formulas dealt round-robin); results in formula order. */
export async function fitManyParallel(data: DataRow[], formulas: string[], parallel = availableParallelism()): Promise<FitOutcome[]> {
  const k = Math.max(1, Math.min(parallel, formulas.length));
  if (k <= 1) return fitManyInline(data, formulas);
  const groups = Array.from({ length: k }, (_, w) => formulas.map((f, i) => ({ f, i })).filter((x) => x.i % k === w));
  const out = new Array<FitOutcome>(formulas.length);
  await Promise.all(
    groups.map(
      (group) =>
        new Promise<void>((resolve, reject) => {
          const worker = startWorker('lmmWorker', { workerData: { data, formulas: group.map((g) => g.f) } });
          worker.on('message', (fits: FitOutcome[]) => {
            fits.forEach((fit, j) => (out[group[j].i] = fit));
            resolve();
            void worker.terminate();
          });
          worker.on('error', reject);
        }),
    ),
  );
  return out;
}

/**
 * A worker thread for the pause mixtures, started early (its start-up overlaps the extraction). fit()
 * gives it the fits with few components (1 and 2) and runs the others (3 and 4) in this thread, so the
 * four fits take about as long as the two slowest; the fits are independent (each seeds its own
 * generator), so the results equal fitGmmsInline's. close() ends the worker.
 */
export function startGmmWorker(): { fit: FitGmms; close: () => void } {
  const worker = startWorker('gmmWorker');
  worker.unref();
  const fit: FitGmms = async (data, ks, seed) => {
    const remote = ks.filter((k) => k <= 2), local = ks.filter((k) => k > 2);
    if (remote.length === 0) return fitGmmsInline(data, ks, seed);
    const pending = new Promise<GmmFit[]>((resolve, reject) => {
      worker.once('message', (m: { fits?: GmmFit[]; error?: string }) => (m.fits ? resolve(m.fits) : reject(new Error(m.error))));
      worker.once('error', reject);
    });
    worker.postMessage({ x: data.x, cnt: data.cnt, ks: remote, seed });
    const mine = await fitGmmsInline(data, local, seed);
    const theirs = await pending;
    return ks.map((k) => (k <= 2 ? theirs[remote.indexOf(k)] : mine[local.indexOf(k)]));
  };
  return { fit, close: () => void worker.terminate() };
}

// The analysis's worker threads: starting one (the compiled sibling in the build, the TypeScript source through tsx in development), the extraction pool and the pause-mixture worker.
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { availableParallelism } from 'node:os';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { extractFilesInline, mergeExtracts, type ExtractContext, type Extracted, type GapColumns } from './extract.ts';
import type { GmmWorkerJob } from './gmmWorker.ts';
import { fitGmmsInline, type FitGmms } from './pauses.ts';
import { gmmPlan, gmmScreen, type GmmFit } from '../stats/gmm.ts';
import type { MeasureComparison, MeasuresOffThread } from './measures.ts';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import type { AttemptRow } from '../../shared/signals/index.ts';

/** Each worker's bundle name (dist/node/<name>.js; scripts/build.mjs lists the same) and its source, relative to this file. */
const SOURCES = {
  extractWorker: './extractWorker.ts',
  gmmWorker: './gmmWorker.ts',
  satMetricsWorker: '../sat/metricsWorker.ts',
  phaseWorker: '../commands/phaseWorker.ts',
} as const;
export type WorkerName = keyof typeof SOURCES;

/**
 * In the build (scripts/build.mjs bundles each worker next to cli.js and server.js) this module is part of a `.js`
 * bundle and the worker is its sibling file. Run from source (tsx, vitest) it is a `.ts` file: the worker then evaluates
 * a two-line bootstrap that registers tsx before importing the worker's TypeScript source.
 */
export function startWorker(name: WorkerName, options: WorkerOptions = {}): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, here), options);
  const tsx = pathToFileURL(tsxEsmApi(here)).href;
  const entry = new URL(SOURCES[name], here).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** The file of tsx's ES-module API (`tsx/esm/api` under the import condition; require.resolve would give the CommonJS one). */
function tsxEsmApi(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return join(dirname(manifest), pkg.exports['./esm/api'].import.default);
}

export interface WorkerRequest {
  ctx: ExtractContext;
}
/** Main thread -> worker: extract chunk `index`. */
export type WorkerJob = { type: 'chunk'; index: number; files: string[] };
export type WorkerMessage =
  | { type: 'progress'; index: number; done: number }
  | { type: 'done'; index: number; result: Extracted }
  | { type: 'error'; message: string };

export interface PoolOptions<M> {
  /** Worker threads to start (at most one per task). */
  threads: number;
  /** Tasks 0..count-1, given out in order. */
  count: number;
  workerData?: unknown;
  /** The message that gives a worker task `index`. */
  job: (index: number) => unknown;
  /** Each message a worker posts: true when it finished its task (it is then given the next); throw to stop the run. */
  receive: (message: M) => boolean;
  /** Once true no more tasks are given out (the run ends when the running ones are in). */
  stopped?: () => boolean;
  /** Names the run in the error of a worker that stopped (e.g. 'phase'). */
  label: string;
}

/**
 * A task queue on worker threads (extraction chunks, phase boards): `threads` workers each take the next task as they
 * finish one, so a worker slowed by other processes on a shared machine does not hold the others up. A worker's error,
 * a message `receive` throws on, or a worker thread that exits (a crash) stops the run: the error is thrown and every
 * worker is ended. The workers are ended when the run is over.
 */
export async function runOnWorkers<M>(name: WorkerName, o: PoolOptions<M>): Promise<void> {
  const workers: Worker[] = [];
  let next = 0;
  // set by the first error: no task is given out after it, though a worker's message already on its way still arrives
  let failed = false;
  try {
    await Promise.all(
      Array.from(
        { length: Math.max(0, Math.min(o.threads, o.count)) },
        () =>
          new Promise<void>((resolve, reject) => {
            const worker = startWorker(name, o.workerData === undefined ? {} : { workerData: o.workerData });
            workers.push(worker);
            const fail = (err: unknown) => {
              failed = true;
              reject(err);
            };
            const give = () => {
              if (!failed && next < o.count && !o.stopped?.()) worker.postMessage(o.job(next++));
              else resolve();
            };
            worker.on('message', (m: M) => {
              if (failed) return;
              try {
                if (o.receive(m)) give();
              } catch (err) {
                fail(err);
              }
            });
            worker.on('error', fail);
            worker.on('exit', (code) => fail(new Error(`${o.label}: a worker thread stopped (exit code ${code})`)));
            give();
          }),
      ),
    );
  } finally {
    for (const w of workers) {
      w.removeAllListeners('exit');
      void w.terminate();
    }
  }
}

/**
 * Extract files with `parallel` worker threads (default: the number of cores). The files are cut into
 * small contiguous chunks that the workers take from a queue as they finish (runOnWorkers), and the chunks are merged
 * in file order, so the output equals the inline order. Falls back to inline for small studies or parallel <= 1.
 */
export async function extractFiles(files: readonly string[], ctx: ExtractContext, options: { parallel?: number; chunkSize?: number; onSession?: (done: number) => void } = {}): Promise<Extracted> {
  // A study of tens to a few hundred sessions (an analyst rerunning analyze while it runs): this thread and one worker.
  if (options.parallel === undefined && files.length >= SHARED_EXTRACTION_MIN && files.length < 250 && availableParallelism() > 1) return extractFilesShared(files, ctx, options);
  const parallel = Math.max(1, Math.min(options.parallel ?? Math.min(availableParallelism(), Math.ceil(files.length / 250)), 8, files.length));
  if (parallel <= 1) return extractFilesInline(files, ctx, options.onSession);
  // ~32 chunks per worker: the last chunks, taken as workers free up, leave little for one worker to finish alone
  const size = options.chunkSize ?? Math.max(50, Math.ceil(files.length / (parallel * 32)));
  const chunks = Array.from({ length: Math.ceil(files.length / size) }, (_, i) => files.slice(i * size, (i + 1) * size));
  const done = new Array<number>(chunks.length).fill(0);
  const parts = new Array<Extracted>(chunks.length);
  await runOnWorkers<WorkerMessage>('extractWorker', {
    threads: parallel,
    count: chunks.length,
    workerData: { ctx } satisfies WorkerRequest,
    job: (index) => ({ type: 'chunk', index, files: chunks[index] }) satisfies WorkerJob,
    receive: (m) => {
      if (m.type === 'error') throw new Error(m.message);
      if (m.type === 'done') parts[m.index] = m.result;
      done[m.index] = m.type === 'done' ? chunks[m.index].length : m.done;
      options.onSession?.(done.reduce((a, b) => a + b, 0));
      return m.type === 'done';
    },
    label: 'analyze',
  });
  return mergeExtracts(parts);
}

/** From this many session files on (and below 250, where the worker pool takes over) the default extraction is shared by this thread and one worker. */
export const SHARED_EXTRACTION_MIN = 40;

/**
 * Extract files on this thread and one worker together: the files are cut into small chunks that both take from one
 * queue (this thread between the worker's messages, so its start-up is not waited for), merged in file order as
 * extractFiles merges them: the output equals the inline one. An error on either side stops the run (the worker is
 * ended) and is thrown, as inline.
 */
export async function extractFilesShared(files: readonly string[], ctx: ExtractContext, options: { chunkSize?: number; onSession?: (done: number) => void } = {}): Promise<Extracted> {
  const size = options.chunkSize ?? Math.max(2, Math.ceil(files.length / 16));
  const chunks = Array.from({ length: Math.ceil(files.length / size) }, (_, i) => files.slice(i * size, (i + 1) * size));
  const queue = chunks.map((_, i) => i);
  const done = new Array<number>(chunks.length).fill(0);
  const parts = new Array<Extracted>(chunks.length);
  const progress = () => options.onSession?.(done.reduce((a, b) => a + b, 0));
  let failed = false;
  // (the worker's task is the next chunk in the queue, whatever runOnWorkers' count; it stops giving out once it is empty)
  const onWorker = runOnWorkers<WorkerMessage>('extractWorker', {
    threads: 1,
    count: chunks.length,
    workerData: { ctx } satisfies WorkerRequest,
    job: () => {
      const c = queue.shift()!;
      return { type: 'chunk', index: c, files: chunks[c] } satisfies WorkerJob;
    },
    stopped: () => failed || queue.length === 0,
    receive: (m) => {
      if (m.type === 'error') throw new Error(m.message);
      if (m.type === 'done') parts[m.index] = m.result;
      done[m.index] = m.type === 'done' ? chunks[m.index].length : m.done;
      progress();
      return m.type === 'done';
    },
    label: 'analyze',
  });
  onWorker.catch(() => {});
  try {
    while (queue.length > 0) {
      const c = queue.shift()!;
      parts[c] = extractFilesInline(chunks[c], ctx);
      done[c] = chunks[c].length;
      progress();
      // let the worker's messages in (it is given its next chunk as it posts one)
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } catch (err) {
    failed = true;
    await onWorker.catch(() => {});
    throw err;
  }
  await onWorker;
  return mergeExtracts(parts);
}

/**
 * A worker thread for the statistics beside the main thread's, started early (its start-up overlaps the extraction).
 * encode() hands it the puzzles at once: it computes their missing encodings (a Nonogram's sat_gac, MiniSat on the
 * line-GAC CNF) while this thread reads the logs. fit() gives it the three-component pause mixture (the paper's, and on
 * real gaps the slowest: EM crawls where components 2 and 3 overlap) and runs the others in this thread, which then goes
 * on with the work that does not need the threshold (see analyzeExtracted) while the worker finishes; the fits are
 * independent (each seeds its own generator), so the results equal fitGmmsInline's. compareMeasures() runs the measure
 * comparison there (the same function on the same data: the same numbers) while this thread fits the mixed models,
 * writes the tables and draws the figures. close() ends the worker.
 */
export function startGmmWorker(): {
  fit: FitGmms;
  prepareGaps: (file: string, keys: string[], gaps: GapColumns, threshold: number) => void;
  writeGaps: (file: string) => Promise<void>;
  encode: (puzzles: readonly Puzzle[]) => void;
  compareMeasures: MeasuresOffThread;
  close: () => Promise<void>;
} {
  const worker = startWorker('gmmWorker');
  worker.unref();
  // The worker answers the jobs that have an answer in the order they were given: each message settles the oldest.
  type Answer = { fits?: GmmFit[]; written?: string; measures?: MeasureComparison; error?: string };
  const waiting: { settle: (m: Answer) => void; reject: (err: unknown) => void }[] = [];
  worker.on('message', (m: Answer) => waiting.shift()?.settle(m));
  worker.on('error', (err) => {
    for (const w of waiting.splice(0)) w.reject(err);
  });
  const answer = <T>(job: GmmWorkerJob, pick: (m: Answer) => T | undefined): Promise<T> => {
    const pending = new Promise<T>((resolve, reject) => {
      waiting.push({
        settle: (m) => {
          const v = pick(m);
          if (v !== undefined) resolve(v);
          else reject(new Error(m.error ?? 'the statistics worker gave no answer'));
        },
        reject,
      });
    });
    worker.postMessage(job);
    return pending;
  };
  const encode = (puzzles: readonly Puzzle[]) => worker.postMessage({ type: 'puzzles', puzzles: puzzles as Puzzle[] } satisfies GmmWorkerJob);
  const compareMeasures: MeasuresOffThread = (attempts, options) => answer({ type: 'measures', attempts: attempts as AttemptRow[], options }, (m) => m.measures);
  // The three-component fit is the slowest (five screened starts, then the best run on): the worker screens the first
  // starts while this thread screens the last ones and sends them over, then fits the other mixtures; the worker
  // finishes the fit. The starts are drawn the same in both threads (gmmPlan), so the fit equals fitGmm's.
  const fit: FitGmms = async (data, ks, seed) => {
    if (!ks.includes(3)) return fitGmmsInline(data, ks, seed);
    const local = ks.filter((k) => k !== 3);
    const plan = gmmPlan(data, { components: 3, seed });
    const starts = plan.inits.length;
    const elsewhere = Array.from({ length: Math.floor(starts / 2) }, (_, i) => starts - 1 - i);
    const pending = answer({ type: 'split', x: data.x, cnt: data.cnt, k: 3, seed, elsewhere }, (m) => m.fits);
    worker.postMessage({ type: 'screens', screened: elsewhere.map((index) => ({ index, result: gmmScreen(plan, plan.inits[index]) })) } satisfies GmmWorkerJob);
    const mine = await fitGmmsInline(data, local, seed);
    const [three] = await pending;
    return ks.map((k) => (k === 3 ? three : mine[local.indexOf(k)]));
  };
  /**
   * gaps.csv is built and written by the worker (the gap columns are copied to it) into `temp` as soon as the threshold
   * is known, while this thread fits the remaining models and writes the other tables and the report; writeGaps(file)
   * waits for it and renames it into place. close() ends the worker and removes a temporary file never renamed.
   */
  let temp: string | null = null;
  const prepareGaps = (file: string, keys: string[], gaps: GapColumns, threshold: number) => {
    temp = file;
    worker.postMessage({ type: 'prepare', file, keys, gaps, threshold } satisfies GmmWorkerJob);
  };
  const writeGaps = async (file: string) => {
    const written = await answer({ type: 'written' }, (m) => m.written);
    renameSync(written, file);
    temp = null;
  };
  const close = async () => {
    await worker.terminate();
    if (temp !== null) rmSync(temp, { force: true });
  };
  return { fit, prepareGaps, writeGaps, encode, compareMeasures, close };
}

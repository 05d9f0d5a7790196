// `generate --sat` on several cores: puzzles from a generator get their MiniSat statistics on worker threads, in batches, and come out in the generator's order with the same bytes as computed inline.
import type { Worker } from 'node:worker_threads';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import { satMetricsRecord } from '../../shared/sat/index.ts';
import { startWorker } from '../pipeline/workers.ts';
import type { MetricsJob, MetricsResult } from './metricsWorker.ts';

/** The puzzle with metrics.sat and metrics.sat_dfa added after its other metrics (as generate's extraMetrics hook does). */
const withMetrics = (puzzle: Puzzle, sat: ReturnType<typeof satMetricsRecord>): Puzzle => ({ ...puzzle, metrics: { ...puzzle.metrics, ...sat } as Puzzle['metrics'] });

/**
 * Yield `puzzles` in order, each with its SAT metrics. threads <= 1: in this thread, one by one. Otherwise `threads`
 * workers solve batches of `batch` puzzles while this thread generates the next ones (at most 2 batches per worker
 * in flight, so memory stays bounded and output streams). The statistics are deterministic, so the output equals the
 * inline one. Workers are ended when the generator finishes or is abandoned.
 */
export async function* withSatMetrics(puzzles: Iterator<Puzzle>, threads: number, batch = 20, encodings: 'paper' | 'all' = 'paper'): AsyncGenerator<Puzzle> {
  if (threads <= 1) {
    for (let step = puzzles.next(); !step.done; step = puzzles.next()) yield withMetrics(step.value, satMetricsRecord(step.value, { encodings }));
    return;
  }
  const workers: Worker[] = [];
  const idle: Worker[] = [];
  const waiting: ((w: Worker) => void)[] = [];
  const release = (w: Worker) => {
    const next = waiting.shift();
    if (next) next(w);
    else idle.push(w);
  };
  const acquire = (): Promise<Worker> => {
    const w = idle.pop();
    if (w) return Promise.resolve(w);
    if (workers.length < threads) {
      const fresh = startWorker('satMetricsWorker');
      workers.push(fresh);
      return Promise.resolve(fresh);
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  let jobs = 0;
  const solve = async (items: Puzzle[]): Promise<Puzzle[]> => {
    const worker = await acquire();
    const index = jobs++;
    const result = await new Promise<MetricsResult>((resolve, reject) => {
      const onMessage = (m: MetricsResult) => {
        if (m.index !== index) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve(m);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.postMessage({ index, clues: items.map((p) => ({ rows: p.rows, cols: p.cols })), encodings } satisfies MetricsJob);
    });
    release(worker);
    if ('error' in result) throw new Error(`SAT metrics: ${result.error}`);
    return items.map((p, i) => withMetrics(p, result.metrics[i]));
  };
  const inFlight: Promise<Puzzle[]>[] = [];
  let done = false;
  try {
    for (;;) {
      while (!done && inFlight.length < 2 * threads) {
        const items: Puzzle[] = [];
        for (let step = puzzles.next(); items.length < batch; step = puzzles.next()) {
          if (step.done) {
            done = true;
            break;
          }
          items.push(step.value);
          if (items.length === batch) break;
        }
        if (items.length === 0) break;
        const pending = solve(items);
        pending.catch(() => {}); // awaited below, in order; this only keeps an early failure from being unhandled
        inFlight.push(pending);
      }
      const next = inFlight.shift();
      if (!next) return;
      yield* await next;
    }
  } finally {
    for (const w of workers) void w.terminate();
  }
}

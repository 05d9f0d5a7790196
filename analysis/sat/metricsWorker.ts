// Worker thread body for `generate --sat`: the MiniSat statistics (satMetricsRecord) of each batch of clues it is sent, posted back in the batch's order.
import { parentPort } from 'node:worker_threads';
import type { Clues } from '../../shared/nonogram/grid.ts';
import { satMetricsRecord } from '../../shared/sat/metrics.ts'; // not the index: it would load zod (dimacs.ts) into every worker

export type MetricsJob = { index: number; clues: Clues[]; encodings?: 'paper' | 'all' };
export type MetricsResult = { index: number; metrics: ReturnType<typeof satMetricsRecord>[] } | { index: number; error: string };

parentPort!.on('message', (job: MetricsJob) => {
  try {
    parentPort!.postMessage({ index: job.index, metrics: job.clues.map((c) => satMetricsRecord(c, { encodings: job.encodings })) } satisfies MetricsResult);
  } catch (err) {
    parentPort!.postMessage({ index: job.index, error: (err as Error).message } satisfies MetricsResult);
  }
});

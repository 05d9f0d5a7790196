// Worker thread body for `phase --jobs N`: runs the boards it is sent (runBoard, timed here) and posts each row back with its index.
import { parentPort } from 'node:worker_threads';
import type { Encoding } from '../../shared/sat/infer.ts';
import { timedBoard, type BoardRow } from './phaseBoard.ts';

export type PhaseJob = { index: number; size: number; density: number; board: number; seed: number; encoding: Encoding; budget: number | undefined };
export type PhaseResult = { index: number; row: BoardRow } | { index: number; error: string };

parentPort!.on('message', (job: PhaseJob) => {
  try {
    const row = timedBoard(job.size, job.density, job.board, job.seed, job.encoding, job.budget);
    parentPort!.postMessage({ index: job.index, row } satisfies PhaseResult);
  } catch (err) {
    parentPort!.postMessage({ index: job.index, error: (err as Error).message } satisfies PhaseResult);
  }
});

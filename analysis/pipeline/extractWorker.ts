// Worker thread body: extract the chunks of session files it is sent, in turn, and post each one's rows back (gap columns transferred, not copied).
import { parentPort, workerData } from 'node:worker_threads';
import { extractFilesInline } from './extract.ts';
import type { WorkerJob, WorkerMessage, WorkerRequest } from './workers.ts';

const { ctx } = workerData as WorkerRequest;
parentPort!.on('message', (job: WorkerJob) => {
  try {
    const result = extractFilesInline(job.files, ctx, (done) => {
      if (done % 100 === 0) parentPort!.postMessage({ type: 'progress', index: job.index, done } satisfies WorkerMessage);
    });
    parentPort!.postMessage({ type: 'done', index: job.index, result } satisfies WorkerMessage, [
      result.gaps.attempt.buffer as ArrayBuffer,
      result.gaps.index.buffer as ArrayBuffer,
      result.gaps.gap.buffer as ArrayBuffer,
      result.gaps.action.buffer as ArrayBuffer,
      result.gaps.cell.buffer as ArrayBuffer,
    ]);
  } catch (err) {
    parentPort!.postMessage({ type: 'error', message: (err as Error).message } satisfies WorkerMessage);
  }
});

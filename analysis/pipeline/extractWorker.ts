// Worker thread body: extract one chunk of session files and post the rows back (gap columns transferred, not copied).
import { parentPort, workerData } from 'node:worker_threads';
import { extractFilesInline, type WorkerMessage, type WorkerRequest } from './extract.ts';

const { files, ctx } = workerData as WorkerRequest;
try {
  const result = extractFilesInline(files, ctx, (done) => {
    if (done % 100 === 0) parentPort!.postMessage({ type: 'progress', done } satisfies WorkerMessage);
  });
  parentPort!.postMessage({ type: 'done', result } satisfies WorkerMessage, [result.gaps.attempt.buffer as ArrayBuffer, result.gaps.index.buffer as ArrayBuffer, result.gaps.gap.buffer as ArrayBuffer, result.gaps.action.buffer as ArrayBuffer]);
} catch (err) {
  parentPort!.postMessage({ type: 'error', message: (err as Error).message } satisfies WorkerMessage);
}

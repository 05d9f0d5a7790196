// Worker thread body: fit the pause mixtures it is asked for (each number of components on the same weighted data), or write gaps.csv, and post the outcome back.
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { fitGmm } from '../stats/gmm.ts';
import { gapsCsvBytes } from './io.ts';
import type { GapColumns } from './extract.ts';

export type GmmWorkerJob =
  | { type: 'fit'; x: Float64Array; cnt: Float64Array; ks: number[]; seed: number }
  | { type: 'prepare'; keys: string[]; gaps: GapColumns; threshold: number }
  | { type: 'write'; file: string };

// gaps.csv's bytes, built as soon as the threshold is known ('prepare', no answer) and written to the file the
// 'write' job names once the main thread writes the other tables (a failed analysis leaves no gaps.csv behind).
let prepared: { bytes: Buffer } | { error: string } | null = null;

parentPort!.on('message', (m: GmmWorkerJob) => {
  if (m.type === 'prepare') {
    try {
      prepared = { bytes: gapsCsvBytes(m.keys, m.gaps, m.threshold) };
    } catch (err) {
      prepared = { error: (err as Error).message };
    }
    return;
  }
  try {
    if (m.type === 'fit') parentPort!.postMessage({ fits: m.ks.map((k) => fitGmm({ x: m.x, cnt: m.cnt }, { components: k, seed: m.seed })) });
    else {
      if (prepared === null) throw new Error('gaps.csv was not prepared');
      if ('error' in prepared) throw new Error(prepared.error);
      writeFileSync(m.file, prepared.bytes);
      prepared = null;
      parentPort!.postMessage({ written: m.file });
    }
  } catch (err) {
    parentPort!.postMessage({ error: (err as Error).message });
  }
});

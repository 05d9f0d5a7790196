// Worker thread body: fit the pause mixtures it is asked for (each number of components on the same weighted data), or write gaps.csv, and post the outcome back.
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { fitGmm } from '../stats/gmm.ts';
import { gapsCsvBytes } from './io.ts';
import type { GapColumns } from './extract.ts';

export type GmmWorkerJob =
  | { type: 'fit'; x: Float64Array; cnt: Float64Array; ks: number[]; seed: number }
  | { type: 'gaps'; file: string; keys: string[]; gaps: GapColumns; threshold: number };

parentPort!.on('message', (m: GmmWorkerJob) => {
  try {
    if (m.type === 'fit') parentPort!.postMessage({ fits: m.ks.map((k) => fitGmm({ x: m.x, cnt: m.cnt }, { components: k, seed: m.seed })) });
    else {
      writeFileSync(m.file, gapsCsvBytes(m.keys, m.gaps, m.threshold));
      parentPort!.postMessage({ written: m.file });
    }
  } catch (err) {
    parentPort!.postMessage({ error: (err as Error).message });
  }
});
